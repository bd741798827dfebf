// The input planes of the shogi network (docs/shogi-network.md): 44 planes
// of 9 x 9 int8 from the side to move's point of view, and their decoding
// back to a position.
//
// Layout: out[p * 81 + r * 9 + c] is plane p, row r, column c, C order for a
// (44, 9, 9) array. The board is seen from the mover's side: when White
// moves it is rotated 180 degrees (square s read as 80 - s, types.h's
// numbering) and the pieces swap roles (White's are "ours"). Row r is the
// rank as the mover counts it minus one, so row 0 is the mover's far side
// (the opponent's back rank); column c is 9 minus the file as the mover
// counts it, so column 0 is the file on the mover's left (file 9 for Black,
// as a diagram prints it). r * 9 + c is the "cell" move_index.h uses too.
//
//   plane    holds (1 or 0 per square unless said otherwise)
//   0 - 13   the mover's pieces by Kind (types.h's order): king, rook,
//            bishop, gold, silver, knight, lance, pawn, dragon, horse,
//            promoted silver, promoted knight, promoted lance, tokin
//   14 - 27  the opponent's, same order
//   28 - 34  the mover's hand counts by HandKind (pawn, lance, knight,
//            silver, gold, bishop, rook), the count on every square
//   35 - 41  the opponent's, same order
//   42       all ones when the position occurred before in the game
//            (Game::is_repetition(2))
//   43       all ones when White moves, all zeros when Black moves
//
// The move number is not encoded; decoding sets it to 1.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "core/status.h"
#include "shogi/pack.h"
#include "shogi/position.h"

namespace manaka::shogi {

constexpr int PLANE_NB = 44;
constexpr size_t PLANES_SIZE = size_t(PLANE_NB) * SQUARE_NB;  // int8 values per position

// The first plane of each group above (ints, so that plane + Kind is plain
// arithmetic).
constexpr int PLANE_OUR_PIECES = 0;     // + Kind
constexpr int PLANE_THEIR_PIECES = 14;  // + Kind
constexpr int PLANE_OUR_HAND = 28;      // + HandKind
constexpr int PLANE_THEIR_HAND = 35;    // + HandKind
constexpr int PLANE_REPETITION = 42;
constexpr int PLANE_WHITE_TO_MOVE = 43;

// The cell (r * 9 + c) square s is seen on by `mover`, and back.
constexpr int view_cell(Color mover, Square s) {
  const int v = mover == BLACK ? s : SQUARE_NB - 1 - s;  // square numbering in the mover's view
  return (v % 9) * 9 + v / 9;                            // row = rank - 1, column = 9 - file
}
constexpr Square view_square(Color mover, int cell) {
  const int v = (cell % 9) * 9 + cell / 9;
  return Square(mover == BLACK ? v : SQUARE_NB - 1 - v);
}

// Writes the PLANES_SIZE values of pos into out.
void encode_planes(const Position& pos, bool repeated_before, int8_t* out);
// The same from MPK1's 96 packed bytes (shogi/pack.h), with no Position
// built: what a shard's `packed` column feeds the trainer. The bytes hold no
// history, so plane 42 is zero. The bytes must be ones packed_is_valid
// accepts; a byte outside the board's values is not read as a piece.
void encode_packed(std::span<const uint8_t, PACKED_LEN> packed, int8_t* out);

struct DecodedPlanes {
  Position position;  // move number 1
  bool repeated_before;
};

// The position PLANES_SIZE values describe. Refuses what encode_planes could
// not have written, naming the plane, row and column: a value other than 0
// or 1 on a piece plane, two pieces on one square, a plane that must be
// uniform and is not, a hand count above its maximum (types.h's HAND_MAX),
// and a position Position::from_setup refuses.
Result<DecodedPlanes> decode_planes(const int8_t* planes);

}  // namespace manaka::shogi
