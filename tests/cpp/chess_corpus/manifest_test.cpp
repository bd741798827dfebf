// corpus.json across game ranges: a part that starts at game N reads back,
// parts over consecutive ranges merge and join into one corpus, and real
// Stockfish games split by --first-game are the games of one run.
#include "chess_corpus/manifest.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "chess_shard/chess_shard.h"
#include "chess_corpus/generate.h"
#include "corpus_fixture.h"

namespace manaka::chess_corpus {
namespace {

namespace fs = std::filesystem;

const CorpusIdentity kIdentity{"Stockfish 15.1", "nodes 300", 7, 4, 400};

Manifest part_of(uint64_t first_game, std::vector<uint64_t> games_per_shard) {
  Manifest m;
  m.identity = kIdentity;
  for (uint64_t g : games_per_shard) {
    m.shards.push_back({shard_file_name(m.shards.size()), first_game, g, 10 * g, {g, 0, 0}});
    first_game += g;
  }
  return m;
}

TEST(Manifest, APartStartingAtGameNReadsBack) {
  const fs::path dir = testing::scratch("manifest_part");
  const Manifest m = part_of(40, {3, 2});
  ASSERT_TRUE(write_manifest(dir.string(), m).ok());
  auto back = read_manifest(dir.string());
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->first_game(), 40u);
  EXPECT_EQ(back->games(), 5u);
  EXPECT_EQ(back->shards[1].first_game, 43u);
}

TEST(Manifest, PartsMergeInGameOrderRenumbered) {
  auto merged = merge_manifests({part_of(0, {2, 1}), part_of(3, {4}), part_of(7, {1, 1})}, {"a", "b", "c"});
  ASSERT_TRUE(merged.ok()) << merged.status().message();
  ASSERT_EQ(merged->shards.size(), 5u);
  EXPECT_EQ(merged->games(), 9u);
  EXPECT_EQ(merged->positions(), 90u);
  for (size_t i = 0; i < merged->shards.size(); ++i) EXPECT_EQ(merged->shards[i].file, shard_file_name(i));
  EXPECT_EQ(merged->shards[2].first_game, 3u);
  EXPECT_EQ(merged->shards[4].first_game, 8u);
  EXPECT_EQ(merged->identity, kIdentity);
}

TEST(Manifest, AGapOrOtherOptionsAreRefusedNamingThePart) {
  EXPECT_EQ(merge_manifests({part_of(0, {2}), part_of(3, {1})}, {"p0", "p1"}).status().message(),
            "p1: corpus part starts at game 3, not where the part before it ended (game 2)");
  Manifest other = part_of(2, {1});
  other.identity.seed = 8;
  EXPECT_EQ(merge_manifests({part_of(0, {2}), other}, {"p0", "p1"}).status().message(),
            "p1: corpus part made with other options (Stockfish 15.1, nodes 300, seed 8) than p0 "
            "(Stockfish 15.1, nodes 300, seed 7)");
  EXPECT_EQ(merge_manifests({part_of(0, {2}), Manifest{}}, {"p0", "p1"}).status().message(),
            "p1: corpus part holds no shard");
  EXPECT_EQ(merge_manifests({}, {}).status().message(), "no corpus part to merge");
}

// Real games: the corpus of games [0, 5) equals the join of runs over [0, 2)
// and [2, 5), record for record (a node limit, one engine thread).
TEST(Manifest, StockfishRunsOverAPartitionJoinToTheWholeRun) {
  ASSERT_EQ(::access("/usr/games/stockfish", X_OK), 0) << "stockfish is not installed (make setup installs it)";
  const fs::path dir = testing::scratch("manifest_join");
  CorpusOptions o;
  o.engine = "/usr/games/stockfish";
  o.limit.nodes = 200;
  o.seed = 3;
  o.shard_size = 60;
  o.workers = 2;
  o.games = 5;
  o.output_dir = (dir / "whole").string();
  ASSERT_TRUE(generate(o).ok());
  o.workers = 1;
  o.games = 2;
  o.output_dir = (dir / "a").string();
  ASSERT_TRUE(generate(o).ok());
  o.first_game = 2;
  o.games = 3;
  o.output_dir = (dir / "b").string();
  auto b = generate(o);
  ASSERT_TRUE(b.ok()) << b.status().message();
  EXPECT_EQ(b->corpus_games, 3u);
  auto b_manifest = read_manifest(o.output_dir);
  ASSERT_TRUE(b_manifest.ok());
  EXPECT_EQ(b_manifest->first_game(), 2u);

  // Run again over b: nothing left to play; from another first game: refused.
  auto again = generate(o);
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(again->games, 0u);
  o.first_game = 1;
  EXPECT_NE(generate(o).status().message().find("holds a corpus made with other options"), std::string::npos);

  const std::string joined_dir = (dir / "joined").string();
  auto joined = join_corpus_parts({(dir / "a").string(), (dir / "b").string()}, joined_dir);
  ASSERT_TRUE(joined.ok()) << joined.status().message();
  EXPECT_EQ(joined->games(), 5u);
  EXPECT_FALSE(join_corpus_parts({(dir / "a").string()}, joined_dir).ok()) << "the output must be new";
  auto whole = read_manifest((dir / "whole").string());
  auto read_back = read_manifest(joined_dir);
  ASSERT_TRUE(whole.ok() && read_back.ok());
  EXPECT_EQ(read_back->games(), 5u);
  EXPECT_EQ(read_back->positions(), whole->positions());
  EXPECT_EQ(read_back->identity, whole->identity);

  auto records = [](const std::string& d, const Manifest& m) {
    std::vector<int8_t> states, outcomes;
    std::vector<int32_t> moves;
    for (const auto& s : m.shards) {
      auto shard = read_chess_shard((fs::path(d) / s.file).string());
      EXPECT_TRUE(shard.ok()) << shard.status().message();
      if (!shard.ok()) continue;
      states.insert(states.end(), shard->states.begin(), shard->states.end());
      moves.insert(moves.end(), shard->move_indices.begin(), shard->move_indices.end());
      outcomes.insert(outcomes.end(), shard->outcomes.begin(), shard->outcomes.end());
    }
    return std::make_tuple(states, moves, outcomes);
  };
  const auto [ws, wm, wo] = records((dir / "whole").string(), *whole);
  const auto [js, jm, jo] = records(joined_dir, *read_back);
  ASSERT_FALSE(wm.empty());
  EXPECT_EQ(jm, wm);
  EXPECT_EQ(jo, wo);
  EXPECT_TRUE(js == ws) << "the planes differ";
  fs::remove_all(dir);
}

}  // namespace
}  // namespace manaka::chess_corpus
