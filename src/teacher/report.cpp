#include "teacher/report.h"

#include <cstdarg>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "core/text.h"
#include "core/progress.h"

namespace manaka::teacher {

namespace {

double per(double a, double b) { return b > 0 ? a / b : 0.0; }

}  // namespace

std::string format_summary(const ConvertSummary& s) {
  const auto& h = s.header;
  std::string out;
  append_format(out,
      "convert: %llu rows from %zu file%s -> %s: %llu records (%s) in %.2f s (%s rows/s)\n",
      ull(s.rows_read), s.files.size(), s.files.size() == 1 ? "" : "s", s.output.c_str(),
      ull(s.records_written), format_bytes(double(s.bytes_written)).c_str(), s.seconds,
      format_count(per(double(s.rows_read), s.seconds)).c_str());
  append_format(out,
      "  header: pov 0 (side to move), policy_source 1 (cp), mate_scale %u, mate_slack %u "
      "(effective %d: mates at |cp| >= %d), fv_scale %u, eval_coef %.9g\n",
      h.mate_scale, h.mate_slack, s.effective_slack, s.mate_threshold, h.fv_scale, double(h.eval_coef));
  if (!s.left_out.empty()) {
    append_format(out, "  not read: %zu file%s in the directories given (only *.parquet, not hidden or _):",
                  s.left_out.size(), s.left_out.size() == 1 ? "" : "s");
    for (size_t i = 0; i < s.left_out.size() && i < 5; ++i) append_format(out, " %s", s.left_out[i].c_str());
    out += s.left_out.size() > 5 ? " ...\n" : "\n";
  }
  const uint64_t refused = s.refused_total();
  append_format(out, "  refused: %llu row%s\n", ull(refused), refused == 1 ? "" : "s");
  for (size_t k = 1; k < kRefusalCount; ++k) {
    if (s.refused[k] == 0) continue;
    auto r = static_cast<Refusal>(k);
    append_format(out, "    %-21s %8llu  %s\n", refusal_name(r), ull(s.refused[k]), refusal_text(r));
    if (const auto& ex = s.first_refusal[k])
      append_format(out, "      first: %s %s %llu: %s\n", ex->file.c_str(), ex->line ? "line" : "row",
                    ull(ex->line ? ex->line : ex->row), ex->detail.c_str());
  }
  return out;
}

std::string format_summary(const GenerateSummary& s) {
  std::string out;
  append_format(out,
      "generate: %llu of %d games completed -> %s: %llu positions in %llu row group%s, %.1f s\n",
      ull(s.games_completed), s.games_requested, s.output.c_str(), ull(s.positions), ull(s.parts),
      s.parts == 1 ? "" : "s", s.seconds);
  append_format(out, "  results (Black's view): Black won %llu, White won %llu, draws %llu\n",
                       ull(s.black_wins), ull(s.white_wins), ull(s.draws));
  out += "  endings:";
  for (size_t e = 0; e < kGameEndCount; ++e)
    append_format(out, "%s %s %llu", e ? "," : "", game_end_name(GameEnd(e)), ull(s.endings[e]));
  out += "\n";
  append_format(out,
      "  lost to engine crashes or stalls: %llu game%s (%llu restart%s); ended by an illegal engine "
      "move: %llu\n",
      ull(s.games_lost), s.games_lost == 1 ? "" : "s", ull(s.restarts), s.restarts == 1 ? "" : "s",
      ull(s.games_illegal));
  append_format(out,
      "  engine %s: %.2f s waiting (%.3f ms a position); generator overhead %.3f s (%.4f ms a "
      "position) = %.2f%% of engine time\n",
      s.engine_name.c_str(), s.engine_seconds, 1e3 * per(s.engine_seconds, double(s.positions)),
      s.overhead_seconds, 1e3 * per(s.overhead_seconds, double(s.positions)), 100.0 * s.overhead_share());
  append_format(out, "  generator threads' CPU time: %.3f s (%.4f ms a position)\n", s.generator_cpu_seconds,
                       1e3 * per(s.generator_cpu_seconds, double(s.positions)));
  for (const auto& m : s.engine_failures) out += "  engine failure: " + m + "\n";
  for (const auto& m : s.illegal_moves) out += "  illegal move: " + m + "\n";
  for (const auto& m : s.worker_errors) out += "  stopped: " + m + "\n";
  return out;
}

std::string summary_json(const ConvertSummary& s) {
  const auto& h = s.header;
  nlohmann::json refused = nlohmann::json::object();
  nlohmann::json examples = nlohmann::json::object();
  for (size_t k = 1; k < kRefusalCount; ++k) {
    auto r = static_cast<Refusal>(k);
    refused[refusal_name(r)] = s.refused[k];
    if (const auto& ex = s.first_refusal[k])
      examples[refusal_name(r)] = ex->line ? nlohmann::json{{"file", ex->file}, {"row", ex->row}, {"line", ex->line},
                                                             {"detail", ex->detail}}
                                           : nlohmann::json{{"file", ex->file}, {"row", ex->row}, {"detail", ex->detail}};
  }
  nlohmann::json j = {
      {"files", s.files},
      {"not_read", s.left_out},
      {"output", s.output},
      {"rows_read", s.rows_read},
      {"records_written", s.records_written},
      {"bytes_written", s.bytes_written},
      {"refused_total", s.refused_total()},
      {"refused", refused},
      {"first_refusal", examples},
      {"header",
       {{"pov", int(h.pov)},
        {"policy_source", int(h.policy_source)},
        {"mate_scale", h.mate_scale},
        {"mate_slack", h.mate_slack},
        {"fv_scale", h.fv_scale},
        {"eval_coef", h.eval_coef}}},
      {"effective_slack", s.effective_slack},
      {"mate_threshold", s.mate_threshold},
      {"seconds", s.seconds},
      {"rows_per_second", per(double(s.rows_read), s.seconds)},
  };
  return json_text(j);
}

std::string summary_json(const GenerateSummary& s) {
  nlohmann::json endings = nlohmann::json::object();
  for (size_t e = 0; e < kGameEndCount; ++e) endings[game_end_name(GameEnd(e))] = s.endings[e];
  nlohmann::json j = {
      {"output", s.output},
      {"engine", s.engine_name},
      {"games_requested", s.games_requested},
      {"games_completed", s.games_completed},
      {"games_lost", s.games_lost},
      {"games_illegal", s.games_illegal},
      {"restarts", s.restarts},
      {"positions", s.positions},
      {"row_groups", s.parts},
      {"results", {{"black_won", s.black_wins}, {"white_won", s.white_wins}, {"draws", s.draws}}},
      {"endings", endings},
      {"engine_failures", s.engine_failures},
      {"illegal_moves", s.illegal_moves},
      {"worker_errors", s.worker_errors},
      {"seconds", s.seconds},
      {"engine_seconds", s.engine_seconds},
      {"overhead_seconds", s.overhead_seconds},
      {"overhead_share", s.overhead_share()},
      {"generator_cpu_seconds", s.generator_cpu_seconds},
  };
  return json_text(j);
}

}  // namespace manaka::teacher
