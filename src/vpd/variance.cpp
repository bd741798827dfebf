#include "vpd/variance.h"

#include <sqlite3.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string_view>
#include <utility>
#include <vector>
#include <algorithm>
#include <cstdlib>

#include "core/text.h"
#include "vpd/database.h"
#include "vpd/features.h"
#include "vpd/sqlite.h"
#include "vpd/variance_thresholds.h"

namespace manaka::vpd {
namespace {


// One scan, in column order; every feature the checks read.
constexpr const char* SCAN =
    "SELECT phase, result, side_to_move, legal_moves, piece_count, material_balance, castling_mask, in_check "
    "FROM positions";
constexpr const char* UPSERT_METADATA =
    "INSERT INTO metadata(key, value) VALUES(?1, ?2) ON CONFLICT(key) DO UPDATE SET value = excluded.value";
constexpr std::array<const char*, 3> DECIDED_RESULTS = {"1-0", "0-1", "1/2-1/2"};

// The same refusals as VpdFile::open.
Status check_complete(sqlite3* db, const std::string& path) {
  MANAKA_ASSIGN_OR_RETURN(std::string format, metadata_value(db, path, "format"));
  if (format != FORMAT_NAME) return Status::invalid(path + ": not a VPD1 file (format '" + format + "')");
  MANAKA_ASSIGN_OR_RETURN(std::string version, metadata_value(db, path, "format_version"));
  if (version != std::to_string(FORMAT_VERSION))
    return Status::invalid(path + ": unsupported VPD1 format_version '" + version + "'");
  MANAKA_ASSIGN_OR_RETURN(std::string complete, metadata_value(db, path, "complete"));
  if (complete != "true") return Status::invalid(path + ": the VPD1 file is not marked complete");
  return {};
}

Result<VarianceTally> scan(sqlite3* db, const std::string& path) {
  MANAKA_ASSIGN_OR_RETURN(Stmt s, prepare(db, path, SCAN));
  VarianceTally t;
  int rc;
  auto is_null = [&](int col) { return sqlite3_column_type(s.get(), col) == SQLITE_NULL; };
  auto int_at = [&](int col) { return sqlite3_column_int64(s.get(), col); };
  while ((rc = sqlite3_step(s.get())) == SQLITE_ROW) {
    ++t.rows;
    if (!is_null(0) && int_at(0) >= 0 && int_at(0) < PHASE_NB) ++t.phase[size_t(int_at(0))];
    if (const auto* r = reinterpret_cast<const char*>(sqlite3_column_text(s.get(), 1))) t.add_result(r);
    if (!is_null(2) && int_at(2) == 1) ++t.white;
    if (!is_null(3)) t.legal_moves.add(int_at(3));
    if (!is_null(4)) t.piece_count.add(int_at(4));
    if (!is_null(5) && int_at(5) != 0) ++t.imbalanced;
    if (!is_null(6)) t.castling.insert(int_at(6));
    if (!is_null(7) && int_at(7) == 1) ++t.in_check;
  }
  if (rc != SQLITE_DONE) return sqlite_error(path, db, "positions scan");
  return t;
}

Result<std::optional<LabelDistribution>> label_distribution(sqlite3* db, const std::string& path) {
  MANAKA_ASSIGN_OR_RETURN(Stmt t, prepare(db, path, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'labels'"));
  const int has = sqlite3_step(t.get());
  if (has == SQLITE_DONE) return std::optional<LabelDistribution>();
  if (has != SQLITE_ROW) return sqlite_error(path, db, "looking for the labels table");
  MANAKA_ASSIGN_OR_RETURN(Stmt s, prepare(db, path, "SELECT score_cp, score_mate, wdl_win, wdl_draw, wdl_loss FROM labels"));
  LabelDistribution d;
  std::vector<int64_t> cps;
  std::array<double, 3> wdl_sum{};
  int rc;
  while ((rc = sqlite3_step(s.get())) == SQLITE_ROW) {
    ++d.labeled;
    auto null = [&](int c) { return sqlite3_column_type(s.get(), c) == SQLITE_NULL; };
    if (!null(1)) {
      ++d.mates;
    } else if (!null(0)) {
      cps.push_back(sqlite3_column_int64(s.get(), 0));
      d.cp.add(cps.back());
    }
    if (!null(2) && !null(3) && !null(4)) {
      ++d.with_wdl;
      for (int k = 0; k < 3; ++k) wdl_sum[size_t(k)] += double(sqlite3_column_int64(s.get(), 2 + k));
    }
  }
  if (rc != SQLITE_DONE) return sqlite_error(path, db, "labels scan");
  std::sort(cps.begin(), cps.end());
  constexpr std::array<int, 5> PERCENT = {5, 25, 50, 75, 95};
  for (size_t q = 0; q < PERCENT.size() && !cps.empty(); ++q) {
    // Nearest rank: the smallest value with at least p % of the values at or below it.
    const size_t rank = std::max<size_t>(1, (cps.size() * size_t(PERCENT[q]) + 99) / 100);
    d.cp_quantiles[q] = cps[rank - 1];
  }
  for (size_t k = 0; k < 3; ++k) d.wdl_mean[k] = d.with_wdl ? wdl_sum[k] / double(d.with_wdl) : 0.0;
  return std::optional<LabelDistribution>(d);
}

double share(uint64_t part, uint64_t whole) { return whole ? double(part) / double(whole) : 0.0; }

VarianceCheck at_least(const char* name, double value, double threshold) {
  return {name, value, threshold, ">=", value >= threshold};
}
VarianceCheck at_most(const char* name, double value, double threshold) {
  return {name, value, threshold, "<=", value <= threshold};
}

}  // namespace

double Moments::stddev() const {
  if (n == 0) return 0;
  // n^2 var = n sum_sq - sum^2, exact in 128 bits for |x| < 2^31 and n < 2^40.
  const __int128 scaled = __int128(n) * sum_sq - sum * sum;
  return std::sqrt(double(scaled) / double(n) / double(n));
}

void VarianceTally::add_result(std::string_view token) {
  for (size_t i = 0; i < DECIDED_RESULTS.size(); ++i)
    if (token == DECIDED_RESULTS[i]) ++result[i];
}

void VarianceTally::add(int p, std::string_view token, const Features& f) {
  ++rows;
  if (p >= 0 && p < PHASE_NB) ++phase[size_t(p)];
  add_result(token);
  white += f.side_to_move == 1;
  legal_moves.add(f.legal_moves);
  piece_count.add(f.piece_count);
  imbalanced += f.material_balance != 0;
  castling.insert(f.castling_mask);
  in_check += f.in_check;
}

Result<VarianceReport> variance_report(const std::string& path, const VarianceThresholds& th) {
  MANAKA_ASSIGN_OR_RETURN(Db db, open_db(path, path, SQLITE_OPEN_READONLY));
  MANAKA_RETURN_NOT_OK(check_complete(db.get(), path));
  MANAKA_ASSIGN_OR_RETURN(std::string target_text, metadata_value(db.get(), path, "target_size"));
  MANAKA_ASSIGN_OR_RETURN(VarianceTally t, scan(db.get(), path));
  char* end = nullptr;
  const unsigned long long target = std::strtoull(target_text.c_str(), &end, 10);
  VarianceReport r = variance_report(t, !target_text.empty() && *end == '\0' ? target : 0, th);
  MANAKA_ASSIGN_OR_RETURN(r.labels, label_distribution(db.get(), path));
  return r;
}

VarianceReport variance_report(const VarianceTally& t, uint64_t target_size, const VarianceThresholds& th) {
  VarianceReport r;
  r.rows = t.rows;
  r.target_size = target_size;

  const double size_threshold = std::max(th.min_size_fraction * double(r.target_size), double(th.min_rows));
  r.checks.push_back(at_least("corpus_size", double(t.rows), size_threshold));

  double entropy = 0, min_phase = 1;
  for (uint64_t n : t.phase) {
    const double p = share(n, t.rows);
    if (p > 0) entropy -= p * std::log2(p);
    min_phase = std::min(min_phase, p);
  }
  r.checks.push_back(at_least("phase_entropy_bits", entropy, th.min_phase_entropy_bits));
  r.checks.push_back(at_least("min_phase_share", min_phase, th.min_phase_share));

  uint64_t decided = 0;
  for (uint64_t n : t.result) decided += n;
  double min_result = 1;
  for (uint64_t n : t.result) min_result = std::min(min_result, share(n, decided));
  r.checks.push_back(at_least("min_result_share", min_result, th.min_result_share));

  r.checks.push_back(at_most("side_to_move_imbalance", std::fabs(share(t.white, t.rows) - 0.5),
                             th.max_side_to_move_imbalance));
  r.checks.push_back(at_least("legal_moves_std", t.legal_moves.stddev(), th.min_legal_moves_std));
  r.checks.push_back(at_least("piece_count_std", t.piece_count.stddev(), th.min_piece_count_std));
  r.checks.push_back(
      at_least("material_imbalance_share", share(t.imbalanced, t.rows), th.min_material_imbalance_share));
  r.checks.push_back(at_least("castling_states", double(t.castling.size()), double(th.min_castling_states)));
  r.checks.push_back(at_least("in_check_share", share(t.in_check, t.rows), th.min_in_check_share));

  r.high_variance = true;
  for (const VarianceCheck& c : r.checks) r.high_variance = r.high_variance && c.pass;
  r.changed = changed_thresholds(th);
  return r;
}

std::string report_json(const VarianceReport& r) {
  nlohmann::json checks = nlohmann::json::array();
  for (const VarianceCheck& c : r.checks) {
    checks.push_back({{"name", c.name},
                      {"value", c.value},
                      {"threshold", c.threshold},
                      {"comparison", c.comparison},
                      {"pass", c.pass}});
  }
  nlohmann::json out = {{"format", "VPD1-variance"},  {"version", 1},
                        {"rows", r.rows},             {"target_size", r.target_size},
                        {"high_variance", r.high_variance}, {"checks", checks}};
  if (!r.changed.empty()) {
    nlohmann::json changed = nlohmann::json::object();
    for (const ThresholdChange& c : r.changed) changed[c.name] = {{"value", c.value}, {"default", c.default_value}};
    out["changed_thresholds"] = changed;
  }
  if (r.labels) {
    const LabelDistribution& d = *r.labels;
    const auto& q = d.cp_quantiles;
    out["labels"] = {{"labeled", d.labeled},
                     {"mates", d.mates},
                     {"cp_mean", d.cp.n ? double(d.cp.sum) / double(d.cp.n) : 0.0},
                     {"cp_std", d.cp.stddev()},
                     {"cp_quantiles", {{"p5", q[0]}, {"p25", q[1]}, {"p50", q[2]}, {"p75", q[3]}, {"p95", q[4]}}},
                     {"with_wdl", d.with_wdl},
                     {"wdl_mean", {d.wdl_mean[0], d.wdl_mean[1], d.wdl_mean[2]}}};
  }
  return json_text(out);
}

std::string format_report(const VarianceReport& r) {
  std::string out;
  char line[160];
  std::snprintf(line, sizeof line, "%-26s %14s    %14s  %s\n", "check", "value", "threshold", "pass");
  out += line;
  for (const VarianceCheck& c : r.checks) {
    std::snprintf(line, sizeof line, "%-26s %14.6g %s %14.6g  %s\n", c.name.c_str(), c.value, c.comparison.c_str(),
                  c.threshold, c.pass ? "yes" : "NO");
    out += line;
  }
  out += std::string("high_variance              ") + (r.high_variance ? "true" : "false") + "\n";
  for (const ThresholdChange& c : r.changed) {
    std::snprintf(line, sizeof line, "changed threshold %s = %.6g (default %.6g)\n", c.name.c_str(), c.value,
                  c.default_value);
    out += line;
  }
  if (r.labels) {
    const LabelDistribution& d = *r.labels;
    const auto& q = d.cp_quantiles;
    std::snprintf(line, sizeof line, "labels %llu of %llu rows, %llu mates; cp mean %.1f std %.1f\n",
                  (unsigned long long)d.labeled, (unsigned long long)r.rows, (unsigned long long)d.mates,
                  d.cp.n ? double(d.cp.sum) / double(d.cp.n) : 0.0, d.cp.stddev());
    out += line;
    std::snprintf(line, sizeof line, "  cp p5 %lld p25 %lld p50 %lld p75 %lld p95 %lld; wdl mean %.0f/%.0f/%.0f (%llu)\n",
                  (long long)q[0], (long long)q[1], (long long)q[2], (long long)q[3], (long long)q[4], d.wdl_mean[0],
                  d.wdl_mean[1], d.wdl_mean[2], (unsigned long long)d.with_wdl);
    out += line;
  }
  return out;
}

Status write_variance_metadata(const std::string& path, const VarianceReport& report) {
  MANAKA_ASSIGN_OR_RETURN(Db db, open_db(path, path, SQLITE_OPEN_READWRITE));
  MANAKA_RETURN_NOT_OK(check_complete(db.get(), path));
  MANAKA_RETURN_NOT_OK(exec(db.get(), path, "BEGIN IMMEDIATE"));
  MANAKA_ASSIGN_OR_RETURN(Stmt s, prepare(db.get(), path, UPSERT_METADATA));
  const std::array<std::pair<std::string, std::string>, 2> rows = {
      std::pair<std::string, std::string>{"variance_report", report_json(report)},
      {"high_variance", report.high_variance ? "true" : "false"}};
  for (const auto& [key, value] : rows) {
    bind_text(s.get(), 1, key);
    bind_text(s.get(), 2, value);
    MANAKA_RETURN_NOT_OK(step_done(db.get(), s.get(), path, "metadata " + key));  // closing rolls back
  }
  s.reset();
  MANAKA_RETURN_NOT_OK(exec(db.get(), path, "COMMIT"));
  if (sqlite3_close_v2(db.release()) != SQLITE_OK) return Status::io(path + ": cannot close the database");
  return {};
}

}  // namespace manaka::vpd
