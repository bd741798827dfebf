// corpus.json: what a corpus directory holds, rewritten (atomically) after
// every shard, so a killed run can be continued: the games of the listed
// shards are complete, and generation goes on from the next game index.
//
//   {"format": "manaka-chess-corpus", "version": 1,
//    "options": {"engine": .., "limit": "nodes 2000", "seed": 7, "opening_plies": 4,
//                "shard_size": 10000},
//    "games": 340, "positions": 20311,
//    "shards": [{"file": "shard_000000.npz", "first_game": 0, "games": 171,
//                "positions": 10043, "results": [w, d, l]}, ...]}
//
// results counts White wins, draws and Black wins. The shards hold
// consecutive games; the first starts at game 0, or at the run's
// --first-game (a part of a corpus split into game ranges). A run continues only a
// corpus made with the same options; shard files not listed (renamed by a
// run killed before it rewrote the manifest) are replaced.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"

namespace manaka::chess_corpus {

inline constexpr const char* kManifestName = "corpus.json";

struct ShardEntry {
  std::string file;
  uint64_t first_game = 0;
  uint64_t games = 0;
  uint64_t positions = 0;
  std::array<uint64_t, 3> results{};  // White wins, draws, Black wins
};

// The options that decide which games a run plays; a continuation must match.
struct CorpusIdentity {
  std::string engine;  // the engine's name ("Stockfish 15.1")
  std::string limit;   // "nodes 2000", "movetime 50", "depth 8"
  uint64_t seed = 0;
  int opening_plies = 0;
  uint64_t shard_size = 0;
  bool scores = false;  // shards hold the engine's scores (--scores); absent in older manifests
  bool operator==(const CorpusIdentity&) const = default;
};

struct Manifest {
  CorpusIdentity identity;
  std::vector<ShardEntry> shards;
  uint64_t first_game() const { return shards.empty() ? 0 : shards.front().first_game; }
  uint64_t games() const;
  uint64_t positions() const;
  std::array<uint64_t, 3> results() const;  // every shard's: White wins, draws, Black wins
};

// The manifest of dir, or an empty one (no shards) when dir has none.
Result<Manifest> read_manifest(const std::string& dir);
Status write_manifest(const std::string& dir, const Manifest& manifest);

// What corpus.json says and dir holds disagree on: a listed shard that is
// missing, or that holds another number of positions (replaced after the
// corpus was written: the manifest's counts would size training wrongly).
// One message per such shard, naming its path; empty when all agree. Reads
// each shard's array header only, not its data.
std::vector<std::string> check_listed_shards(const std::string& dir, const Manifest& manifest);

// The manifests of corpus parts (runs over consecutive game ranges, the
// same options) as one: shards in part order, renamed shard_000000.npz,
// ... Refused, naming the part, when the options differ or a part does not
// start where the one before it ended.
Result<Manifest> merge_manifests(const std::vector<Manifest>& parts, const std::vector<std::string>& names);

// Joins the corpus directories `parts` (in game order) into `dir`, which must
// not exist: created, every listed shard (and its PGN, if there) linked in
// under its new name (copied where the filesystem has no hard links), and
// corpus.json written last. The parts are left as they were, so a join that
// dies part-way is simply done again.
Result<Manifest> join_corpus_parts(const std::vector<std::string>& parts, const std::string& dir);

// "games_000012.pgn", beside shard_000012.npz (chess_shard/chess_shard.h).
std::string pgn_file_name(uint64_t index);

}  // namespace manaka::chess_corpus
