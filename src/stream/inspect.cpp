#include "stream/inspect.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <bit>
#include <cstring>

#include "core/bytes.h"
#include "core/text.h"
#include "core/progress.h"
#include "stream/reader.h"

namespace manaka::stream {

namespace {

constexpr uint64_t kSeenAgain = uint64_t{1} << 63;
constexpr uint64_t kKeyMask = kSeenAgain - 1;
constexpr size_t kInitialSlots = size_t{1} << 10;

uint64_t finalize(uint64_t h) {  // the splitmix64 finalizer
  h ^= h >> 30;
  h *= 0xBF58476D1CE4E5B9ULL;
  h ^= h >> 27;
  h *= 0x94D049BB133111EBULL;
  h ^= h >> 31;
  return h;
}

// Nearest-rank percentile over a histogram of n values.
uint32_t percentile(const std::vector<uint64_t>& hist, uint64_t n, double q) {
  if (n == 0) return 0;
  auto rank = static_cast<uint64_t>(q * static_cast<double>(n));
  if (static_cast<double>(rank) < q * static_cast<double>(n)) ++rank;
  rank = std::max<uint64_t>(rank, 1);
  uint64_t seen = 0;
  for (size_t v = 0; v < hist.size(); ++v) {
    seen += hist[v];
    if (seen >= rank) return static_cast<uint32_t>(v);
  }
  return static_cast<uint32_t>(hist.size() - 1);
}

}  // namespace

uint64_t hash_packed(std::span<const uint8_t> packed) {
  constexpr uint64_t k1 = 0x9E3779B97F4A7C15ULL, k2 = 0xC2B2AE3D27D4EB4FULL;
  uint64_t h = k2 ^ (packed.size() * k1);
  const uint8_t* p = packed.data();
  size_t n = packed.size();
  for (; n >= 8; n -= 8, p += 8) h = std::rotl(h ^ (load_u64(p) * k1), 29) * k2;
  if (n > 0) {
    uint8_t tail[8] = {};
    std::memcpy(tail, p, n);
    h = std::rotl(h ^ (load_u64(tail) * k1), 29) * k2;
  }
  return finalize(h);
}

StatsAccumulator::StatsAccumulator(const Header& header, const InspectOptions& options)
    : count_duplicates_(options.count_duplicates) {
  s_.header = header;
  s_.duplicates_counted = count_duplicates_;
  if (count_duplicates_) board_slots_.assign(kInitialSlots, 0);
}

void StatsAccumulator::add(const RecordView& rec) {
  size_t n = rec.candidates.size();
  bool first = s_.records == 0;
  ++s_.records;
  s_.candidates += n;
  n = std::min(n, kMaxCandidates);
  if (n >= n_cand_hist_.size()) n_cand_hist_.resize(n + 1, 0);  // at most 65,536 buckets
  ++n_cand_hist_[n];

  if (s_.header.policy_source == PolicySource::Visits) {
    uint64_t total = 0;
    for (const Candidate& c : rec.candidates) {
      total += c.visits;
      s_.visited_1 += c.visits == 1;
      s_.visited_2 += c.visits == 2;
      s_.visited_3 += c.visits == 3;
    }
    s_.visit_total_min = first ? total : std::min(s_.visit_total_min, total);
    s_.visit_total_max = first ? total : std::max(s_.visit_total_max, total);
    visit_total_sum_ += static_cast<double>(total);
  }

  if (rec.value_z < 0) {
    ++s_.z_loss;
  } else if (rec.value_z > 0) {
    ++s_.z_win;
  } else {
    ++s_.z_draw;
  }
  s_.value_q_min = first ? rec.value_q : std::min(s_.value_q_min, rec.value_q);
  s_.value_q_max = first ? rec.value_q : std::max(s_.value_q_max, rec.value_q);
  value_q_sum_ += rec.value_q;
  s_.ply_min = first ? rec.ply : std::min(s_.ply_min, rec.ply);
  s_.ply_max = first ? rec.ply : std::max(s_.ply_max, rec.ply);

  if (count_duplicates_) add_board(hash_packed(rec.packed));
}

void StatsAccumulator::add_board(uint64_t hash) {
  uint64_t key = hash & kKeyMask;
  if (key == 0) key = 1;
  size_t mask = board_slots_.size() - 1;
  for (size_t i = static_cast<size_t>(hash) & mask;; i = (i + 1) & mask) {
    uint64_t slot = board_slots_[i];
    if (slot == 0) {
      board_slots_[i] = key;
      if (++board_count_ * 10 > board_slots_.size() * 7) grow_boards();
      return;
    }
    if ((slot & kKeyMask) == key) {
      // The second sighting brings the first record into the count too.
      s_.records_sharing_board += (slot & kSeenAgain) ? 1 : 2;
      board_slots_[i] = slot | kSeenAgain;
      return;
    }
  }
}

void StatsAccumulator::grow_boards() {
  std::vector<uint64_t> old;
  old.swap(board_slots_);
  board_slots_.assign(old.size() * 2, 0);
  size_t mask = board_slots_.size() - 1;
  for (uint64_t slot : old) {
    if (slot == 0) continue;
    // Keys are the hash's low 63 bits, so they index the same way.
    size_t i = static_cast<size_t>(slot & kKeyMask) & mask;
    while (board_slots_[i] != 0) i = (i + 1) & mask;
    board_slots_[i] = slot;
  }
}

StreamStats StatsAccumulator::finish(uint64_t bytes) const {
  StreamStats s = s_;
  s.bytes = bytes;
  if (s.records > 0) {
    double n = static_cast<double>(s.records);
    s.cand_mean = static_cast<double>(s.candidates) / n;
    s.cand_p50 = percentile(n_cand_hist_, s.records, 0.50);
    s.cand_p99 = percentile(n_cand_hist_, s.records, 0.99);
    s.cand_min = percentile(n_cand_hist_, s.records, 0.0);
    s.cand_max = percentile(n_cand_hist_, s.records, 1.0);
    s.visit_total_mean = visit_total_sum_ / n;
    s.value_q_mean = value_q_sum_ / n;
  }
  s.distinct_boards = board_count_;
  return s;
}

Result<StreamStats> inspect(Reader& reader, const InspectOptions& options, Progress* progress) {
  StatsAccumulator acc(reader.header(), options);
  RecordView rec;
  while (true) {
    MANAKA_ASSIGN_OR_RETURN(bool more, reader.next(rec));
    if (!more) break;
    acc.add(rec);
    if (progress) progress->update(reader.byte_offset(), reader.record_index());
  }
  if (progress) progress->update(reader.byte_offset(), reader.record_index());
  return acc.finish(reader.byte_offset());
}

namespace {

std::string float_text(double v, int precision = 4) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*g", precision, v);
  return buf;
}

std::string percent(uint64_t n, uint64_t of) {
  return float_text(of ? 100.0 * static_cast<double>(n) / static_cast<double>(of) : 0.0, 3) + "%";
}

nlohmann::json header_json(const Header& h) {
  return {{"magic", "MPK1"},
          {"version", h.version},
          {"packed_len", h.packed_len},
          {"pov", static_cast<int>(h.pov)},
          {"policy_source", static_cast<int>(h.policy_source)},
          {"mate_scale", h.mate_scale},
          {"fv_scale", h.fv_scale},
          {"mate_slack", h.mate_slack},
          {"eval_coef", h.eval_coef},
          {"flags", h.flags}};
}

nlohmann::json stats_object(const std::string& file, const StreamStats& s) {
  nlohmann::json j = {
      {"file", file},
      {"header", header_json(s.header)},
      {"records", s.records},
      {"bytes", s.bytes},
      {"candidates",
       {{"total", s.candidates}, {"mean", s.cand_mean}, {"min", s.cand_min}, {"p50", s.cand_p50},
        {"p99", s.cand_p99}, {"max", s.cand_max}}},
      {"value_z", {{"-1", s.z_loss}, {"0", s.z_draw}, {"1", s.z_win}}},
      {"value_q", {{"min", s.value_q_min}, {"mean", s.value_q_mean}, {"max", s.value_q_max}}},
      {"ply", {{"min", s.ply_min}, {"max", s.ply_max}}},
  };
  if (s.header.policy_source == PolicySource::Visits) {
    j["visit_totals"] = {{"min", s.visit_total_min}, {"mean", s.visit_total_mean}, {"max", s.visit_total_max}};
    j["visited_exactly"] = {{"1", s.share(s.visited_1, s.candidates)},
                            {"2", s.share(s.visited_2, s.candidates)},
                            {"3", s.share(s.visited_3, s.candidates)}};
  }
  if (s.duplicates_counted) {
    j["duplicate_boards"] = {{"method", "64-bit hash of packed"},
                             {"distinct_boards", s.distinct_boards},
                             {"records_sharing_board", s.records_sharing_board},
                             {"share", s.share(s.records_sharing_board, s.records)}};
  }
  return j;
}

}  // namespace

std::string format_stats(const std::string& file, const StreamStats& s) {
  std::string out;
  const auto& h = s.header;
  append_format(out, "%s\n", file.c_str());
  append_format(out, "  header       MPK1 version %u, packed_len %u, pov %d (%s), policy_source %d (%s)\n", h.version,
              h.packed_len, static_cast<int>(h.pov), h.pov == Pov::Black ? "Black" : "side to move",
              static_cast<int>(h.policy_source), h.policy_source == PolicySource::Cp ? "cp" : "visits");
  append_format(out, "               mate_scale %u, mate_slack %u, fv_scale %u, eval_coef %s, flags %u\n", h.mate_scale,
              h.mate_slack, h.fv_scale, float_text(h.eval_coef, 9).c_str(), h.flags);
  append_format(out, "  records      %llu (%s)\n", static_cast<unsigned long long>(s.records),
              format_bytes(static_cast<double>(s.bytes)).c_str());
  if (s.records == 0) return out;
  append_format(out, "  candidates   per record: mean %s, p50 %u, p99 %u, max %u (min %u); %llu in all\n",
              float_text(s.cand_mean).c_str(), s.cand_p50, s.cand_p99, s.cand_max, s.cand_min,
              static_cast<unsigned long long>(s.candidates));
  if (h.policy_source == PolicySource::Visits) {
    append_format(out, "  visits       per record: min %llu, mean %s, max %llu\n",
                static_cast<unsigned long long>(s.visit_total_min), float_text(s.visit_total_mean, 6).c_str(),
                static_cast<unsigned long long>(s.visit_total_max));
    append_format(out, "               candidates visited exactly 1 / 2 / 3 times: %s / %s / %s\n",
                percent(s.visited_1, s.candidates).c_str(), percent(s.visited_2, s.candidates).c_str(),
                percent(s.visited_3, s.candidates).c_str());
  }
  append_format(out, "  value_z      -1: %llu (%s), 0: %llu (%s), 1: %llu (%s)\n", static_cast<unsigned long long>(s.z_loss),
              percent(s.z_loss, s.records).c_str(), static_cast<unsigned long long>(s.z_draw),
              percent(s.z_draw, s.records).c_str(), static_cast<unsigned long long>(s.z_win),
              percent(s.z_win, s.records).c_str());
  append_format(out, "  value_q      min %s, mean %s, max %s\n", float_text(s.value_q_min).c_str(),
              float_text(s.value_q_mean).c_str(), float_text(s.value_q_max).c_str());
  append_format(out, "  ply          %u..%u\n", s.ply_min, s.ply_max);
  if (s.duplicates_counted) {
    append_format(out, "  boards       %s of records share a board with another (%llu records; %llu distinct boards;"
                " by 64-bit hash of packed)\n",
                percent(s.records_sharing_board, s.records).c_str(),
                static_cast<unsigned long long>(s.records_sharing_board),
                static_cast<unsigned long long>(s.distinct_boards));
  }
  return out;
}

std::string stats_json(const std::string& file, const StreamStats& s) { return json_text(stats_object(file, s), 2); }

}  // namespace manaka::stream
