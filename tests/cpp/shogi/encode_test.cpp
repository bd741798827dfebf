// The input planes: known cells, the 180-degree view for White, hands, and
// decode_planes inverting encode_planes on positions of random games and
// refusing what encode could not write. (tests/python/test_shogi_encode.py
// checks the planes against cshogi's reading of the same positions.)
#include "shogi/encode.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "random_positions.h"
#include "shogi/pack.h"

namespace manaka::shogi {
namespace {

std::vector<int8_t> planes_of(const std::string& sfen, bool repeated = false) {
  auto pos = Position::from_sfen(sfen);
  EXPECT_TRUE(pos.ok()) << pos.status().message();
  std::vector<int8_t> out(PLANES_SIZE, -1);
  if (pos.ok()) encode_planes(*pos, repeated, out.data());
  return out;
}

int8_t at(const std::vector<int8_t>& planes, int plane, int row, int column) {
  return planes[size_t(plane * SQUARE_NB + row * 9 + column)];
}

int plane_sum(const std::vector<int8_t>& planes, int plane) {
  int sum = 0;
  for (int cell = 0; cell < SQUARE_NB; ++cell) sum += planes[size_t(plane * SQUARE_NB + cell)];
  return sum;
}

TEST(Planes, ViewCells) {
  // Black: row = rank - 1, column = 9 - file.
  EXPECT_EQ(view_cell(BLACK, make_square(9, 1)), 0);
  EXPECT_EQ(view_cell(BLACK, make_square(1, 1)), 8);
  EXPECT_EQ(view_cell(BLACK, make_square(5, 9)), 76);
  EXPECT_EQ(view_cell(BLACK, make_square(7, 7)), 6 * 9 + 2);
  // White: the board turned around; White's 5a is Black's 5i.
  EXPECT_EQ(view_cell(WHITE, make_square(5, 1)), 76);
  EXPECT_EQ(view_cell(WHITE, make_square(1, 9)), 0);
  for (int c = 0; c < 2; ++c)
    for (int s = 0; s < SQUARE_NB; ++s)
      EXPECT_EQ(view_square(Color(c), view_cell(Color(c), Square(s))), s);
}

TEST(Planes, StartPosition) {
  const auto planes = planes_of("startpos");
  EXPECT_EQ(at(planes, PLANE_OUR_PIECES + KING, 8, 4), 1);      // 5i
  EXPECT_EQ(at(planes, PLANE_OUR_PIECES + ROOK, 7, 7), 1);      // 2h
  EXPECT_EQ(at(planes, PLANE_OUR_PIECES + BISHOP, 7, 1), 1);    // 8h
  EXPECT_EQ(at(planes, PLANE_THEIR_PIECES + ROOK, 1, 1), 1);    // 8b
  EXPECT_EQ(at(planes, PLANE_THEIR_PIECES + BISHOP, 1, 7), 1);  // 2b
  EXPECT_EQ(plane_sum(planes, PLANE_OUR_PIECES + PAWN), 9);
  for (int column = 0; column < 9; ++column) EXPECT_EQ(at(planes, PLANE_OUR_PIECES + PAWN, 6, column), 1);
  for (int p = PLANE_OUR_HAND; p < PLANE_NB; ++p) EXPECT_EQ(plane_sum(planes, p), 0) << p;
  // White to move in the same (symmetric) position sees the same board.
  auto white = planes_of("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");
  EXPECT_EQ(plane_sum(white, PLANE_WHITE_TO_MOVE), SQUARE_NB);
  for (int cell = 0; cell < SQUARE_NB; ++cell) white[size_t(PLANE_WHITE_TO_MOVE * SQUARE_NB + cell)] = 0;
  EXPECT_EQ(white, planes);
}

TEST(Planes, HandsPromotedPiecesAndRepetition) {
  // White to move: White's dragon on 2h is on the mover's 8b; Black's tokin
  // on 3c is the opponent's piece on the mover's 7g. Hands: White 2 pawns
  // and a rook, Black a bishop and 3 golds.
  const auto planes = planes_of("4k4/9/6+P2/9/9/9/9/7+r1/4K4 w B3G2pr 1", true);
  EXPECT_EQ(at(planes, PLANE_OUR_PIECES + PRO_ROOK, 1, 1), 1);
  EXPECT_EQ(at(planes, PLANE_THEIR_PIECES + PRO_PAWN, 6, 2), 1);
  EXPECT_EQ(at(planes, PLANE_OUR_PIECES + KING, 8, 4), 1);
  EXPECT_EQ(at(planes, PLANE_THEIR_PIECES + KING, 0, 4), 1);
  EXPECT_EQ(plane_sum(planes, PLANE_OUR_HAND + H_PAWN), 2 * SQUARE_NB);
  EXPECT_EQ(plane_sum(planes, PLANE_OUR_HAND + H_ROOK), SQUARE_NB);
  EXPECT_EQ(plane_sum(planes, PLANE_THEIR_HAND + H_GOLD), 3 * SQUARE_NB);
  EXPECT_EQ(plane_sum(planes, PLANE_THEIR_HAND + H_BISHOP), SQUARE_NB);
  EXPECT_EQ(plane_sum(planes, PLANE_THEIR_HAND + H_PAWN), 0);
  EXPECT_EQ(plane_sum(planes, PLANE_REPETITION), SQUARE_NB);
  EXPECT_EQ(plane_sum(planes, PLANE_WHITE_TO_MOVE), SQUARE_NB);
}

TEST(Planes, DecodeInvertsEncodeOnRandomGames) {
  const auto positions = testing::random_game_positions(3000, 5);
  std::vector<int8_t> planes(PLANES_SIZE);
  for (size_t i = 0; i < positions.size(); ++i) {
    auto pos = unpack(positions[i]);
    ASSERT_TRUE(pos.ok());
    encode_planes(*pos, i % 3 == 0, planes.data());
    auto back = decode_planes(planes.data());
    ASSERT_TRUE(back.ok()) << back.status().message() << " " << pos->sfen();
    EXPECT_EQ(back->position.sfen(), pos->sfen());
    EXPECT_EQ(back->position.key(), pos->key());
    EXPECT_EQ(back->repeated_before, i % 3 == 0);
  }
}

TEST(Planes, DecodeRefusesWhatEncodeCouldNotWrite) {
  const auto start = planes_of("startpos");
  auto refusal = [&](int plane, int cell, int8_t value) {
    auto planes = start;
    planes[size_t(plane * SQUARE_NB + cell)] = value;
    auto r = decode_planes(planes.data());
    return r.ok() ? std::string("ok") : r.status().message();
  };
  EXPECT_EQ(refusal(PLANE_OUR_PIECES + GOLD, 40, 2), "plane 3 (our gold), row 4, column 4: expected 0 or 1, got 2");
  EXPECT_EQ(refusal(PLANE_THEIR_PIECES + PAWN, 76, 1), "plane 21 (their pawn), row 8, column 4: a second piece on 5i");
  EXPECT_EQ(refusal(PLANE_OUR_HAND + H_ROOK, 5, 1),
            "plane 34 (our hand rook), row 0, column 5: the plane must be uniform, got 1 after 0");
  EXPECT_EQ(refusal(PLANE_REPETITION, 80, 1),
            "plane 42 (repetition), row 8, column 8: the plane must be uniform, got 1 after 0");
  auto planes = start;
  for (int cell = 0; cell < SQUARE_NB; ++cell) planes[size_t((PLANE_THEIR_HAND + H_BISHOP) * SQUARE_NB + cell)] = 3;
  EXPECT_EQ(decode_planes(planes.data()).status().message(),
            "plane 40 (their hand bishop), row 0, column 0: expected 0 to 2, got 3");
  // A position the rules refuse: a third bishop (two on the board, one in hand).
  planes = start;
  for (int cell = 0; cell < SQUARE_NB; ++cell) planes[size_t((PLANE_OUR_HAND + H_BISHOP) * SQUARE_NB + cell)] = 1;
  auto r = decode_planes(planes.data());
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().message().starts_with("planes: ")) << r.status().message();
}

}  // namespace
}  // namespace manaka::shogi
