#include "chess/termination.h"

namespace manaka::chess {
namespace {

// By Termination value; 0 is unused.
constexpr const char* TERMINATION_NAME[TERMINATION_NB] = {
    "",
    "CHECKMATE",
    "STALEMATE",
    "INSUFFICIENT_MATERIAL",
    "SEVENTYFIVE_MOVES",
    "FIVEFOLD_REPETITION",
    "FIFTY_MOVES",
    "THREEFOLD_REPETITION",
};

// a1 is dark; python-chess's BB_DARK_SQUARES.
constexpr Bitboard DARK_SQUARES = 0xAA55AA55AA55AA55ULL;

}  // namespace

const char* termination_name(Termination t) { return TERMINATION_NAME[size_t(t)]; }

const char* Outcome::result() const {
  if (!winner) return "1/2-1/2";
  return *winner == WHITE ? "1-0" : "0-1";
}

bool has_insufficient_material(const Position& pos, Color c) {
  const Bitboard ours = pos.pieces(c);
  if (ours & (pos.pieces(PAWN) | pos.pieces(ROOK, QUEEN))) return false;
  if (ours & pos.pieces(KNIGHT))
    return popcount(ours) <= 2 && !(pos.pieces(~c) & ~pos.pieces(KING, QUEEN));
  if (ours & pos.pieces(BISHOP)) {
    const Bitboard bishops = pos.pieces(BISHOP);
    const bool same_color = !(bishops & DARK_SQUARES) || !(bishops & ~DARK_SQUARES);
    return same_color && !pos.pieces(PAWN) && !pos.pieces(KNIGHT);
  }
  return true;
}

bool is_insufficient_material(const Position& pos) {
  return has_insufficient_material(pos, WHITE) && has_insufficient_material(pos, BLACK);
}

}  // namespace manaka::chess
