// What `manaka chess shards inspect` reports about a corpus directory:
// every shard_*.npz read and checked in full (chess_shard.h), counts, the
// outcome mix from the mover's view, and how much of the 4672-move policy
// the move indices cover. A shard that cannot be read is named with its
// reason and counted apart; nothing about it enters the totals.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"

namespace manaka::chess_corpus {

struct BadShard {
  std::string path;
  std::string reason;  // the reader's message (it names the path too)
};

struct ShardSummary {
  std::vector<std::string> inputs;  // what was asked for: directories or files
  uint64_t shards = 0;              // read in full and valid
  uint64_t positions = 0;
  uint64_t bytes = 0;               // on disk, of the valid shards
  uint64_t min_positions = 0, max_positions = 0;  // per valid shard
  uint64_t losses = 0, draws = 0, wins = 0;        // outcomes -1, 0, 1
  std::vector<uint64_t> move_histogram;            // 4672 counts
  uint64_t moves_covered = 0;                      // indices that occur
  std::vector<BadShard> bad;
  std::vector<std::string> ignored;  // files in a directory not named shard_*.npz
};

// Reads paths: a directory stands for its shard_*.npz files (sorted), a file
// for itself. Only a directory that cannot be listed is an error; shards
// that cannot be read are in `bad`.
Result<ShardSummary> summarize_shards(const std::vector<std::string>& paths);

// Lines for a terminal, and the same as JSON (the histogram left out of the
// text, kept in the JSON).
std::string format_summary(const ShardSummary& s);
nlohmann::ordered_json summary_json(const ShardSummary& s);

}  // namespace manaka::chess_corpus
