// chess/opening.h: random openings.
#include "chess/opening.h"

#include <gtest/gtest.h>

#include "chess/game.h"

#include <set>
#include <vector>

namespace manaka::chess {
namespace {

TEST(RandomOpening, DependsOnSeedAndIndexOnly) {
  std::set<std::vector<uint16_t>> seen;
  for (uint64_t index = 0; index < 20; ++index) {
    auto a = random_opening(3, index, 4);
    auto b = random_opening(3, index, 4);
    ASSERT_TRUE(a.ok() && b.ok());
    ASSERT_EQ(a->size(), 4u);
    EXPECT_EQ(*a, *b);
    std::vector<uint16_t> raw;
    for (Move m : *a) raw.push_back(m.raw);
    seen.insert(raw);
  }
  EXPECT_GE(seen.size(), 19u);  // 20 indexs, (almost surely) 20 openings
  auto other = random_opening(4, 0, 4);
  ASSERT_TRUE(other.ok());
  EXPECT_NE(*other, *random_opening(3, 0, 4));
}

TEST(RandomOpening, IsLegalAndNeverEndsTheGame) {
  for (uint64_t seed = 0; seed < 300; ++seed) {
    auto moves = random_opening(seed, seed % 7, 8);
    ASSERT_TRUE(moves.ok());
    ASSERT_EQ(moves->size(), 8u);
    Game game;
    for (Move m : *moves) {
      ASSERT_TRUE(game.position().is_legal(m)) << seed;
      game.push(m);
    }
    EXPECT_FALSE(game.outcome(true).has_value()) << seed;
  }
}

}  // namespace
}  // namespace manaka::chess
