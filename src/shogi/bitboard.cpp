// Attack tables, all computed at compile time from the moves of each kind.
#include "shogi/bitboard.h"

namespace manaka::shogi {
namespace {

// A board step as (column, row): column 0 is file 9, row 0 is rank 1, so
// (0, -1) is one step towards rank 1, forward for Black.
struct Step {
  int dc, dr;
};
constexpr Step KING_STEPS[] = {{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}};
constexpr Step GOLD_STEPS[] = {{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {0, 1}};
constexpr Step SILVER_STEPS[] = {{-1, -1}, {0, -1}, {1, -1}, {-1, 1}, {1, 1}};
constexpr Step KNIGHT_STEPS[] = {{-1, -2}, {1, -2}};
constexpr Step PAWN_STEPS[] = {{0, -1}};
constexpr Step DIAGONAL_STEPS[] = {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}};
constexpr Step ORTHOGONAL_STEPS[] = {{0, -1}, {-1, 0}, {1, 0}, {0, 1}};

// Steps of DIR_N .. DIR_NW, matching DIR_DELTA.
constexpr Step DIR_STEP[DIR_NB] = {{0, -1}, {1, -1}, {1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}};

constexpr bool on_board(int c, int r) { return c >= 0 && c < 9 && r >= 0 && r < 9; }

// Squares reached from s by the steps, mirrored top to bottom for White.
template <size_t N>
constexpr Bitboard steps_from(Square s, Color color, const Step (&steps)[N]) {
  Bitboard b = 0;
  int sign = color == BLACK ? 1 : -1;
  for (const Step& st : steps) {
    int c = s / 9 + st.dc, r = s % 9 + sign * st.dr;
    if (on_board(c, r)) b |= square_bb(Square(c * 9 + r));
  }
  return b;
}

constexpr Bitboard step_attacks(Color c, Kind k, Square s) {
  switch (k) {
    case KING: return steps_from(s, c, KING_STEPS);
    case SILVER: return steps_from(s, c, SILVER_STEPS);
    case KNIGHT: return steps_from(s, c, KNIGHT_STEPS);
    case PAWN: return steps_from(s, c, PAWN_STEPS);
    case PRO_ROOK: return steps_from(s, c, DIAGONAL_STEPS);
    case PRO_BISHOP: return steps_from(s, c, ORTHOGONAL_STEPS);
    case GOLD: case PRO_SILVER: case PRO_KNIGHT: case PRO_LANCE: case PRO_PAWN:
      return steps_from(s, c, GOLD_STEPS);
    default: return 0;  // ROOK, BISHOP, LANCE: sliders only
  }
}

constexpr Bitboard ray_from(Square s, Direction d) {
  Bitboard b = 0;
  int c = s / 9 + DIR_STEP[d].dc, r = s % 9 + DIR_STEP[d].dr;
  for (; on_board(c, r); c += DIR_STEP[d].dc, r += DIR_STEP[d].dr) b |= square_bb(Square(c * 9 + r));
  return b;
}

constexpr std::array<SquareTable, DIR_NB> make_rays() {
  std::array<SquareTable, DIR_NB> t{};
  for (int d = 0; d < DIR_NB; ++d)
    for (int s = 0; s < SQUARE_NB; ++s) t[d][s] = ray_from(Square(s), Direction(d));
  return t;
}

constexpr std::array<std::array<Direction, SQUARE_NB>, SQUARE_NB> make_direction() {
  std::array<std::array<Direction, SQUARE_NB>, SQUARE_NB> t{};
  for (int a = 0; a < SQUARE_NB; ++a)
    for (int b = 0; b < SQUARE_NB; ++b) {
      t[a][b] = DIR_NONE;
      for (int d = 0; d < DIR_NB; ++d)
        if (ray_from(Square(a), Direction(d)) & square_bb(Square(b))) t[a][b] = Direction(d);
    }
  return t;
}

constexpr std::array<std::array<SquareTable, KIND_NB>, COLOR_NB> make_step() {
  std::array<std::array<SquareTable, KIND_NB>, COLOR_NB> t{};
  for (int c = 0; c < COLOR_NB; ++c)
    for (int k = 0; k < KIND_NB; ++k)
      for (int s = 0; s < SQUARE_NB; ++s) t[c][k][s] = step_attacks(Color(c), Kind(k), Square(s));
  return t;
}

constexpr Bitboard pseudo_attacks(Color c, Kind k, Square s) {
  auto rays = [s](std::initializer_list<Direction> ds) {
    Bitboard b = 0;
    for (Direction d : ds) b |= ray_from(s, d);
    return b;
  };
  Bitboard rook = rays({DIR_N, DIR_E, DIR_S, DIR_W});
  Bitboard bishop = rays({DIR_NE, DIR_SE, DIR_SW, DIR_NW});
  switch (k) {
    case ROOK: return rook;
    case BISHOP: return bishop;
    case LANCE: return ray_from(s, c == BLACK ? DIR_N : DIR_S);
    case PRO_ROOK: return rook | step_attacks(c, k, s);
    case PRO_BISHOP: return bishop | step_attacks(c, k, s);
    default: return step_attacks(c, k, s);
  }
}

constexpr std::array<std::array<SquareTable, KIND_NB>, COLOR_NB> make_pseudo() {
  std::array<std::array<SquareTable, KIND_NB>, COLOR_NB> t{};
  for (int c = 0; c < COLOR_NB; ++c)
    for (int k = 0; k < KIND_NB; ++k)
      for (int s = 0; s < SQUARE_NB; ++s) t[c][k][s] = pseudo_attacks(Color(c), Kind(k), Square(s));
  return t;
}

}  // namespace

constinit const std::array<SquareTable, DIR_NB> RAYS = make_rays();
constinit const std::array<std::array<Direction, SQUARE_NB>, SQUARE_NB> DIRECTION = make_direction();
constinit const std::array<std::array<SquareTable, KIND_NB>, COLOR_NB> STEP = make_step();
constinit const std::array<std::array<SquareTable, KIND_NB>, COLOR_NB> PSEUDO = make_pseudo();

}  // namespace manaka::shogi
