#include "shard/inspect.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <map>

#include "core/progress.h"
#include "shard/shard_set.h"

namespace manaka::shard {

BlockAccumulator::BlockAccumulator(int64_t total_rows, int blocks)
    : blocks_(total_rows >= blocks ? blocks : 0),
      block_rows_(blocks_ > 0 ? total_rows / blocks_ : 0),
      sums_(static_cast<size_t>(blocks_), 0) {}

void BlockAccumulator::add(uint16_t ply) {
  if (blocks_ == 0 || seen_ >= block_rows_ * blocks_) return;
  sums_[static_cast<size_t>(seen_ / block_rows_)] += ply;
  sum_ += ply;
  sum_sq_ += uint64_t{ply} * ply;
  ++seen_;
}

BlockStatistic BlockAccumulator::result() const {
  BlockStatistic s;
  if (blocks_ < 2 || seen_ < block_rows_ * blocks_) return s;
  s.blocks = blocks_;
  s.block_rows = block_rows_;
  const auto n = static_cast<unsigned __int128>(seen_);
  const unsigned __int128 spread = n * sum_sq_ - static_cast<unsigned __int128>(sum_) * sum_;
  s.ply_std = std::sqrt(static_cast<double>(spread) / static_cast<double>(n * n));
  double mean_of_means = 0.0;
  for (uint64_t b : sums_) {
    s.means.push_back(static_cast<double>(b) / static_cast<double>(block_rows_));
    mean_of_means += s.means.back();
  }
  mean_of_means /= blocks_;
  double var = 0.0;
  for (double m : s.means) var += (m - mean_of_means) * (m - mean_of_means);
  const double std_means = std::sqrt(var / blocks_);
  const double expected = s.ply_std / std::sqrt(static_cast<double>(block_rows_));
  s.ratio = expected > 0 ? std_means / expected : 0.0;
  s.noise = 1.0 / std::sqrt(2.0 * (blocks_ - 1));
  return s;
}

BlockStatistic block_statistic(std::span<const uint16_t> ply, int blocks) {
  BlockAccumulator acc(static_cast<int64_t>(ply.size()), blocks);
  for (uint16_t p : ply) acc.add(p);
  return acc.result();
}

Result<InspectReport> inspect_shards(const std::vector<std::string>& paths) {
  if (paths.empty()) return Status::invalid("no shard files");
  MANAKA_RETURN_NOT_OK(check_shard_sets(paths));
  InspectReport rep;
  std::vector<ShardReader> readers;
  for (const auto& path : paths) {
    MANAKA_ASSIGN_OR_RETURN(auto reader, ShardReader::open(path));
    ShardFileInfo info{path, reader.num_rows(), reader.num_row_groups(), 0, reader.footer()};
    for (int g = 0; g < info.row_groups; ++g) {
      info.max_row_group_rows = std::max(info.max_row_group_rows, reader.row_group_rows(g));
    }
    rep.rows += info.rows;
    rep.files.push_back(std::move(info));
    readers.push_back(std::move(reader));
  }

  BlockAccumulator blocks(rep.rows);
  std::map<int64_t, uint64_t> cand_hist;
  ShardColumns cols;
  cols.packed = cols.value_z = cols.value_q = false;
  rep.weight_min = UINT32_MAX;
  uint64_t cands_total = 0;
  for (auto& reader : readers) {
    for (int g = 0; g < reader.num_row_groups(); ++g) {
      MANAKA_ASSIGN_OR_RETURN(ShardBatch b, reader.read_row_group(g, cols));
      for (int64_t i = 0; i < b.rows; ++i) {
        blocks.add(b.ply[i]);
        const uint32_t w = b.weight[i];
        rep.weight_min = std::min(rep.weight_min, w);
        rep.weight_max = std::max(rep.weight_max, w);
        rep.weight_sum += w;
        const size_t band = w <= 1 ? 0 : static_cast<size_t>(std::bit_width(w - 1));
        if (rep.weight_bands.size() <= band) rep.weight_bands.resize(band + 1, 0);
        ++rep.weight_bands[band];
        const int64_t n = b.cand_offsets[i + 1] - b.cand_offsets[i];
        ++cand_hist[n];
        cands_total += static_cast<uint64_t>(n);
      }
    }
  }
  rep.blocks = blocks.result();
  if (rep.rows == 0) {
    rep.weight_min = 0;
    return rep;
  }
  rep.weight_mean = static_cast<double>(rep.weight_sum) / static_cast<double>(rep.rows);
  rep.cands_mean = static_cast<double>(cands_total) / static_cast<double>(rep.rows);
  rep.cands_min = cand_hist.begin()->first;
  rep.cands_max = cand_hist.rbegin()->first;
  // Nearest-rank percentiles over the histogram.
  auto percentile = [&](double p) {
    const auto rank = static_cast<uint64_t>(std::ceil(p * static_cast<double>(rep.rows)));
    uint64_t seen = 0;
    for (const auto& [n, count] : cand_hist) {
      seen += count;
      if (seen >= std::max<uint64_t>(rank, 1)) return n;
    }
    return rep.cands_max;
  };
  rep.cands_p50 = percentile(0.50);
  rep.cands_p99 = percentile(0.99);
  return rep;
}

namespace {

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string band_name(size_t band) {
  if (band == 0) return "1";
  const uint64_t lo = (uint64_t{1} << (band - 1)) + 1, hi = uint64_t{1} << band;
  return lo == hi ? std::to_string(lo) : std::to_string(lo) + "-" + std::to_string(hi);
}

}  // namespace

std::string format_report(const InspectReport& r) {
  std::string out;
  for (const auto& f : r.files) {
    out += f.path + ": " + std::to_string(f.rows) + " rows in " + std::to_string(f.row_groups) +
           " row groups (largest " + std::to_string(f.max_row_group_rows) + " rows)\n";
  }
  // The footer once when every file agrees, per file otherwise; the shard's
  // own index (the one key that differs within a set) is left out.
  auto shared = [](const FooterPairs& footer) {
    FooterPairs out;
    for (const auto& kv : footer)
      if (kv.first != kSetShardKey) out.push_back(kv);
    return out;
  };
  bool same = true;
  for (const auto& f : r.files) same = same && shared(f.footer) == shared(r.files.front().footer);
  for (size_t i = 0; i < (same ? 1 : r.files.size()); ++i) {
    out += same ? std::string("footer:\n") : "footer of " + r.files[i].path + ":\n";
    for (const auto& [k, v] : shared(r.files[i].footer)) out += "  " + k + " = " + v + "\n";
  }
  out += "rows: " + std::to_string(r.rows) + "\n";
  if (r.rows == 0) return out;
  out += "weight: min " + std::to_string(r.weight_min) + ", mean " + fmt("%.4f", r.weight_mean) +
         ", max " + std::to_string(r.weight_max) + "; " + std::to_string(r.weight_sum) +
         " records folded in\n";
  for (size_t b = 0; b < r.weight_bands.size(); ++b) {
    if (r.weight_bands[b] == 0) continue;
    const double pct = 100.0 * static_cast<double>(r.weight_bands[b]) / static_cast<double>(r.rows);
    out += "  weight " + band_name(b) + ": " + std::to_string(r.weight_bands[b]) + " rows (" +
           fmt("%.2f", pct) + "%)\n";
  }
  out += "candidates per row: min " + std::to_string(r.cands_min) + ", mean " +
         fmt("%.2f", r.cands_mean) + ", p50 " + std::to_string(r.cands_p50) + ", p99 " +
         std::to_string(r.cands_p99) + ", max " + std::to_string(r.cands_max) + "\n";
  const BlockStatistic& s = r.blocks;
  if (s.blocks == 0) {
    out += "shuffle: too few rows for " + std::to_string(kInspectBlocks) + " blocks\n";
  } else {
    out += "shuffle: std of mean ply over " + std::to_string(s.blocks) + " blocks of " +
           std::to_string(s.block_rows) + " rows = " + fmt("%.3f", s.ratio) +
           "x independent sampling (near 1.0 when shuffled; noise about +/-" +
           fmt("%.2f", s.noise) + ")\n";
  }
  return out;
}

}  // namespace manaka::shard
