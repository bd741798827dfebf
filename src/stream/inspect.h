// Statistics over a whole stream, computed here so that `manaka stream
// inspect` and the Python binding report the same numbers.
//
// Memory: a histogram of n_cand, at most 65,536 buckets (exact percentiles), plus
// when duplicate boards are counted, an open-addressing set of 64-bit hashes
// of packed: about 11-21 bytes per distinct board (so ~4 GB for 250M records).
// Duplicates are found by hash, not by comparing bytes; two different boards
// share a 63-bit key with probability ~n^2 / 2^64 (under 1% at 250M).
// InspectOptions::count_duplicates = false keeps memory constant.
#pragma once

#include <cstdint>
#include <string>
#include <span>
#include <vector>

#include "core/status.h"
#include "stream/format.h"

namespace manaka {
class Progress;
}

namespace manaka::stream {

class Reader;

struct InspectOptions {
  bool count_duplicates = true;
};

struct StreamStats {
  Header header;
  uint64_t records = 0;
  uint64_t bytes = 0;  // the stream's length, header included

  // Candidates per record (exact, over a histogram).
  uint64_t candidates = 0;
  double cand_mean = 0;
  uint32_t cand_min = 0, cand_p50 = 0, cand_p99 = 0, cand_max = 0;

  // Visit streams (policy_source 0) only: per-record visit totals, and how
  // many candidates were visited exactly 1, 2 and 3 times.
  uint64_t visit_total_min = 0, visit_total_max = 0;
  double visit_total_mean = 0;
  uint64_t visited_1 = 0, visited_2 = 0, visited_3 = 0;

  // value_z counts; value_q range.
  uint64_t z_loss = 0, z_draw = 0, z_win = 0;  // -1, 0, 1
  float value_q_min = 0, value_q_max = 0;
  double value_q_mean = 0;
  uint16_t ply_min = 0, ply_max = 0;

  // Boards (packed) seen more than once, by 64-bit hash.
  bool duplicates_counted = false;
  uint64_t distinct_boards = 0;
  // Records whose board another record also has (every member of a group of
  // two or more, first included): the "share a board with another" figure.
  uint64_t records_sharing_board = 0;

  double share(uint64_t n, uint64_t of) const { return of ? static_cast<double>(n) / static_cast<double>(of) : 0.0; }
};

// The 64-bit hash of a position used for duplicate counting.
uint64_t hash_packed(std::span<const uint8_t> packed);

class StatsAccumulator {
 public:
  explicit StatsAccumulator(const Header& header, const InspectOptions& options = {});
  void add(const RecordView& rec);
  // The statistics so far; bytes is the stream length to report.
  StreamStats finish(uint64_t bytes) const;

 private:
  void add_board(uint64_t hash);
  void grow_boards();

  StreamStats s_;
  bool count_duplicates_;
  std::vector<uint64_t> n_cand_hist_;  // by n_cand, up to the largest seen
  double visit_total_sum_ = 0;
  double value_q_sum_ = 0;
  // Open addressing, linear probing; slot 0 empty, bit 63 "seen again".
  std::vector<uint64_t> board_slots_;
  uint64_t board_count_ = 0;
};

// Reads the stream to its end (validating every record) and returns its
// statistics; progress may be null.
Result<StreamStats> inspect(Reader& reader, const InspectOptions& options = {}, Progress* progress = nullptr);

// The statistics of a stream as the command prints them: a few lines of
// text, or one JSON object (pretty-printed). The command and the Python
// binding both use these; nothing rebuilds them by hand.
std::string format_stats(const std::string& file, const StreamStats& stats);
std::string stats_json(const std::string& file, const StreamStats& stats);

}  // namespace manaka::stream
