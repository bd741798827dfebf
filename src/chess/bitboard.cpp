// Attack tables, all computed at compile time from the moves of each piece.
#include "chess/bitboard.h"

namespace manaka::chess {
namespace {

// A board step as (file, rank) deltas; (0, 1) is one rank towards rank 8.
struct Step {
  int df, dr;
};
constexpr Step KING_STEPS[] = {{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}};
constexpr Step KNIGHT_STEPS[] = {{-2, -1}, {-2, 1}, {-1, -2}, {-1, 2}, {1, -2}, {1, 2}, {2, -1}, {2, 1}};
constexpr Step WHITE_PAWN_STEPS[] = {{-1, 1}, {1, 1}};
constexpr Step BLACK_PAWN_STEPS[] = {{-1, -1}, {1, -1}};

// Steps of DIR_N .. DIR_NW, matching DIR_DELTA.
constexpr Step DIR_STEP[DIR_NB] = {{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}};

constexpr bool on_board(int f, int r) { return f >= 0 && f < FILE_NB && r >= 0 && r < RANK_NB; }

template <size_t N>
constexpr SquareTable step_table(const Step (&steps)[N]) {
  SquareTable t{};
  for (int s = 0; s < SQUARE_NB; ++s)
    for (const Step& st : steps) {
      int f = file_of(Square(s)) + st.df, r = rank_of(Square(s)) + st.dr;
      if (on_board(f, r)) t[size_t(s)] |= square_bb(make_square(f, r));
    }
  return t;
}

constexpr Bitboard ray_from(Square s, Direction d) {
  Bitboard b = 0;
  int f = file_of(s) + DIR_STEP[d].df, r = rank_of(s) + DIR_STEP[d].dr;
  for (; on_board(f, r); f += DIR_STEP[d].df, r += DIR_STEP[d].dr) b |= square_bb(make_square(f, r));
  return b;
}

constexpr std::array<SquareTable, DIR_NB> make_rays() {
  std::array<SquareTable, DIR_NB> t{};
  for (int d = 0; d < DIR_NB; ++d)
    for (int s = 0; s < SQUARE_NB; ++s) t[size_t(d)][size_t(s)] = ray_from(Square(s), Direction(d));
  return t;
}

// The direction d + 4 is the opposite of d.
constexpr Direction opposite(int d) { return Direction((d + 4) % DIR_NB); }

constexpr std::array<SquareTable, SQUARE_NB> make_between() {
  std::array<SquareTable, SQUARE_NB> t{};
  for (int a = 0; a < SQUARE_NB; ++a)
    for (int d = 0; d < DIR_NB; ++d) {
      Bitboard ray = ray_from(Square(a), Direction(d));
      for (int b = 0; b < SQUARE_NB; ++b)
        if (ray & square_bb(Square(b)))
          t[size_t(a)][size_t(b)] = ray & ~ray_from(Square(b), Direction(d)) & ~square_bb(Square(b));
    }
  return t;
}

constexpr std::array<SquareTable, SQUARE_NB> make_line() {
  std::array<SquareTable, SQUARE_NB> t{};
  for (int a = 0; a < SQUARE_NB; ++a)
    for (int d = 0; d < DIR_NB; ++d) {
      Bitboard ray = ray_from(Square(a), Direction(d));
      Bitboard line = ray | ray_from(Square(a), opposite(d)) | square_bb(Square(a));
      for (int b = 0; b < SQUARE_NB; ++b)
        if (ray & square_bb(Square(b))) t[size_t(a)][size_t(b)] = line;
    }
  return t;
}

}  // namespace

constinit const std::array<SquareTable, DIR_NB> RAYS = make_rays();
constinit const std::array<SquareTable, COLOR_NB> PAWN_ATTACKS = {step_table(WHITE_PAWN_STEPS),
                                                                  step_table(BLACK_PAWN_STEPS)};
constinit const SquareTable KNIGHT_ATTACKS = step_table(KNIGHT_STEPS);
constinit const SquareTable KING_ATTACKS = step_table(KING_STEPS);
constinit const std::array<SquareTable, SQUARE_NB> BETWEEN = make_between();
constinit const std::array<SquareTable, SQUARE_NB> LINE = make_line();

}  // namespace manaka::chess
