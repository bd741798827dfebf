// The policy index: values worked out by hand from move_index.h, and on every
// legal move of 10,000 positions from random games: indices distinct, in
// range, and inverted exactly by move_from_index.
#include "shogi/move_index.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "random_positions.h"
#include "shogi/movegen.h"
#include "shogi/pack.h"

namespace manaka::shogi {
namespace {

int index_of(const std::string& sfen, const char* usi) {
  auto pos = Position::from_sfen(sfen);
  auto m = Move::parse_usi(usi);
  EXPECT_TRUE(pos.ok() && m.ok() && pos->is_legal(*m)) << usi << " in " << sfen;
  return pos.ok() && m.ok() ? move_index(*pos, *m) : -1;
}

TEST(MoveIndex, KnownValues) {
  // 7g (row 6, column 2: cell 56) one step N.
  EXPECT_EQ(index_of("startpos", "7g7f"), 56 * 139 + 0);
  // The rook 2h (cell 70) five squares W to 7h.
  EXPECT_EQ(index_of("startpos", "2h7h"), 70 * 139 + 6 * 8 + 4);
  // The king 5i (cell 76) one step NE to 4h and NW to 6h.
  EXPECT_EQ(index_of("startpos", "5i4h"), 76 * 139 + 1 * 8);
  EXPECT_EQ(index_of("startpos", "5i6h"), 76 * 139 + 7 * 8);
  // White's 3c3d is Black's 7g7f seen from White's side.
  const std::string after = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2";
  EXPECT_EQ(index_of(after, "3c3d"), 56 * 139 + 0);
  // White's rook 8b to 4b is, in White's view, 2h (cell 70) to 6h: W, distance 4.
  EXPECT_EQ(index_of(after, "8b4b"), 70 * 139 + 6 * 8 + 3);
  // The bishop 8h (cell 64) takes on 2b and promotes: NE distance 6, promotion plane.
  const std::string open = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3";
  EXPECT_EQ(index_of(open, "8h2b+"), 64 * 139 + 66 + 1 * 8 + 5);
  EXPECT_EQ(index_of(open, "8h2b"), 64 * 139 + 1 * 8 + 5);
  // Knight jumps from 5e (cell 40): to 6c (left, plane 64) and 4c (right, 65), promoting or not.
  const std::string knight = "4k4/9/9/9/4N4/9/9/9/4K4 b - 1";
  EXPECT_EQ(index_of(knight, "5e6c"), 40 * 139 + 64);
  EXPECT_EQ(index_of(knight, "5e4c"), 40 * 139 + 65);
  EXPECT_EQ(index_of(knight, "5e4c+"), 40 * 139 + 66 + 65);
  // White's knight on 5e jumps to 4g: from White's view 5e -> 6c, left.
  EXPECT_EQ(index_of("4k4/9/9/9/4n4/9/9/9/4K4 w - 1", "5e4g"), 40 * 139 + 64);
  // Drops: the destination's cell, plane 132 + hand kind.
  const std::string hands = "4k4/9/9/9/9/9/9/9/4K4 b PLNSGBR 1";
  EXPECT_EQ(index_of(hands, "P*5e"), 40 * 139 + 132 + 0);
  EXPECT_EQ(index_of(hands, "R*9a"), 0 * 139 + 132 + 6);
  EXPECT_EQ(index_of(hands, "G*1b"), 17 * 139 + 132 + 4);
  // White's drop on 1b is on the mover's 9h (row 7, column 0).
  EXPECT_EQ(index_of("4k4/9/9/9/9/9/9/9/4K4 w s 1", "S*1b"), 63 * 139 + 132 + 3);
  // A rook sliding the whole board: 9i to 9a is N distance 8.
  EXPECT_EQ(index_of("1k7/9/9/9/9/9/9/9/R3K4 b - 1", "9i9a+"), 72 * 139 + 66 + 7);
}

TEST(MoveIndex, OutOfRangeAndIllegal) {
  const Position start = Position::startpos();
  EXPECT_EQ(move_from_index(start, -1), MOVE_NONE);
  EXPECT_EQ(move_from_index(start, POLICY_SIZE), MOVE_NONE);
  EXPECT_EQ(move_from_index(start, 56 * 139 + 1), MOVE_NONE);        // 7g7e: a pawn does not go two
  EXPECT_EQ(move_from_index(start, 0 * 139 + 0), MOVE_NONE);         // 9a north: off the board
  EXPECT_EQ(move_from_index(start, 56 * 139 + 66), MOVE_NONE);       // 7g7f+: outside the zone
  EXPECT_EQ(move_from_index(start, 40 * 139 + 132), MOVE_NONE);      // P*5e: no pawn in hand
  EXPECT_EQ(move_from_index(start, 56 * 139).to_usi(), "7g7f");
}

// Every legal move of 10,000 positions met along random games: in range,
// distinct within the position, and move_from_index gives the move back.
// On the first 100 positions also the converse: every index that names a
// move names one of the legal moves.
TEST(MoveIndex, InvertsOnRandomGames) {
  const auto positions = testing::random_game_positions(10000, 3);
  size_t moves_checked = 0, drops = 0, promotions = 0;
  std::vector<int> owner(POLICY_SIZE, -1);
  for (size_t i = 0; i < positions.size(); ++i) {
    auto pos = unpack(positions[i]);
    ASSERT_TRUE(pos.ok());
    MoveList list;
    generate_legal(*pos, list);
    for (Move m : list) {
      const int index = move_index(*pos, m);
      ASSERT_GE(index, 0) << m.to_usi() << " in " << pos->sfen();
      ASSERT_LT(index, POLICY_SIZE);
      ASSERT_NE(owner[size_t(index)], int(i)) << "two moves on index " << index << " in " << pos->sfen();
      owner[size_t(index)] = int(i);
      ASSERT_EQ(move_from_index(*pos, index), m) << m.to_usi() << " in " << pos->sfen();
      ++moves_checked;
      drops += m.is_drop();
      promotions += m.is_promote();
    }
    if (i < 100) {
      int named = 0;
      for (int index = 0; index < POLICY_SIZE; ++index) {
        const Move m = move_from_index(*pos, index);
        if (m == MOVE_NONE) continue;
        ++named;
        EXPECT_EQ(move_index(*pos, m), index);
      }
      EXPECT_EQ(named, list.size) << pos->sfen();
    }
  }
  EXPECT_GT(moves_checked, 300000u);  // about 400,000
  EXPECT_GT(drops, 10000u);
  EXPECT_GT(promotions, 1000u);
}

}  // namespace
}  // namespace manaka::shogi
