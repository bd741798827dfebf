// The policy index of a move (the npz `move_indices`, spec "Chess
// encodings"): AlphaZero's 8 x 8 x 73 encoding, from the mover's point of
// view.
//
//   index = from * 73 + plane,  0 <= index < 4672
//
// `from` is the origin as the mover sees it, relative_square(us, origin)
// (the rows of encode.h: ranks flipped when Black moves, files kept). The
// plane is the move's shape in that view, with df the file step (towards
// the h-file positive) and dr the rank step (towards the opponent
// positive):
//
//   0 - 55   queen-like moves: direction * 7 + (distance - 1), direction
//            0 N (dr > 0), 1 NE, 2 E (df > 0), 3 SE, 4 S, 5 SW, 6 W, 7 NW;
//            king and pawn steps, castling (the king's two-square step, E or
//            W), en passant and promotions to a queen are here
//   56 - 63  knight moves, (df, dr) = (1, 2), (2, 1), (2, -1), (1, -2),
//            (-1, -2), (-2, -1), (-2, 1), (-1, 2)
//   64 - 72  promotions to a knight, bishop or rook: 64 + (df + 1) * 3 +
//            piece, df = -1, 0, 1 (a capture towards the a-file, a push, a
//            capture towards the h-file), piece 0 knight, 1 bishop, 2 rook
//
// Distinct legal moves of a position have distinct indices, and
// move_from_index inverts move_index on them.
#pragma once

#include "chess/move.h"
#include "chess/position.h"

namespace manaka::chess {

constexpr int MOVE_PLANE_NB = 73;
constexpr int POLICY_SIZE = SQUARE_NB * MOVE_PLANE_NB;  // 4672
constexpr int QUEEN_PLANES = 0, KNIGHT_PLANES = 56, UNDERPROMOTION_PLANES = 64;

// The index of m, a legal move of pos; -1 when m has no shape above (a move
// no piece makes), which a legal move never is.
int move_index(const Position& pos, Move m);
// The legal move of pos that index names, or MOVE_NONE when it names none
// (out of range, off the board, or not legal here). A queen-like step of a
// pawn onto the last rank is its promotion to a queen.
Move move_from_index(const Position& pos, int index);

}  // namespace manaka::chess
