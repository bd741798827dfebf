#include "sazpack/inspect.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "core/text.h"
#include "sazpack/codec.h"

namespace manaka::sazpack {

void ChunkStats::add(const SazGame& game) {
  const uint64_t n = game.positions.size();
  positions_min = games == 0 ? n : std::min(positions_min, n);
  positions_max = std::max(positions_max, n);
  ++games;
  positions += n;
  ++by_result[uint8_t(game.game_result)];
  ++by_reason[uint8_t(game.termination_reason)];
  ++by_rule[uint8_t(game.entering_king_rule)];
  for (const SazPosition& p : game.positions) {
    entries += p.policy.size();
    entries_max = std::max<uint64_t>(entries_max, p.policy.size());
    mates += p.mate.has_value();
    requested_visits += p.requested_visits;
    for (const SazPolicyEntry& e : p.policy) visits += e.visits;
  }
}

Result<ChunkStats> inspect_chunk(std::span<const uint8_t> chunk) {
  MANAKA_ASSIGN_OR_RETURN(GameReader reader, GameReader::open(chunk));
  ChunkStats stats;
  stats.bytes = chunk.size();
  SazGame game;
  while (true) {
    MANAKA_ASSIGN_OR_RETURN(bool more, reader.next(game));
    if (!more) break;
    stats.add(game);
  }
  return stats;
}

namespace {

std::string ratio(uint64_t n, uint64_t of) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", of ? double(n) / double(of) : 0.0);
  return buf;
}

nlohmann::json stats_object(const std::string& file, const ChunkStats& s) {
  nlohmann::json results = nlohmann::json::object(), reasons = nlohmann::json::object(),
                 rules = nlohmann::json::object();
  for (size_t v = 0; v < s.by_result.size(); ++v)
    if (s.by_result[v]) results[to_string(GameResult(v))] = s.by_result[v];
  for (size_t v = 0; v < s.by_reason.size(); ++v)
    if (s.by_reason[v]) reasons[to_string(TerminationReason(v))] = s.by_reason[v];
  for (size_t v = 0; v < s.by_rule.size(); ++v)
    if (s.by_rule[v]) rules[to_string(EnteringKingRule(v))] = s.by_rule[v];
  return {{"file", file},
          {"magic", "SAZ2"},
          {"version", kVersion},
          {"bytes", s.bytes},
          {"games", s.games},
          {"positions", {{"total", s.positions}, {"per_game_min", s.positions_min}, {"per_game_max", s.positions_max}}},
          {"policy_entries", {{"total", s.entries}, {"per_position_max", s.entries_max}}},
          {"visits", s.visits},
          {"requested_visits", s.requested_visits},
          {"positions_with_mate", s.mates},
          {"game_result", results},
          {"termination_reason", reasons},
          {"entering_king_rule", rules}};
}

template <size_t N, typename Enum>
void print_histogram(std::string& out, const char* label, const std::array<uint64_t, N>& counts, Enum) {
  append_format(out, "  %-13s", label);
  const char* sep = "";
  for (size_t v = 0; v < N; ++v) {
    if (!counts[v]) continue;
    append_format(out, "%s%s %llu", sep, to_string(Enum(v)), static_cast<unsigned long long>(counts[v]));
    sep = ", ";
  }
  append_format(out, "\n");
}

}  // namespace

std::string format_stats(const std::string& file, const ChunkStats& s) {
  std::string out;
  append_format(out, "%s\n", file.c_str());
  append_format(out, "  chunk        SAZ2 version %u, %llu bytes\n", kVersion,
              static_cast<unsigned long long>(s.bytes));
  append_format(out, "  games        %llu; positions per game %llu..%llu\n", static_cast<unsigned long long>(s.games),
              static_cast<unsigned long long>(s.positions_min), static_cast<unsigned long long>(s.positions_max));
  append_format(out, "  positions    %llu (%s bytes each); %llu with a proven mate\n",
              static_cast<unsigned long long>(s.positions), ratio(s.bytes, s.positions).c_str(),
              static_cast<unsigned long long>(s.mates));
  append_format(out, "  policy       %llu entries, %s per position, at most %llu\n",
              static_cast<unsigned long long>(s.entries), ratio(s.entries, s.positions).c_str(),
              static_cast<unsigned long long>(s.entries_max));
  append_format(out, "  visits       %s per position (requested %s)\n", ratio(s.visits, s.positions).c_str(),
              ratio(s.requested_visits, s.positions).c_str());
  if (s.games == 0) return out;
  print_histogram(out, "results", s.by_result, GameResult{});
  print_histogram(out, "termination", s.by_reason, TerminationReason{});
  print_histogram(out, "king rule", s.by_rule, EnteringKingRule{});
  return out;
}

std::string stats_json(const std::string& file, const ChunkStats& s) { return json_text(stats_object(file, s), 2); }

}  // namespace manaka::sazpack
