#include "shogi/move_index.h"

#include <array>

#include "shogi/encode.h"

namespace manaka::shogi {
namespace {

struct Step {
  int dc, dr;  // column and row steps in the mover's view
};

// The unit steps of directions 0..7 (N, NE, E, SE, S, SW, W, NW).
constexpr std::array<Step, 8> QUEEN_DIRECTIONS = {{
    {0, -1}, {1, -1}, {1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}}};
constexpr std::array<Step, 2> KNIGHT_STEPS = {{{-1, -2}, {1, -2}}};
constexpr int SHAPE_NB = PROMOTION_PLANES;  // 66 shapes before promotion

// SHAPE_STEP[plane]: the step each of the first 66 planes names.
constexpr std::array<Step, SHAPE_NB> SHAPE_STEP = [] {
  std::array<Step, SHAPE_NB> t{};
  for (int d = 0; d < 8; ++d)
    for (int dist = 1; dist <= 8; ++dist)
      t[size_t(QUEEN_PLANES + d * 8 + dist - 1)] = {QUEEN_DIRECTIONS[size_t(d)].dc * dist,
                                                    QUEEN_DIRECTIONS[size_t(d)].dr * dist};
  for (int k = 0; k < 2; ++k) t[size_t(KNIGHT_PLANES + k)] = KNIGHT_STEPS[size_t(k)];
  return t;
}();

// STEP_SHAPE[dr + 8][dc + 8]: the shape plane of a step, -1 for a step no
// piece makes. The inverse of SHAPE_STEP.
constexpr std::array<std::array<int8_t, 17>, 17> STEP_SHAPE = [] {
  std::array<std::array<int8_t, 17>, 17> t{};
  for (auto& row : t) row.fill(-1);
  for (int plane = 0; plane < SHAPE_NB; ++plane)
    t[size_t(SHAPE_STEP[size_t(plane)].dr + 8)][size_t(SHAPE_STEP[size_t(plane)].dc + 8)] = int8_t(plane);
  return t;
}();

}  // namespace

int move_index(const Position& pos, Move m) { return move_index(pos.side_to_move(), m); }

int move_index(Color us, Move m) {
  const int to = view_cell(us, m.to_square());
  if (m.is_drop()) return to * MOVE_PLANE_NB + DROP_PLANES + m.dropped_kind();
  const int from = view_cell(us, m.from_square());
  const int dc = to % 9 - from % 9, dr = to / 9 - from / 9;
  const int shape = STEP_SHAPE[size_t(dr + 8)][size_t(dc + 8)];
  if (shape < 0) return -1;
  return from * MOVE_PLANE_NB + shape + (m.is_promote() ? PROMOTION_PLANES : 0);
}

Move move_from_index(const Position& pos, int index) {
  if (index < 0 || index >= POLICY_SIZE) return MOVE_NONE;
  const Color us = pos.side_to_move();
  const int cell = index / MOVE_PLANE_NB, plane = index % MOVE_PLANE_NB;
  Move m;
  if (plane >= DROP_PLANES) {
    m = Move::drop(HandKind(plane - DROP_PLANES), view_square(us, cell));
  } else {
    const Step step = SHAPE_STEP[size_t(plane % PROMOTION_PLANES)];
    const int column = cell % 9 + step.dc, row = cell / 9 + step.dr;
    if (column < 0 || column >= FILE_NB || row < 0 || row >= RANK_NB) return MOVE_NONE;
    m = Move::normal(view_square(us, cell), view_square(us, row * 9 + column), plane >= PROMOTION_PLANES);
  }
  return pos.is_legal(m) ? m : MOVE_NONE;
}

}  // namespace manaka::shogi
