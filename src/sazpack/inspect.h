// Counts and distributions of a SAZ2 chunk, for `manaka saz inspect`.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <span>

#include "core/status.h"
#include "sazpack/format.h"

namespace manaka::sazpack {

struct ChunkStats {
  uint64_t bytes = 0;  // the whole chunk, header included
  uint64_t games = 0;
  uint64_t positions = 0;
  uint64_t entries = 0;
  uint64_t mates = 0;  // positions with a proven mate
  uint64_t positions_min = 0, positions_max = 0;  // per game
  uint64_t entries_max = 0;                       // per position
  uint64_t visits = 0;                            // every entry's, summed
  uint64_t requested_visits = 0;                  // every position's, summed
  std::array<uint64_t, 22> by_result{};
  std::array<uint64_t, 10> by_reason{};
  std::array<uint64_t, 7> by_rule{};

  void add(const SazGame& game);
};

// Decodes every game (each invariant of the codec checked) and counts.
Result<ChunkStats> inspect_chunk(std::span<const uint8_t> chunk);

// The statistics as `manaka saz inspect` prints them: lines of text, or one
// JSON object (pretty-printed).
std::string format_stats(const std::string& file, const ChunkStats& stats);
std::string stats_json(const std::string& file, const ChunkStats& stats);

}  // namespace manaka::sazpack
