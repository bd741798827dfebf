#include "chess/move_index.h"

#include <array>

namespace manaka::chess {
namespace {

struct Shape {
  int df, dr;                // the step in the mover's view
  PieceType promotion;       // an under-promotion plane's piece, else none
};

// The unit steps of directions 0..7 (N, NE, E, SE, S, SW, W, NW).
constexpr std::array<std::array<int, 2>, 8> QUEEN_DIRECTIONS = {{
    {0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}}};
constexpr std::array<std::array<int, 2>, 8> KNIGHT_STEPS = {{
    {1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}};
constexpr PieceType UNDERPROMOTIONS[3] = {KNIGHT, BISHOP, ROOK};

// PLANE_SHAPE[plane]: the shape each plane names.
constexpr std::array<Shape, MOVE_PLANE_NB> PLANE_SHAPE = [] {
  std::array<Shape, MOVE_PLANE_NB> t{};
  for (int d = 0; d < 8; ++d)
    for (int dist = 1; dist <= 7; ++dist)
      t[size_t(QUEEN_PLANES + d * 7 + dist - 1)] = {QUEEN_DIRECTIONS[size_t(d)][0] * dist,
                                                    QUEEN_DIRECTIONS[size_t(d)][1] * dist, NO_PIECE_TYPE};
  for (int k = 0; k < 8; ++k)
    t[size_t(KNIGHT_PLANES + k)] = {KNIGHT_STEPS[size_t(k)][0], KNIGHT_STEPS[size_t(k)][1], NO_PIECE_TYPE};
  for (int df = -1; df <= 1; ++df)
    for (int p = 0; p < 3; ++p) t[size_t(UNDERPROMOTION_PLANES + (df + 1) * 3 + p)] = {df, 1, UNDERPROMOTIONS[p]};
  return t;
}();

// STEP_PLANE[dr + 7][df + 7]: the queen-like or knight plane of a step, -1
// for a step neither makes. The inverse of PLANE_SHAPE's first 64 rows.
constexpr std::array<std::array<int8_t, 15>, 15> STEP_PLANE = [] {
  std::array<std::array<int8_t, 15>, 15> t{};
  for (auto& row : t) row.fill(-1);
  for (int plane = 0; plane < UNDERPROMOTION_PLANES; ++plane)
    t[size_t(PLANE_SHAPE[size_t(plane)].dr + 7)][size_t(PLANE_SHAPE[size_t(plane)].df + 7)] = int8_t(plane);
  return t;
}();

}  // namespace

int move_index(const Position& pos, Move m) {
  const Color us = pos.side_to_move();
  const Square from = relative_square(us, m.from_square()), to = relative_square(us, m.to_square());
  const int df = file_of(to) - file_of(from), dr = rank_of(to) - rank_of(from);
  int plane;
  const PieceType promotion = m.promotion();
  if (promotion == KNIGHT || promotion == BISHOP || promotion == ROOK) {
    if (dr != 1 || df < -1 || df > 1) return -1;
    plane = UNDERPROMOTION_PLANES + (df + 1) * 3 + (promotion - KNIGHT);
  } else {
    plane = STEP_PLANE[size_t(dr + 7)][size_t(df + 7)];
    if (plane < 0) return -1;
  }
  return from * MOVE_PLANE_NB + plane;
}

Move move_from_index(const Position& pos, int index) {
  if (index < 0 || index >= POLICY_SIZE) return MOVE_NONE;
  const Color us = pos.side_to_move();
  const Square from_view = Square(index / MOVE_PLANE_NB);
  const Shape& shape = PLANE_SHAPE[size_t(index % MOVE_PLANE_NB)];
  const int file = file_of(from_view) + shape.df, rank = rank_of(from_view) + shape.dr;
  if (file < 0 || file >= FILE_NB || rank < 0 || rank >= RANK_NB) return MOVE_NONE;
  const Square from = relative_square(us, from_view), to = relative_square(us, make_square(file, rank));
  PieceType promotion = shape.promotion;
  if (promotion == NO_PIECE_TYPE && pos.piece_on(from) == make_piece(us, PAWN) && relative_rank(us, to) == 7)
    promotion = QUEEN;
  const Move m = Move::make(from, to, promotion);
  return pos.is_legal(m) ? m : MOVE_NONE;
}

}  // namespace manaka::chess
