#include "chess/bitboard.h"

#include <gtest/gtest.h>

#include <random>

namespace manaka::chess {
namespace {

// Attacks by walking each direction square by square, for comparison.
Bitboard slow_slider(Square s, Bitboard occ, std::initializer_list<std::pair<int, int>> dirs) {
  Bitboard b = 0;
  for (auto [df, dr] : dirs) {
    int f = file_of(s) + df, r = rank_of(s) + dr;
    for (; f >= 0 && f < 8 && r >= 0 && r < 8; f += df, r += dr) {
      b |= square_bb(make_square(f, r));
      if (occ & square_bb(make_square(f, r))) break;
    }
  }
  return b;
}

TEST(Bitboard, SlidersMatchASquareBySquareWalk) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 2000; ++i) {
    Bitboard occ = rng() & rng();
    for (int s = 0; s < SQUARE_NB; ++s) {
      Square sq = Square(s);
      ASSERT_EQ(rook_attacks(sq, occ), slow_slider(sq, occ, {{1, 0}, {-1, 0}, {0, 1}, {0, -1}}));
      ASSERT_EQ(bishop_attacks(sq, occ), slow_slider(sq, occ, {{1, 1}, {-1, 1}, {1, -1}, {-1, -1}}));
    }
  }
}

TEST(Bitboard, StepTables) {
  EXPECT_EQ(popcount(KNIGHT_ATTACKS[SQ_A1]), 2);
  EXPECT_EQ(popcount(KNIGHT_ATTACKS[make_square(3, 3)]), 8);
  EXPECT_EQ(popcount(KING_ATTACKS[SQ_H8]), 3);
  EXPECT_EQ(PAWN_ATTACKS[WHITE][make_square(4, 1)], square_bb(make_square(3, 2)) | square_bb(make_square(5, 2)));
  EXPECT_EQ(PAWN_ATTACKS[BLACK][make_square(0, 6)], square_bb(make_square(1, 5)));
  EXPECT_EQ(pawn_attacks_bb(WHITE, file_bb(0) & rank_bb(1)), square_bb(make_square(1, 2)));
}

TEST(Bitboard, BetweenAndLine) {
  EXPECT_EQ(BETWEEN[SQ_E1][SQ_H1], square_bb(SQ_F1) | square_bb(SQ_G1));
  EXPECT_EQ(BETWEEN[SQ_H1][SQ_E1], square_bb(SQ_F1) | square_bb(SQ_G1));
  EXPECT_EQ(BETWEEN[SQ_A1][SQ_H8], BETWEEN[SQ_H8][SQ_A1]);
  EXPECT_EQ(popcount(BETWEEN[SQ_A1][SQ_H8]), 6);
  EXPECT_EQ(BETWEEN[SQ_A1][make_square(1, 2)], 0u);  // a knight's jump
  EXPECT_EQ(BETWEEN[SQ_A1][SQ_B1], 0u);
  EXPECT_EQ(LINE[SQ_A1][SQ_C1], rank_bb(0));
  EXPECT_EQ(LINE[SQ_C1][SQ_A1], rank_bb(0));
  EXPECT_EQ(LINE[SQ_A1][SQ_A8], file_bb(0));
  EXPECT_EQ(LINE[SQ_A1][make_square(1, 2)], 0u);
  EXPECT_EQ(popcount(LINE[make_square(2, 0)][make_square(3, 1)]), 6);  // c1-h6
}

}  // namespace
}  // namespace manaka::chess
