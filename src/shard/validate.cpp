#include "shard/validate.h"

#include <chrono>
#include <map>
#include <cmath>
#include <span>

#include <nlohmann/json.hpp>

#include "core/progress.h"
#include "core/text.h"
#include "shard/shard_reader.h"
#include "shard/shard_set.h"
#include "shogi/pack.h"
#include "stream/validate.h"

namespace manaka::shard {

namespace {

constexpr const char* kRuleNames[kRowRuleCount] = {"board", "value", "weight", "candidates", "move", "prob"};

bool within_one(float v) { return std::isfinite(v) && v >= -1.0f && v <= 1.0f; }

// The rules row i of b breaks, each with its detail: at most one per rule.
struct RowCheck {
  std::array<std::string, kRowRuleCount> detail;
  bool any = false;
  void fail(RowRule r, std::string text) {
    if (detail[size_t(r)].empty()) detail[size_t(r)] = std::move(text);
    any = true;
  }
};

void check_row(const ShardBatch& b, int64_t i, std::vector<uint32_t>& seen, uint32_t stamp, RowCheck& c) {
  const auto packed = std::span<const uint8_t, kPackedLen>(b.packed.data() + size_t(i) * kPackedLen, kPackedLen);
  if (!shogi::packed_is_valid(packed)) {
    auto pos = shogi::unpack(packed);
    c.fail(RowRule::Board, "packed: " + (pos.ok() ? std::string("not a position") : pos.status().message()));
  }
  for (const auto& [name, v] : {std::pair{"value_z", b.value_z[i]}, std::pair{"value_q", b.value_q[i]}})
    if (!within_one(v)) c.fail(RowRule::Value, std::string(name) + " " + number_text(v) + " is not within [-1, 1]");
  if (b.weight[i] == 0) c.fail(RowRule::Weight, "weight is 0");
  const int64_t lo = b.cand_offsets[i], hi = b.cand_offsets[i + 1];
  if (lo == hi) c.fail(RowRule::Candidates, "no candidate");
  double sum = 0.0;
  for (int64_t k = lo; k < hi; ++k) {
    const uint16_t mv = b.mv[k];
    if (Status st = stream::validate_move16(mv); !st.ok()) {
      c.fail(RowRule::Move, "candidate " + std::to_string(k - lo) + ": " + st.message());
    } else if (seen[mv] == stamp) {
      c.fail(RowRule::Move, "candidate " + std::to_string(k - lo) + ": mv " + std::to_string(mv) + " listed twice");
    }
    seen[mv] = stamp;
    const float p = b.prob[k];
    if (!std::isfinite(p) || p < 0.0f)
      c.fail(RowRule::Prob, "candidate " + std::to_string(k - lo) + ": prob " + number_text(p));
    sum += p;
  }
  if (lo != hi && !(std::fabs(sum - 1.0) <= 1e-3)) c.fail(RowRule::Prob, "prob sums to " + number_text(sum));
}

// The rows a set's footers state against those its shards hold
// (check_shard_sets has made sure every shard of the set is given).
struct SetRows {
  std::string first;  // the first file of the set given
  uint64_t rows_stated = 0, rows_found = 0;
};

Status count_set_rows(const ShardReader& reader, std::map<std::string, SetRows>& sets) {
  const std::string id = footer_value(reader.footer(), kSetIdKey);
  if (id.empty()) return Status();
  const std::string rows = footer_value(reader.footer(), kSetRowsKey);
  if (rows.empty() || rows.size() > 19 || rows.find_first_not_of("0123456789") != std::string::npos)
    return Status::invalid(reader.path() + ": footer key " + kSetRowsKey + " is \"" + rows.substr(0, 40) +
                           "\", not a row count");
  auto [it, fresh] = sets.try_emplace(id, SetRows{reader.path(), std::stoull(rows), 0});
  if (!fresh && it->second.rows_stated != std::stoull(rows))
    return Status::invalid(reader.path() + ": footer key " + kSetRowsKey + " is " + rows + ", but " +
                           it->second.first + " of the same set says " + std::to_string(it->second.rows_stated));
  it->second.rows_found += static_cast<uint64_t>(reader.num_rows());
  return Status();
}

}  // namespace

Result<ValidateReport> validate_shards(const std::vector<std::string>& paths, Progress* progress) {
  const auto start = std::chrono::steady_clock::now();
  if (paths.empty()) return Status::usage("no shard files");
  MANAKA_RETURN_NOT_OK(check_shard_sets(paths));
  ValidateReport rep;
  rep.files = paths;
  std::vector<uint32_t> seen(size_t{1} << 16, 0);
  uint32_t stamp = 0;
  ShardBatch b;
  std::map<std::string, SetRows> sets;  // by manaka.set.id
  for (const std::string& path : paths) {
    MANAKA_ASSIGN_OR_RETURN(ShardReader reader, ShardReader::open(path));
    MANAKA_RETURN_NOT_OK(count_set_rows(reader, sets));
    for (int g = 0; g < reader.num_row_groups(); ++g) {
      MANAKA_RETURN_NOT_OK(reader.read_row_group_into(g, ShardColumns{}, b));
      ++rep.row_groups;
      for (int64_t i = 0; i < b.rows; ++i) {
        RowCheck c;
        check_row(b, i, seen, ++stamp, c);
        if (!c.any) continue;
        ++rep.rows_broken;
        for (size_t r = 0; r < kRowRuleCount; ++r) {
          if (c.detail[r].empty()) continue;
          if (rep.broken[r]++ == 0)
            rep.first[r] = path + ": row group " + std::to_string(g) + " row " + std::to_string(i) + ": " + c.detail[r];
        }
      }
      rep.rows += b.rows;
      rep.candidates += b.rows > 0 ? b.cand_offsets[size_t(b.rows)] : 0;
      if (progress) progress->poll(uint64_t(rep.rows), uint64_t(rep.rows));
    }
  }
  for (const auto& [id, set] : sets) {
    if (set.rows_found != set.rows_stated)
      return Status::invalid(set.first + ": its footer says set " + id + " holds " + std::to_string(set.rows_stated) +
                             " rows (" + kSetRowsKey + "), but its shards hold " + std::to_string(set.rows_found));
  }
  if (progress) progress->finish();
  rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return rep;
}

std::string format_validate(const ValidateReport& r) {
  std::string out;
  append_format(out, "validate: %lld rows (%lld candidates) in %lld row groups of %zu file%s, %.2f s: ",
                static_cast<long long>(r.rows), static_cast<long long>(r.candidates),
                static_cast<long long>(r.row_groups), r.files.size(), r.files.size() == 1 ? "" : "s", r.seconds);
  if (r.ok()) return out + "every row keeps every rule\n";
  append_format(out, "%llu row%s break a rule\n", static_cast<unsigned long long>(r.rows_broken),
                r.rows_broken == 1 ? "" : "s");
  for (size_t k = 0; k < kRowRuleCount; ++k) {
    if (r.broken[k] == 0) continue;
    append_format(out, "  %-10s %10llu  first: %s\n", kRuleNames[k], static_cast<unsigned long long>(r.broken[k]),
                  r.first[k].c_str());
  }
  return out;
}

std::string validate_json(const ValidateReport& r) {
  nlohmann::ordered_json broken = nlohmann::ordered_json::object(), first = nlohmann::ordered_json::object();
  for (size_t k = 0; k < kRowRuleCount; ++k) {
    broken[kRuleNames[k]] = r.broken[k];
    if (r.broken[k]) first[kRuleNames[k]] = r.first[k];
  }
  nlohmann::ordered_json j = {{"files", r.files},   {"rows", r.rows},       {"row_groups", r.row_groups},
                              {"candidates", r.candidates}, {"rows_broken", r.rows_broken},
                              {"broken", broken},   {"first", first},       {"seconds", r.seconds}};
  return json_text(j);
}

}  // namespace manaka::shard
