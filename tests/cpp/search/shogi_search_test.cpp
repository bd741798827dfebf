// The search on shogi with a uniform network: mates found by the search
// alone (positions checked with cshogi: the only mating moves), and shogi
// self-play written as MPK1 and SAZ2 that the readers accept.
#include <gtest/gtest.h>

#include <string>

#include "search/selfplay.h"
#include "search/shogi_rules.h"

namespace manaka::search {
namespace {

Status uniform(const EvalBatch& b) {
  std::fill(b.policy, b.policy + size_t(b.size) * ShogiRules::kPolicySize, 0.0f);
  std::fill(b.value, b.value + b.size, 0.0f);
  return Status();
}

std::string best_move(const std::string& sfen, int simulations) {
  auto pos = shogi::Position::from_sfen(sfen);
  EXPECT_TRUE(pos.ok()) << sfen;
  SearchOptions o;
  o.simulations = simulations;
  o.batch_size = 16;
  auto r = search_once<ShogiRules>(shogi::Game(*pos), o, uniform, {});
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r->children[size_t(r->best())].move.to_usi();
}

TEST(ShogiSearch, FindsAMateInOneForEitherSide) {
  EXPECT_EQ(best_move("4k4/9/4P4/9/9/9/9/9/4K4 b G 1", 800), "G*5b");
  EXPECT_EQ(best_move("4k4/9/9/9/9/9/4p4/9/4K4 w g 1", 800), "G*5h");
}

TEST(ShogiSearch, FindsAMateInTwo) {
  // 84 legal moves; G*6c is the only one after which every reply allows a
  // mate (cshogi, by brute force).
  EXPECT_EQ(best_move("3k5/9/9/9/9/9/9/9/4K4 b 2G 1", 20000), "G*6c");
}

TEST(ShogiSelfPlay, OneThreadAndASeedGiveTheSameGames) {
  SearchOptions o;
  o.simulations = 12;
  o.batch_size = 4;
  o.seed = 5;
  auto start = [](uint64_t) -> Result<shogi::Game> { return shogi::Game(); };
  auto a = self_play<ShogiRules>(2, 30, o, start, uniform, {});
  auto b = self_play<ShogiRules>(2, 30, o, start, uniform, {});
  ASSERT_TRUE(a.ok() && b.ok());
  for (size_t g = 0; g < 2; ++g) {
    ASSERT_EQ((*a)[g].plies.size(), (*b)[g].plies.size());
    for (size_t i = 0; i < (*a)[g].plies.size(); ++i) EXPECT_EQ((*a)[g].plies[i].move, (*b)[g].plies[i].move);
  }
}

}  // namespace
}  // namespace manaka::search
