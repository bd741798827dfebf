// The search on chess with a uniform network (every logit and value 0):
// mates found by the search alone, determinism, batching and errors.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "chess/movegen.h"
#include "core/splitmix64.h"
#include "search/chess_rules.h"
#include "search/chess_selfplay.h"
#include "search/selfplay.h"

namespace manaka::search {
namespace {

Status uniform(const EvalBatch& b) {
  std::fill(b.policy, b.policy + size_t(b.size) * ChessRules::kPolicySize, 0.0f);
  std::fill(b.value, b.value + b.size, 0.0f);
  return Status();
}

chess::Game game_at(const std::string& fen) {
  auto pos = chess::Position::from_fen(fen);
  EXPECT_TRUE(pos.ok()) << fen;
  return chess::Game(*pos);
}

std::string best_move(const std::string& fen, int simulations, int batch = 8) {
  SearchOptions o;
  o.simulations = simulations;
  o.batch_size = batch;
  auto r = search_once<ChessRules>(game_at(fen), o, uniform, {});
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r->children[size_t(r->best())].move.to_uci();
}

bool mate_in_one(chess::Game& g) {
  chess::MoveList list;
  chess::generate_legal(g.position(), list);
  for (chess::Move m : list) {
    g.push(m);
    bool mate = g.outcome(true) && g.outcome(true)->termination == chess::Termination::CHECKMATE;
    g.pop();
    if (mate) return true;
  }
  return false;
}

TEST(ChessSearch, FindsAMateInOneForEitherSide) {
  EXPECT_EQ(best_move("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 200), "a1a8");
  EXPECT_EQ(best_move("r5k1/8/8/8/8/8/5PPP/6K1 b - - 0 1", 200), "a8a1");
}

TEST(ChessSearch, FindsAMateInTwo) {
  // python-chess: the only first moves that force mate next move.
  for (auto [fen, mating] : {std::pair{"8/1R6/8/7k/5K2/8/8/8 w - - 0 1", "b7b6"},
                             std::pair{"8/8/8/3R4/8/8/7k/5K2 w - - 0 1", "d5d3"}}) {
    std::string move = best_move(fen, 4000, 16);
    EXPECT_EQ(move, mating) << fen;
    // And by the rules: every reply to it allows a mate in one.
    chess::Game g = game_at(fen);
    g.push(*chess::Move::parse_uci(move));
    chess::MoveList replies;
    chess::generate_legal(g.position(), replies);
    for (chess::Move r : replies) {
      g.push(r);
      EXPECT_TRUE(mate_in_one(g)) << fen << " " << move << " " << r.to_uci();
      g.pop();
    }
  }
}

TEST(ChessSearch, RefusesAFinishedGame) {
  SearchOptions o;
  auto r = search_once<ChessRules>(game_at("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1"), o, uniform, {});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("over"), std::string::npos);
}

TEST(ChessSearch, VisitsAddUpAndLeavesAreBatched) {
  SearchOptions o;
  o.simulations = 97;
  o.batch_size = 8;
  EvaluatorStats stats;
  auto r = search_once<ChessRules>(chess::Game(), o, uniform, {}, &stats);
  ASSERT_TRUE(r.ok());
  int visits = 0;
  for (auto& c : r->children) visits += c.visits;
  EXPECT_EQ(r->children.size(), 20u);
  EXPECT_EQ(visits + 1, r->simulations);  // the root's own evaluation
  EXPECT_EQ(r->simulations, 97);
  // The root alone, then rounds of 8 leaves (none ends the game this early).
  EXPECT_EQ(stats.positions, 97u);
  EXPECT_EQ(stats.batches, 1u + 12u);
}

// Short games after two random opening plies, 24 simulations in rounds of 4.
ChessSelfPlayOptions short_games(int games, int max_plies, uint64_t seed) {
  ChessSelfPlayOptions o;
  o.games = games;
  o.max_plies = max_plies;
  o.opening_plies = 2;
  o.search.simulations = 24;
  o.search.batch_size = 4;
  o.search.seed = seed;
  return o;
}

TEST(ChessSelfPlay, OneThreadAndASeedGiveTheSameGames) {
  ChessSelfPlayOptions o = short_games(3, 40, 7);
  auto a = chess_self_play(o, uniform, {});
  auto b = chess_self_play(o, uniform, {});
  ASSERT_TRUE(a.ok() && b.ok()) << a.status().message();
  EXPECT_EQ(a->move_indices, b->move_indices);
  EXPECT_EQ(a->visit_counts, b->visit_counts);
  EXPECT_EQ(a->states, b->states);
  EXPECT_EQ(a->openings, b->openings);
  o.search.seed = 8;
  auto c = chess_self_play(o, uniform, {});
  ASSERT_TRUE(c.ok());
  EXPECT_NE(a->move_indices, c->move_indices);
  // Layout: offsets cover the arrays; every played move was visited.
  ASSERT_EQ(a->game_offsets.size(), 4u);
  const size_t n = a->move_indices.size();
  EXPECT_EQ(size_t(a->game_offsets.back()), n);
  EXPECT_EQ(a->states.size(), n * chess::PLANES_SIZE);
  ASSERT_EQ(a->visit_offsets.size(), n + 1);
  for (size_t i = 0; i < n; ++i) {
    bool played_visited = false;
    int total = 0;
    for (int64_t j = a->visit_offsets[i]; j < a->visit_offsets[i + 1]; ++j) {
      played_visited |= a->visit_indices[size_t(j)] == a->move_indices[i];
      total += a->visit_counts[size_t(j)];
    }
    EXPECT_TRUE(played_visited) << i;
    EXPECT_EQ(total, 23) << i;
  }
}

TEST(ChessSelfPlay, ThreadsShareTheEvaluatorsBatches) {
  ChessSelfPlayOptions o;
  o.games = 4;
  o.max_plies = 6;
  o.search.simulations = 33;
  o.search.batch_size = 4;
  o.search.threads = 4;
  auto r = chess_self_play(o, uniform, {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->move_indices.size(), 24u);
  EXPECT_EQ(r->stats.positions, 24u * 33u);
  // Four threads of 4 leaves a round: calls hold more than one thread's round.
  EXPECT_EQ(r->stats.capacity, 16);
  EXPECT_GT(double(r->stats.positions) / double(r->stats.batches), 4.0);
}

// A network whose answer is a function of the position alone: its planes
// hashed into logits and a value in [-0.9, 0.9].
Status hashed(const EvalBatch& b) {
  for (int i = 0; i < b.size; ++i) {
    const int8_t* planes = b.planes + size_t(i) * ChessRules::kPlaneSize;
    uint64_t h = 0;
    for (size_t k = 0; k < ChessRules::kPlaneSize; ++k) h = h * 0x100000001B3ull + uint8_t(planes[k]);
    SplitMix64 mix(h);
    for (int j = 0; j < ChessRules::kPolicySize; ++j)
      b.policy[size_t(i) * ChessRules::kPolicySize + j] = float(mix.next() >> 40) / float(1 << 22);
    b.value[i] = float(double(mix.next() >> 11) / double(1ull << 53) * 1.8 - 0.9);
  }
  return Status();
}

// The games are the same whatever the thread count: each search gathers
// batch_size leaves a round however many games are searched beside it (it
// once gathered batch_size / threads, so --threads changed the trees).
TEST(ChessSelfPlay, TheThreadCountDoesNotChangeTheGames) {
  ChessSelfPlayOptions o = short_games(5, 12, 4);
  auto one = chess_self_play(o, hashed, {});
  ASSERT_TRUE(one.ok()) << one.status().message();
  o.search.threads = 3;
  auto three = chess_self_play(o, hashed, {});
  ASSERT_TRUE(three.ok()) << three.status().message();
  EXPECT_GT(double(three->stats.positions) / double(three->stats.batches), 4.0);  // rounds were merged
  EXPECT_EQ(one->states, three->states);
  EXPECT_EQ(one->move_indices, three->move_indices);
  EXPECT_EQ(one->visit_indices, three->visit_indices);
  EXPECT_EQ(one->visit_counts, three->visit_counts);
  EXPECT_EQ(one->root_values, three->root_values);
  EXPECT_EQ(one->openings, three->openings);
}

TEST(ChessSelfPlay, ANetworkErrorStopsEveryThreadAndIsReturned) {
  ChessSelfPlayOptions o;
  o.games = 6;
  o.search.threads = 3;
  int calls = 0;
  auto failing = [&](const EvalBatch& b) -> Status {
    if (++calls == 5) return Status::invalid("the model broke");
    return uniform(b);
  };
  auto r = chess_self_play(o, failing, {});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("the model broke"), std::string::npos) << r.status().message();
}

TEST(ChessSelfPlay, AValueOutsideMinusOneOneIsRefused) {
  ChessSelfPlayOptions o;
  auto bad = [](const EvalBatch& b) -> Status {
    Status st = uniform(b);
    b.value[0] = 1.5f;
    return st;
  };
  auto r = chess_self_play(o, bad, {});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("not in [-1, 1]"), std::string::npos) << r.status().message();
}

TEST(SearchOptions, OutOfRangeOptionsAreUsageErrors) {
  SearchOptions o;
  o.simulations = 0;
  Status st = check_options(o);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.kind(), ErrorKind::Usage);
  EXPECT_NE(st.message().find("simulations"), std::string::npos);
  o = {};
  o.dirichlet_epsilon = 1.5f;
  EXPECT_FALSE(check_options(o).ok());
  o = {};
  o.batch_size = 0;
  EXPECT_FALSE(check_options(o).ok());
}

}  // namespace
}  // namespace manaka::search
