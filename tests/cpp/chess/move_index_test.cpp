#include "chess/move_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "chess/movegen.h"
#include "position_of.h"
#include "random_walk.h"

namespace manaka::chess {
namespace {

int index_of(const char* fen, const char* uci) {
  Position pos = position(fen);
  auto m = Move::parse_uci(uci);
  EXPECT_TRUE(m.ok() && pos.is_legal(*m)) << uci << " in " << fen;
  return m.ok() ? move_index(pos, *m) : -1;
}

// Indices worked out by hand from the layout in move_index.h.
TEST(MoveIndex, KnownValues) {
  EXPECT_EQ(index_of("startpos", "e2e4"), 12 * 73 + 0 * 7 + 1);  // e2 = 12, N, distance 2
  EXPECT_EQ(index_of("startpos", "e2e3"), 12 * 73 + 0);
  EXPECT_EQ(index_of("startpos", "g1f3"), 6 * 73 + 56 + 7);      // knight (-1, 2)
  EXPECT_EQ(index_of("startpos", "b1c3"), 1 * 73 + 56 + 0);      // knight (1, 2)
  // Black's e7e5 is White's e2e4 seen from Black's side.
  EXPECT_EQ(index_of("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", "e7e5"), 12 * 73 + 1);
  // Black's g8f6: from g8 (view g1 = 6), step (-1, +2) in Black's view.
  EXPECT_EQ(index_of("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", "g8f6"), 6 * 73 + 56 + 7);
  // Castling is the king's two-square step east or west.
  EXPECT_EQ(index_of("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1"), 4 * 73 + 2 * 7 + 1);
  EXPECT_EQ(index_of("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1"), 4 * 73 + 6 * 7 + 1);
  EXPECT_EQ(index_of("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8g8"), 4 * 73 + 2 * 7 + 1);
  // Rook a1 to a8: N, distance 7; the king one step west.
  EXPECT_EQ(index_of("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "a1a8"), 0 * 73 + 6);
  EXPECT_EQ(index_of("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1d1"), 4 * 73 + 6 * 7);
  // Promotions: to a queen on the queen-like planes, the others on 64..72.
  const char* promo = "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1";
  EXPECT_EQ(index_of(promo, "a7a8q"), 48 * 73 + 0);
  EXPECT_EQ(index_of(promo, "a7a8n"), 48 * 73 + 64 + 3 + 0);
  EXPECT_EQ(index_of(promo, "a7a8b"), 48 * 73 + 64 + 3 + 1);
  EXPECT_EQ(index_of(promo, "a7a8r"), 48 * 73 + 64 + 3 + 2);
  EXPECT_EQ(index_of(promo, "a7b8q"), 48 * 73 + 1 * 7);           // NE, 1
  EXPECT_EQ(index_of(promo, "a7b8r"), 48 * 73 + 64 + 6 + 2);      // towards the h-file
  // Black promoting on h1, capturing towards the a-file (g1).
  const char* black = "4k3/8/8/8/8/8/7p/4K1N1 b - - 0 1";
  EXPECT_EQ(index_of(black, "h2g1n"), 55 * 73 + 64 + 0 + 0);      // h2 is h7 (55) in Black's view
  EXPECT_EQ(index_of(black, "h2g1q"), 55 * 73 + 7 * 7);           // NW, 1
  EXPECT_EQ(index_of(black, "h2h1q"), 55 * 73 + 0);
}

TEST(MoveIndex, OutOfRangeAndIllegal) {
  const Position start = Position::startpos();
  EXPECT_EQ(move_from_index(start, -1), MOVE_NONE);
  EXPECT_EQ(move_from_index(start, POLICY_SIZE), MOVE_NONE);
  EXPECT_EQ(move_from_index(start, 12 * 73 + 2), MOVE_NONE);  // e2e5
  EXPECT_EQ(move_from_index(start, 7 * 73 + 14), MOVE_NONE);  // h1 east: off the board
  EXPECT_EQ(move_from_index(start, 12 * 73 + 64), MOVE_NONE); // an under-promotion from e2
}

// On every position of random games: the legal moves have distinct indices
// in range, each index maps back to its move, and of all 4672 indices
// exactly those name a legal move.
TEST(MoveIndex, BijectionOnLegalMoves) {
  auto positions = random_walk(17, 120, 200);
  ASSERT_GT(positions.size(), 10000u);
  long moves = 0;
  for (const Position& pos : positions) {
    MoveList list;
    generate_legal(pos, list);
    std::vector<int> indices;
    for (Move m : list) {
      const int index = move_index(pos, m);
      ASSERT_GE(index, 0) << m.to_uci() << " in " << pos.fen();
      ASSERT_LT(index, POLICY_SIZE);
      ASSERT_EQ(move_from_index(pos, index), m) << m.to_uci() << " in " << pos.fen();
      indices.push_back(index);
    }
    std::sort(indices.begin(), indices.end());
    ASSERT_EQ(std::adjacent_find(indices.begin(), indices.end()), indices.end()) << pos.fen();
    int named = 0;
    for (int index = 0; index < POLICY_SIZE; ++index) {
      const Move m = move_from_index(pos, index);
      if (m == MOVE_NONE) continue;
      ++named;
      ASSERT_TRUE(list.contains(m)) << index << " in " << pos.fen();
      ASSERT_EQ(move_index(pos, m), index) << m.to_uci() << " in " << pos.fen();
    }
    ASSERT_EQ(named, list.size) << pos.fen();
    moves += list.size;
  }
  EXPECT_GT(moves, 200000);
}

}  // namespace
}  // namespace manaka::chess
