#include "chess/encode.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "core/planes.h"

namespace manaka::chess {
namespace {

// Named in refusals, by plane (encode.h's table).
constexpr const char* PLANE_NAME[PLANE_NB] = {
    "our pawns", "our knights", "our bishops", "our rooks", "our queens", "our king",
    "their pawns", "their knights", "their bishops", "their rooks", "their queens", "their king",
    "white to move",
    "our king-side castling", "our queen-side castling", "their king-side castling", "their queen-side castling",
    "en passant", "halfmove clock", "repetition",
};

// The castling right bit of plane PLANE_CASTLING + i for the mover: i = 0,
// 1 ours (OO, OOO), 2, 3 theirs.
constexpr uint8_t castling_right(Color mover, int i) {
  const Color c = i < 2 ? mover : ~mover;
  return uint8_t(1 << (2 * c + (i & 1)));  // WHITE_OO = 1, WHITE_OOO = 2, BLACK_OO = 4, BLACK_OOO = 8
}


std::string plane_name(int plane) { return PLANE_NAME[plane]; }
constexpr PlaneLayout kLayout{8, &plane_name};

void fill_plane(int8_t* out, int plane, int8_t value) { manaka::fill_plane(kLayout, out, plane, value); }

std::string cell_name(int plane, int cell) { return plane_cell_name(kLayout, plane, cell); }
Result<int> uniform_value(const int8_t* planes, int plane) { return uniform_plane_value(kLayout, planes, plane); }
Result<bool> uniform_flag(const int8_t* planes, int plane) { return uniform_plane_flag(kLayout, planes, plane); }

}  // namespace

void encode_planes(const Position& pos, bool repeated_before, int8_t* out) {
  std::memset(out, 0, PLANES_SIZE);
  const Color us = pos.side_to_move();
  for (Bitboard b = pos.pieces(); b;) {
    const Square s = pop_lsb(b);
    const Piece p = pos.piece_on(s);
    const int plane = (color_of(p) == us ? PLANE_OUR_PIECES : PLANE_THEIR_PIECES) + type_of(p) - 1;
    out[plane * SQUARE_NB + view_square(us, s)] = 1;
  }
  if (us == WHITE) fill_plane(out, PLANE_WHITE_TO_MOVE, 1);
  for (int i = 0; i < CASTLING_RIGHT_NB; ++i)
    if (pos.castling_rights() & castling_right(us, i)) fill_plane(out, PLANE_CASTLING + i, 1);
  if (pos.has_legal_en_passant()) out[PLANE_EN_PASSANT * SQUARE_NB + view_square(us, pos.ep_square())] = 1;
  fill_plane(out, PLANE_HALFMOVE, int8_t(std::min(pos.halfmove_clock(), HALFMOVE_PLANE_MAX)));
  if (repeated_before) fill_plane(out, PLANE_REPETITION, 1);
}

Result<DecodedPlanes> decode_planes(const int8_t* planes) {
  Setup setup;
  MANAKA_ASSIGN_OR_RETURN(bool white, uniform_flag(planes, PLANE_WHITE_TO_MOVE));
  const Color us = white ? WHITE : BLACK;
  setup.side = us;
  for (int plane = PLANE_OUR_PIECES; plane < PLANE_THEIR_PIECES + 6; ++plane) {
    const Piece piece = make_piece(plane < PLANE_THEIR_PIECES ? us : ~us, PieceType(plane % 6 + 1));
    for (int cell = 0; cell < SQUARE_NB; ++cell) {
      const int8_t v = planes[plane * SQUARE_NB + cell];
      if (v == 0) continue;
      if (v != 1) return Status::invalid(cell_name(plane, cell) + ": expected 0 or 1, got " + std::to_string(int(v)));
      const Square s = view_square(us, cell);
      if (setup.board[s] != NO_PIECE)
        return Status::invalid(cell_name(plane, cell) + ": a second piece on " + square_name(s));
      setup.board[s] = piece;
    }
  }
  for (int i = 0; i < CASTLING_RIGHT_NB; ++i) {
    MANAKA_ASSIGN_OR_RETURN(bool right, uniform_flag(planes, PLANE_CASTLING + i));
    if (right) setup.castling |= castling_right(us, i);
  }
  for (int cell = 0; cell < SQUARE_NB; ++cell) {
    const int8_t v = planes[PLANE_EN_PASSANT * SQUARE_NB + cell];
    if (v == 0) continue;
    if (v != 1)
      return Status::invalid(cell_name(PLANE_EN_PASSANT, cell) + ": expected 0 or 1, got " + std::to_string(int(v)));
    if (setup.ep != SQ_NONE)
      return Status::invalid(cell_name(PLANE_EN_PASSANT, cell) + ": a second en-passant square after " +
                             square_name(setup.ep));
    setup.ep = view_square(us, cell);
  }
  MANAKA_ASSIGN_OR_RETURN(int clock, uniform_value(planes, PLANE_HALFMOVE));
  if (clock < 0 || clock > HALFMOVE_PLANE_MAX)
    return Status::invalid(cell_name(PLANE_HALFMOVE, 0) + ": expected 0 to " + std::to_string(HALFMOVE_PLANE_MAX) +
                           ", got " + std::to_string(clock));
  setup.halfmove_clock = clock;
  MANAKA_ASSIGN_OR_RETURN(bool repeated, uniform_flag(planes, PLANE_REPETITION));
  auto pos = Position::from_setup(setup);
  if (!pos.ok()) return std::move(pos).take_status().with_context("planes: ");
  if (setup.ep != SQ_NONE && !pos->has_legal_en_passant())
    return Status::invalid("planes: plane " + std::to_string(PLANE_EN_PASSANT) + " (en passant) marks " +
                           square_name(setup.ep) + ", but no legal en-passant capture exists there");
  return DecodedPlanes{std::move(pos).value(), repeated};
}

}  // namespace manaka::chess
