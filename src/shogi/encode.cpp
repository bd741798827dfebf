#include "shogi/encode.h"

#include <array>
#include <cstring>
#include <string>

#include "core/planes.h"

namespace manaka::shogi {
namespace {

constexpr const char* HAND_NAME[HAND_KIND_NB] = {"pawn", "lance", "knight", "silver", "gold", "bishop", "rook"};

// Named in refusals (encode.h's table).
std::string plane_name(int plane) {
  if (plane < PLANE_THEIR_PIECES) return std::string("our ") + KIND_NAME[plane];
  if (plane < PLANE_OUR_HAND) return std::string("their ") + KIND_NAME[plane - PLANE_THEIR_PIECES];
  if (plane < PLANE_THEIR_HAND) return std::string("our hand ") + HAND_NAME[plane - PLANE_OUR_HAND];
  if (plane < PLANE_REPETITION) return std::string("their hand ") + HAND_NAME[plane - PLANE_THEIR_HAND];
  return plane == PLANE_REPETITION ? "repetition" : "white to move";
}

constexpr PlaneLayout kLayout{9, &plane_name};

void fill_plane(int8_t* out, int plane, int8_t value) { manaka::fill_plane(kLayout, out, plane, value); }
std::string cell_name(int plane, int cell) { return plane_cell_name(kLayout, plane, cell); }
Result<int> uniform_value(const int8_t* planes, int plane) { return uniform_plane_value(kLayout, planes, plane); }
Result<bool> uniform_flag(const int8_t* planes, int plane) { return uniform_plane_flag(kLayout, planes, plane); }

}  // namespace

void encode_planes(const Position& pos, bool repeated_before, int8_t* out) {
  const Packed packed = pack(pos);
  encode_packed(packed, out);
  if (repeated_before) fill_plane(out, PLANE_REPETITION, 1);
}

void encode_packed(std::span<const uint8_t, PACKED_LEN> packed, int8_t* out) {
  // OFFSET[us][s]: where square s lands in a piece plane, read by every row a trainer encodes.
  static constexpr auto OFFSET = [] {
    std::array<std::array<uint16_t, SQUARE_NB>, COLOR_NB> t{};
    for (int c = 0; c < COLOR_NB; ++c)
      for (int s = 0; s < SQUARE_NB; ++s) t[size_t(c)][size_t(s)] = uint16_t(view_cell(Color(c), Square(s)));
    return t;
  }();
  std::memset(out, 0, PLANES_SIZE);
  const Color us = packed[PACKED_SIDE] == WHITE ? WHITE : BLACK;
  const auto& offset = OFFSET[us];
  for (size_t s = 0; s < SQUARE_NB; ++s) {
    const Piece p = packed[s];
    if (!is_piece_byte(p)) continue;  // NO_PIECE
    const int plane = (color_of(p) == us ? PLANE_OUR_PIECES : PLANE_THEIR_PIECES) + kind_of(p);
    out[plane * SQUARE_NB + offset[s]] = 1;
  }
  const uint8_t* ours = &packed[PACKED_HAND + size_t(us) * HAND_KIND_NB];
  const uint8_t* theirs = &packed[PACKED_HAND + size_t(~us) * HAND_KIND_NB];
  for (int hk = 0; hk < HAND_KIND_NB; ++hk) {
    fill_plane(out, PLANE_OUR_HAND + hk, int8_t(ours[hk]));
    fill_plane(out, PLANE_THEIR_HAND + hk, int8_t(theirs[hk]));
  }
  if (us == WHITE) fill_plane(out, PLANE_WHITE_TO_MOVE, 1);
}

Result<DecodedPlanes> decode_planes(const int8_t* planes) {
  Setup setup;
  MANAKA_ASSIGN_OR_RETURN(bool white, uniform_flag(planes, PLANE_WHITE_TO_MOVE));
  const Color us = white ? WHITE : BLACK;
  setup.side = us;
  for (int plane = PLANE_OUR_PIECES; plane < PLANE_OUR_HAND; ++plane) {
    const Piece piece = plane < PLANE_THEIR_PIECES ? make_piece(us, Kind(plane))
                                                   : make_piece(~us, Kind(plane - PLANE_THEIR_PIECES));
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
  for (int plane = PLANE_OUR_HAND; plane < PLANE_REPETITION; ++plane) {
    const bool ours = plane < PLANE_THEIR_HAND;
    const int hk = plane - (ours ? PLANE_OUR_HAND : PLANE_THEIR_HAND);
    MANAKA_ASSIGN_OR_RETURN(int count, uniform_value(planes, plane));
    if (count < 0 || count > HAND_MAX[hk])
      return Status::invalid(cell_name(plane, 0) + ": expected 0 to " + std::to_string(int(HAND_MAX[hk])) +
                             ", got " + std::to_string(count));
    setup.hand[ours ? us : ~us][size_t(hk)] = uint8_t(count);
  }
  MANAKA_ASSIGN_OR_RETURN(bool repeated, uniform_flag(planes, PLANE_REPETITION));
  auto pos = Position::from_setup(setup);
  if (!pos.ok()) return std::move(pos).take_status().with_context("planes: ");
  return DecodedPlanes{std::move(pos).value(), repeated};
}

}  // namespace manaka::shogi
