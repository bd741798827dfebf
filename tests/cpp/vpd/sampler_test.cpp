#include "vpd/sampler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "chess/movegen.h"
#include "core/splitmix64.h"

namespace manaka::vpd {
namespace {

// Random legal games from the initial position, up to max_plies.
std::vector<chess::PgnGame> random_games(uint64_t seed, int n, int max_plies) {
  SplitMix64 rng(seed);
  std::vector<chess::PgnGame> games;
  for (int g = 0; g < n; ++g) {
    chess::PgnGame game;
    game.result = RESULT_TOKENS[rng.next() % 4];
    chess::Position pos = game.start;
    const int plies = 10 + int(rng.next() % uint64_t(max_plies - 10));
    for (int i = 0; i < plies; ++i) {
      chess::MoveList list;
      chess::generate_legal(pos, list);
      if (list.empty()) break;
      const chess::Move m = list[int(rng.next() % uint64_t(list.size))];
      game.moves.push_back(m);
      pos.do_move(m);
    }
    games.push_back(std::move(game));
  }
  return games;
}

std::vector<SampledPosition> sample(const std::vector<chess::PgnGame>& games, uint64_t target, uint64_t seed,
                                    SamplerCounts* counts = nullptr) {
  Sampler s(target, seed);
  for (size_t i = 0; i < games.size(); ++i) s.add_game(games[i], i + 1, 0);
  if (counts) *counts = s.counts();
  return s.take();
}

TEST(Quotas, FifteenSixtyTwentyFive) {
  EXPECT_EQ(phase_quotas(1'500'000), (std::array<uint64_t, 3>{225'000, 900'000, 375'000}));
  // Floors for opening and endgame; the middlegame takes the rest.
  EXPECT_EQ(phase_quotas(10), (std::array<uint64_t, 3>{1, 7, 2}));
  EXPECT_EQ(phase_quotas(1), (std::array<uint64_t, 3>{0, 1, 0}));
  for (uint64_t t : {1ull, 7ull, 99ull, 1001ull, 123457ull}) {
    auto q = phase_quotas(t);
    EXPECT_EQ(q[0] + q[1] + q[2], t);
  }
}

TEST(Sampler, SameSeedSameSampleOtherSeedOtherSample) {
  const auto games = random_games(1, 300, 160);
  const auto a = sample(games, 200, 7), b = sample(games, 200, 7), c = sample(games, 200, 8);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].fen, b[i].fen);
    EXPECT_EQ(a[i].game_number, b[i].game_number);
  }
  std::set<std::string> fa, fc;
  for (auto& p : a) fa.insert(p.fen);
  for (auto& p : c) fc.insert(p.fen);
  EXPECT_NE(fa, fc);
}

TEST(Sampler, AtMostOnePerGameAndPhaseWithinQuotas) {
  const auto games = random_games(2, 400, 200);
  SamplerCounts counts;
  const uint64_t target = 300;
  const auto rows = sample(games, target, 3, &counts);
  const auto quotas = phase_quotas(target);
  std::set<std::pair<uint64_t, int>> seen;
  std::set<std::string> fens;
  std::array<uint64_t, PHASE_NB> per_phase{};
  for (const auto& r : rows) {
    EXPECT_TRUE(seen.insert({r.game_number, r.phase}).second) << r.game_number << " " << int(r.phase);
    EXPECT_TRUE(fens.insert(r.fen).second) << r.fen;
    ++per_phase[r.phase];
    // The stored phase is the rule applied to the stored position.
    auto pos = chess::Position::from_fen(r.fen);
    ASSERT_TRUE(pos.ok());
    EXPECT_EQ(r.phase, phase_of(r.ply, pos->non_pawn_material(), chess::popcount(pos->pieces())));
  }
  for (int p = 0; p < PHASE_NB; ++p) {
    EXPECT_LE(per_phase[p], quotas[p]);
    EXPECT_EQ(per_phase[p], std::min(quotas[p], counts.offered[p])) << p;
  }
  EXPECT_EQ(per_phase[OPENING], quotas[OPENING]);
  EXPECT_EQ(per_phase[MIDDLEGAME], quotas[MIDDLEGAME]);
  // Ordered by game, then ply.
  for (size_t i = 1; i < rows.size(); ++i)
    EXPECT_TRUE(rows[i - 1].game_number < rows[i].game_number ||
                (rows[i - 1].game_number == rows[i].game_number && rows[i - 1].ply < rows[i].ply));
}

TEST(Sampler, DuplicatesAreSkippedAndCounted) {
  // The same 10-ply opening fifty times (opening quota 15 of 100): game k
  // (from 1) sees the k - 1 positions already selected as duplicates and
  // selects one of the others, so after game 10 all 10 are selected and
  // every later sight is a duplicate: 0 + 1 + ... + 9 + 40 * 10.
  auto games = random_games(3, 1, 11);
  games[0].moves.resize(10);
  std::vector<chess::PgnGame> same(50, games[0]);
  SamplerCounts counts;
  const auto rows = sample(same, 100, 1, &counts);
  EXPECT_EQ(rows.size(), 10u);
  EXPECT_EQ(counts.positions_considered, 500u);
  EXPECT_EQ(counts.duplicates, 45u + 400u);
  std::set<std::string> fens;
  for (auto& r : rows) fens.insert(r.fen);
  EXPECT_EQ(fens.size(), 10u);
}

TEST(Sampler, WithinGameChoiceIsUniform) {
  // One game of 10 opening positions offered to many independent seeds:
  // each ply is chosen about a tenth of the time.
  auto games = random_games(4, 1, 11);
  games[0].moves.resize(10);
  std::map<int, int> chosen;
  const int trials = 4000;
  for (int seed = 0; seed < trials; ++seed) {
    const auto rows = sample(games, 100, uint64_t(seed));
    ASSERT_EQ(rows.size(), 1u);
    ++chosen[rows[0].ply];
  }
  EXPECT_EQ(chosen.size(), 10u);
  for (auto& [ply, n] : chosen) EXPECT_NEAR(n, trials / 10, 80) << ply;
}

TEST(Sampler, AcrossGamesReservoirIsUniform) {
  // 20 games offering one opening position each to a quota of 3 (target
  // 20): each game is kept with probability 3/20.
  // Each game starts after a different first move, so the 20 candidates
  // are distinct FENs.
  std::vector<chess::PgnGame> distinct;
  chess::MoveList list;
  chess::generate_legal(chess::Position::startpos(), list);
  for (chess::Move m : list) {
    chess::PgnGame g;
    g.start.do_move(m);
    chess::MoveList reply;
    chess::generate_legal(g.start, reply);
    g.moves.push_back(reply[0]);
    distinct.push_back(g);
  }
  ASSERT_EQ(distinct.size(), 20u);
  std::map<uint64_t, int> kept;
  const int trials = 4000;
  for (int seed = 0; seed < trials; ++seed)
    for (auto& r : sample(distinct, 20, uint64_t(seed))) ++kept[r.game_number];  // opening quota 3
  for (auto& [game, n] : kept) EXPECT_NEAR(n, trials * 3 / 20, 90) << game;
  EXPECT_EQ(kept.size(), 20u);
}

}  // namespace
}  // namespace manaka::vpd
