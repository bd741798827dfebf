// `manaka chess corpus`: Stockfish plays itself from random openings; every
// position it moved from becomes a record of shard_NNNNNN.npz in the output
// directory (docs/chess-corpus.md).
//
//   W workers, each with its own engine (Threads=1) and no shared state but
//   a counter of game indices: game i's opening comes from (seed, i) alone
//   (chess_corpus/game.h), so with a node or depth limit the games do not depend
//   on the worker count.
//   A collector takes finished games in index order; once the games since
//   the last shard hold shard_size positions, they go to the writer thread
//   as one shard (whole games: a shard holds at least shard_size positions,
//   the last one may hold fewer). No worker waits on a disk write.
//   The writer writes the shard (and its PGN with --pgn) under a temporary
//   name, renames it, then rewrites corpus.json (chess_corpus/manifest.h). A killed
//   run loses at most the games not yet in a shard; the same command again
//   continues from the manifest until `games` games exist.
//   With first_game I the run plays games [I, I + games) (the manifest's
//   first shard starts at I), each the same game as in a run from 0: how
//   manaka.ray splits a corpus into tasks (chess_corpus/manifest.h joins them).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "chess/termination.h"
#include "core/status.h"
#include "engine/engine.h"

namespace manaka::chess_corpus {

inline constexpr int kDefaultMovetimeMs = 50;
inline constexpr int kDefaultOpeningPlies = 4;
inline constexpr uint64_t kDefaultShardSize = 10000;
inline constexpr const char* kDefaultEngine = "/usr/games/stockfish";
inline constexpr uint64_t kMaxGames = uint64_t{1} << 40;

struct CorpusOptions {
  std::string output_dir;
  uint64_t games = 0;          // the corpus's size: stop once the directory holds this many
  uint64_t first_game = 0;     // index of the corpus's first game
  int workers = 0;             // 0: one per hardware thread
  engine::SearchLimit limit;   // nothing set: movetime kDefaultMovetimeMs
  int opening_plies = kDefaultOpeningPlies;
  uint64_t seed = 0;
  uint64_t shard_size = kDefaultShardSize;
  std::string engine = kDefaultEngine;
  int hash_mb = 16;
  bool pgn = false;
  // Each shard also holds the engine's root score of every position
  // (chess_shard.h, `scores`): a value target besides the game's result.
  bool scores = false;
  // Replace a directory holding another corpus: the new one is built in
  // <dir>.replacement (continued there after a stop) and swapped in when
  // complete, so the old one stays whole until then.
  bool overwrite = false;
  bool progress = false;
};

struct CorpusSummary {
  std::string output_dir;
  std::string engine_name;
  std::string limit;
  int workers = 0;
  uint64_t games_before = 0;   // in the directory when the run started
  uint64_t games = 0;          // played and written by this run
  uint64_t positions = 0;
  uint64_t shards = 0;
  std::array<uint64_t, 3> results{};  // White wins, draws, Black wins
  std::array<uint64_t, chess::TERMINATION_NB> terminations{};  // by chess::Termination
  uint64_t plies_min = 0, plies_max = 0;
  double plies_mean = 0.0;
  uint64_t distinct_openings = 0;
  uint64_t corpus_games = 0, corpus_positions = 0;  // the whole directory after the run
  std::array<uint64_t, 3> corpus_results{};          // the whole directory's, as results
  double seconds = 0.0;
  double engine_seconds = 0.0;    // summed over workers: waiting for bestmove
  double overhead_seconds = 0.0;  // this process's CPU time (every thread of ours)
  double overhead_share() const { return engine_seconds > 0 ? overhead_seconds / engine_seconds : 0.0; }
};

Result<CorpusSummary> generate(const CorpusOptions& options);

// "nodes 2000", "movetime 50", "depth 8" (every part that is set).
std::string limit_text(const engine::SearchLimit& limit);

std::string format_summary(const CorpusSummary& summary);
std::string summary_json(const CorpusSummary& summary);

}  // namespace manaka::chess_corpus
