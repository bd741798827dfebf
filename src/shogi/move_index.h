// The policy index of a move: AlphaZero shogi's 9 x 9 x 139 encoding, from
// the mover's point of view (docs/shogi-network.md).
//
//   index = cell * 139 + plane,  0 <= index < 11259
//
// `cell` is encode.h's r * 9 + c (the board rotated 180 degrees when White
// moves): the origin of a board move, the destination of a drop. The plane
// is the move's shape in that view, with dc the column step (towards the
// mover's right, file 1 for Black, positive) and dr the row step (towards
// the mover's far side, the opponent's camp, negative):
//
//   0 - 63     queen-like moves: direction * 8 + (distance - 1), direction
//              0 N (dr < 0, forward), 1 NE, 2 E (dc > 0), 3 SE, 4 S, 5 SW,
//              6 W, 7 NW; distance 1..8
//   64, 65     knight jumps, (dc, dr) = (-1, -2), (1, -2)
//   66 - 131   the same 66 shapes with promotion (plane - 66 is the shape)
//   132 - 138  drops, 132 + HandKind (pawn, lance, knight, silver, gold,
//              bishop, rook)
//
// Distinct legal moves of a position have distinct indices, and
// move_from_index inverts move_index on them.
#pragma once

#include "shogi/move.h"
#include "shogi/position.h"

namespace manaka::shogi {

constexpr int MOVE_PLANE_NB = 139;
constexpr int POLICY_SIZE = SQUARE_NB * MOVE_PLANE_NB;  // 11259
constexpr int QUEEN_PLANES = 0, KNIGHT_PLANES = 64, PROMOTION_PLANES = 66, DROP_PLANES = 132;

// The index of m, a legal move of pos; -1 when m has no shape above (a step
// no piece makes), which a legal move never is.
int move_index(const Position& pos, Move m);
// The same from the mover alone: the index depends on nothing else, so a
// shard's move16 candidates map without building the position.
int move_index(Color us, Move m);
// The legal move of pos that index names, or MOVE_NONE when it names none
// (out of range, off the board, or not legal here).
Move move_from_index(const Position& pos, int index);

}  // namespace manaka::shogi
