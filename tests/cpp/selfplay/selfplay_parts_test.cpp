// Self-play in parts (selfplay/selfplay_parts.h): ranges of game indices
// played apart (first_game) and joined are the one run's output; the oracle
// is that one run, written by the same library with a uniform network.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "search/chess_selfplay.h"
#include "selfplay/chess_selfplay_set.h"
#include "selfplay/selfplay_parts.h"
#include "selfplay/shogi_selfplay.h"
#include "search/shogi_rules.h"

namespace manaka::selfplay {
namespace {

namespace fs = std::filesystem;

Status uniform(const search::EvalBatch& b, size_t policy) {
  std::fill(b.policy, b.policy + size_t(b.size) * policy, 0.0f);
  std::fill(b.value, b.value + b.size, 0.0f);
  return Status();
}

std::string scratch(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("manaka_selfplay_parts_test_" + std::to_string(::getpid()));
  fs::remove_all(dir / name);
  fs::create_directories(dir);
  return (dir / name).string();
}

std::string bytes_of(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

ShogiSelfPlaySummary play_shogi(const std::string& out, int games, uint64_t first, bool saz = true) {
  ShogiSelfPlayOptions o;
  o.search.simulations = 8;
  o.search.batch_size = 4;
  o.search.seed = 3;
  o.games = games;
  o.max_plies = 20;
  o.output = out;
  o.saz = saz;
  o.first_game = first;
  auto net = [](const search::EvalBatch& b) { return uniform(b, search::ShogiRules::kPolicySize); };
  auto r = shogi_self_play(o, net, {});
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? *r : ShogiSelfPlaySummary{};
}

TEST(ShogiSelfPlayParts, JoinedRangesAreTheBytesOfOneRun) {
  const std::string whole = scratch("whole"), a = scratch("a"), b = scratch("b"), joined = scratch("joined");
  play_shogi(whole, 5, 0);
  play_shogi(a, 2, 0);
  play_shogi(b, 3, 2);
  ASSERT_TRUE(join_shogi_selfplay({a, b}, joined, false).ok());
  for (const char* name : {"/selfplay.mpk", "/selfplay.saz"})
    EXPECT_EQ(bytes_of(joined + name), bytes_of(whole + name)) << name;
  // Parts out of order are other bytes: the join keeps the order it is given.
  const std::string swapped = scratch("swapped");
  ASSERT_TRUE(join_shogi_selfplay({b, a}, swapped, false).ok());
  EXPECT_NE(bytes_of(swapped + "/selfplay.mpk"), bytes_of(whole + "/selfplay.mpk"));
  // An existing output is refused without overwrite.
  Status again = join_shogi_selfplay({a, b}, joined, false);
  EXPECT_FALSE(again.ok());
}

TEST(ShogiSelfPlayParts, RefusesPartsThatDoNotJoin) {
  const std::string a = scratch("ra"), b = scratch("rb");
  play_shogi(a, 1, 0);
  play_shogi(b, 1, 1, /*saz=*/false);
  Status mixed = join_shogi_selfplay({a, b}, scratch("rout"), false);
  ASSERT_FALSE(mixed.ok());
  EXPECT_NE(mixed.message().find("1 of 2 parts have selfplay.saz"), std::string::npos) << mixed.message();
  const std::string c = scratch("rc");
  fs::create_directories(c);
  std::ofstream(c + "/selfplay.mpk", std::ios::binary) << "MPK1\x01";
  const std::string out2 = scratch("rout2");
  Status truncated = join_shogi_selfplay({b, c}, out2, false);
  ASSERT_FALSE(truncated.ok());
  EXPECT_NE(truncated.message().find(c + "/selfplay.mpk: byte 5: truncated header"), std::string::npos)
      << truncated.message();
  EXPECT_FALSE(fs::exists(out2));  // complete or absent
  EXPECT_FALSE(join_shogi_selfplay({}, scratch("rout3"), false).ok());
}

TEST(ChessSelfPlayParts, JoinedSetsHoldOneRunsGames) {
  auto net = [](const search::EvalBatch& b) { return uniform(b, search::ChessRules::kPolicySize); };
  auto play = [&](int games, uint64_t first) {
    search::ChessSelfPlayOptions o;
    o.search.simulations = 6;
    o.search.batch_size = 4;
    o.search.seed = 9;
    o.games = games;
    o.max_plies = 12;
    o.opening_plies = 2;
    o.first_game = first;
    auto r = search::chess_self_play(o, net, {});
    EXPECT_TRUE(r.ok()) << r.status().message();
    return *r;
  };
  const std::string whole = scratch("cwhole"), a = scratch("ca"), b = scratch("cb"), joined = scratch("cjoined");
  auto want = write_chess_selfplay(whole, play(3, 0), 100, {});
  ASSERT_TRUE(want.ok());
  ASSERT_TRUE(write_chess_selfplay(a, play(1, 0), 100, {}).ok());
  ASSERT_TRUE(write_chess_selfplay(b, play(2, 1), 100, {}).ok());
  auto got = join_chess_selfplay({a, b}, joined, nlohmann::ordered_json::object({{"run", "parts"}}), false);
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_EQ(got->begin().key(), "run");  // the caller's meta first
  for (const char* key : {"games", "positions", "visit_entries", "results", "terminations", "game_offsets",
                          "game_results", "game_terminations", "openings"})
    EXPECT_EQ((*got)[key], (*want)[key]) << key;
  ASSERT_EQ((*got)["shards"].size(), 2u);  // one a part: the cut is the parts'
  EXPECT_EQ(bytes_of(joined + "/shard_000000.npz"), bytes_of(a + "/shard_000000.npz"));
  EXPECT_EQ(bytes_of(joined + "/shard_000001.npz"), bytes_of(b + "/shard_000000.npz"));
}

}  // namespace
}  // namespace manaka::selfplay
