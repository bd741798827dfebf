// The input planes of the chess corpus (the npz `states`, spec "Chess
// encodings"): 20 planes of 8 x 8 int8 from the side to move's point of
// view, and their decoding back to a position.
//
// Layout: out[p * 64 + r * 8 + c] is plane p, row r, column c, C order for a
// (20, 8, 8) array. Row r and column c name the square
// relative_square(us, r * 8 + c) (types.h): column c is the file (a = 0),
// row r the rank counted from the mover's side, so row 0 is rank 1 when
// White moves and rank 8 when Black moves (the board flipped vertically;
// files are not mirrored). r * 8 + c is the same "square from the mover's
// view" as move_index's (move_index.h).
//
//   plane   holds (1 or 0 per square unless said otherwise)
//   0 - 5   the mover's pawns, knights, bishops, rooks, queens, king
//   6 - 11  the opponent's, same order
//   12      all ones when White moves, all zeros when Black moves
//   13, 14  all ones while the mover may castle king-side, queen-side
//   15, 16  the same for the opponent
//   17      a one on the en-passant square, only when a legal en-passant
//           capture exists (the square python-chess's fen() prints)
//   18      min(halfmove clock, 100) on every square
//   19      all ones when the position occurred before in the game (since
//           the last irreversible move: Game::is_repetition(2))
//
// The fullmove number is not encoded; decoding sets it to 1.
#pragma once

#include <cstddef>
#include <cstdint>

#include "chess/position.h"
#include "core/status.h"

namespace manaka::chess {

constexpr int PLANE_NB = 20;
constexpr size_t PLANES_SIZE = size_t(PLANE_NB) * SQUARE_NB;  // int8 values per position

// The first plane of each group above.
enum PlaneIndex : int {
  PLANE_OUR_PIECES = 0,     // + piece type - 1
  PLANE_THEIR_PIECES = 6,   // + piece type - 1
  PLANE_WHITE_TO_MOVE = 12,
  PLANE_CASTLING = 13,      // our OO, our OOO, their OO, their OOO
  PLANE_EN_PASSANT = 17,
  PLANE_HALFMOVE = 18,
  PLANE_REPETITION = 19,
};
constexpr int HALFMOVE_PLANE_MAX = 100;

// The square plane cell r * 8 + c names for `mover`, and back (the same map).
constexpr Square view_square(Color mover, int cell) { return relative_square(mover, Square(cell)); }

// Writes the PLANES_SIZE values of pos into out.
void encode_planes(const Position& pos, bool repeated_before, int8_t* out);

struct DecodedPlanes {
  Position position;  // fullmove number 1
  bool repeated_before;
};

// The position PLANES_SIZE values describe. Refuses what encode_planes could
// not have written, naming the plane, row and column: a value other than 0
// or 1 (0..100 on plane 18), a plane that must be uniform and is not, two
// pieces on one square, more than one en-passant square or one where no
// legal capture exists, and a position Position::from_setup refuses.
Result<DecodedPlanes> decode_planes(const int8_t* planes);

}  // namespace manaka::chess
