// `manaka shards inspect`: what a set of shards holds and whether its rows
// look shuffled.
//
// The block statistic (docs: "Rows leave shuffled"): the rows of all files,
// in file order and then row order, are cut into 24 consecutive blocks of
// floor(N / 24) rows (the last N mod 24 rows are left out); each block's mean
// ply is computed, and the population standard deviation of those 24 means
// is divided by what independent sampling predicts for it, sigma / sqrt(B),
// sigma being the population standard deviation of ply over the same rows.
// Shuffled rows read near 1.0; the statistic's own noise at 24 blocks is
// about 1 / sqrt(2 x 23) = 0.15. Rows laid out by something that correlates
// with ply (content-hash buckets written in turn, unshuffled games) read far
// above it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/status.h"
#include "shard/shard_reader.h"

namespace manaka::shard {

inline constexpr int kInspectBlocks = 24;

struct BlockStatistic {
  int blocks = 0;            // 0 when there are fewer rows than blocks
  int64_t block_rows = 0;
  std::vector<double> means;
  double ply_std = 0.0;      // population std of ply over the rows used
  double ratio = 0.0;        // std(block means) / (ply_std / sqrt(block_rows))
  double noise = 0.0;        // 1 / sqrt(2 (blocks - 1))
};

// Streams ply values in order; total_rows must be known up front.
class BlockAccumulator {
 public:
  BlockAccumulator(int64_t total_rows, int blocks = kInspectBlocks);
  void add(uint16_t ply);
  BlockStatistic result() const;

 private:
  int blocks_;
  int64_t block_rows_;
  int64_t seen_ = 0;
  std::vector<uint64_t> sums_;
  uint64_t sum_ = 0, sum_sq_ = 0;
};

BlockStatistic block_statistic(std::span<const uint16_t> ply, int blocks = kInspectBlocks);

struct ShardFileInfo {
  std::string path;
  int64_t rows = 0;
  int row_groups = 0;
  int64_t max_row_group_rows = 0;
  FooterPairs footer;
};

struct InspectReport {
  std::vector<ShardFileInfo> files;
  int64_t rows = 0;
  // weight: min / mean / max, records in all (sum of weights), and rows per
  // power-of-two band: [1], [2], [3, 4], [5, 8], ...
  uint32_t weight_min = 0, weight_max = 0;
  double weight_mean = 0.0;
  uint64_t weight_sum = 0;
  std::vector<uint64_t> weight_bands;
  // candidates per row
  int64_t cands_min = 0, cands_max = 0, cands_p50 = 0, cands_p99 = 0;
  double cands_mean = 0.0;
  BlockStatistic blocks;
};

Result<InspectReport> inspect_shards(const std::vector<std::string>& paths);
std::string format_report(const InspectReport& report);

}  // namespace manaka::shard
