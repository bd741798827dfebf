// The VPD1 variance contract: a report of declared thresholds computed from a
// finished file's positions table, and `high_variance` = every check passes
// (docs/vpd1.md, "Variance report").
//
// The report is a function of the rows and the metadata's target_size only
// (no path, no time), so a reproducible build stays byte-identical.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "vpd/features.h"

namespace manaka::vpd {

// The declared thresholds. The defaults suit a default 1.5M-row build with
// the 15/60/25 phase quotas; docs/vpd1.md gives the reason for each.
struct VarianceThresholds {
  double min_size_fraction = 0.95;         // corpus_size: rows >= this * target_size ...
  uint64_t min_rows = 1;                   // ... and rows >= this (alone when target_size is absent)
  double min_phase_entropy_bits = 1.2;     // Shannon entropy of the 3 phase shares (max log2 3 = 1.585)
  double min_phase_share = 0.10;           // every phase
  double min_result_share = 0.05;          // each of 1-0, 0-1, 1/2-1/2 among rows with one of them
  double max_side_to_move_imbalance = 0.05;  // |white share - 0.5|
  double min_legal_moves_std = 5.0;        // population standard deviation
  double min_piece_count_std = 5.0;        // population standard deviation
  double min_material_imbalance_share = 0.20;  // rows with material_balance != 0
  uint64_t min_castling_states = 8;        // distinct castling_mask values (of 16)
  double min_in_check_share = 0.02;        // rows with in_check = 1
};

struct VarianceCheck {
  std::string name;
  double value = 0;
  double threshold = 0;
  std::string comparison;  // ">=" or "<=": passes when `value comparison threshold`
  bool pass = false;
};

// A threshold set away from its default (variance_thresholds.h).
struct ThresholdChange {
  std::string name;
  double value = 0, default_value = 0;
};

// Exact integer moments of one column; the population standard deviation.
struct Moments {
  uint64_t n = 0;
  __int128 sum = 0, sum_sq = 0;
  void add(int64_t x) {
    ++n;
    sum += x;
    sum_sq += __int128(x) * x;
  }
  double stddev() const;
};

// The distribution of a file's engine labels (label.h), side to move's view.
struct LabelDistribution {
  uint64_t labeled = 0;  // rows of the labels table
  uint64_t mates = 0;    // labels with score_mate
  Moments cp;            // score_cp of the others
  std::array<int64_t, 5> cp_quantiles{};  // 5th, 25th, 50th, 75th, 95th percentiles (nearest rank)
  uint64_t with_wdl = 0;
  std::array<double, 3> wdl_mean{};  // win, draw, loss permille, over with_wdl
};

struct VarianceReport {
  uint64_t rows = 0;
  std::optional<LabelDistribution> labels;  // when the file has a labels table (a path's report)
  std::vector<ThresholdChange> changed;  // empty with the defaults
  uint64_t target_size = 0;  // 0 when the metadata has none
  std::vector<VarianceCheck> checks;  // in the order of the thresholds above
  bool high_variance = false;         // every check passes
};


// What the checks read, row by row: from a file's table (variance_report of
// a path) or from the rows a build is writing (write_database), so a build
// never reads its own rows back.
struct VarianceTally {
  uint64_t rows = 0;
  std::array<uint64_t, PHASE_NB> phase{};
  std::array<uint64_t, 3> result{};  // 1-0, 0-1, 1/2-1/2
  uint64_t white = 0, imbalanced = 0, in_check = 0;
  Moments legal_moves, piece_count;
  std::set<int64_t> castling;

  void add_result(std::string_view token);
  void add(int phase, std::string_view result, const Features& f);
};

VarianceReport variance_report(const VarianceTally& tally, uint64_t target_size,
                               const VarianceThresholds& thresholds = {});

// Reads path (a complete VPD1 file, as VpdFile::open accepts) in one scan of
// the positions table, and of the labels table when there is one (the
// checks do not read it). A NULL feature is left out of its column's standard
// deviation and counts as not white / not in check / balance 0.
Result<VarianceReport> variance_report(const std::string& path, const VarianceThresholds& thresholds = {});

// {"format":"VPD1-variance","version":1,"rows":..,"target_size":..,
//  "high_variance":..,"checks":[{"name","value","threshold","comparison","pass"}..]},
// and "changed_thresholds":{name:{"value","default"}..} when any was changed,
// "labels":{"labeled","mates","cp_mean","cp_std","cp_quantiles":{"p5"..},"wdl_mean"}
// when the file has labels. The text gives both too.
std::string report_json(const VarianceReport& report);
// A table: one line per check (name, value, threshold, pass) and the verdict.
std::string format_report(const VarianceReport& report);

// Stores report_json as metadata `variance_report` and "true"/"false" as
// `high_variance` (insert or replace, one transaction). Modifies path.
Status write_variance_metadata(const std::string& path, const VarianceReport& report);

}  // namespace manaka::vpd
