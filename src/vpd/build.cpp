#include "vpd/build.h"

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <system_error>

#include "core/text.h"
#include "chess/pgn_games.h"
#include "vpd/ingest.h"
#include "core/file.h"
#include "core/output.h"
#include "core/progress.h"
#include "core/threads.h"
#include "vpd/variance.h"

namespace manaka::vpd {

std::string completion_timestamp() {
  std::time_t t = std::time(nullptr);
  if (const char* epoch = std::getenv("SOURCE_DATE_EPOCH"); epoch && *epoch) {
    char* end = nullptr;
    const long long v = std::strtoll(epoch, &end, 10);
    if (*end == '\0' && v >= 0) t = std::time_t(v);
  }
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

namespace {

Status no_position_error(const std::vector<std::string>& inputs, const BuildInfo& info,
                         const std::vector<std::string>& first_errors) {
  std::string names;
  for (size_t i = 0; i < inputs.size(); ++i) names += (i ? ", " : "") + inputs[i];
  std::string msg = names + ": no position to sample (" + std::to_string(info.games_read) + " games read, " +
                    std::to_string(info.games_skipped) + " refused); no output written";
  if (!first_errors.empty()) msg += "; first refusal: " + first_errors.front();
  return Status::invalid(std::move(msg));
}

}  // namespace

Result<BuildSummary> build(const BuildOptions& o) {
  if (o.target == 0 || o.target > MAX_TARGET)
    return Status::usage("target size " + std::to_string(o.target) + " out of range (1 to 2^40)");
  MANAKA_RETURN_NOT_OK(check_distinct_inputs(o.inputs));
  MANAKA_RETURN_NOT_OK(check_output(o.output, o.inputs, o.overwrite));
  const auto start = std::chrono::steady_clock::now();
  BuildSummary s;
  s.output = o.output;
  s.info.seed = o.seed;
  s.info.target = o.target;
  Sampler sampler(o.target, o.seed);
  s.info.quotas = sampler.quotas();

  Progress progress(o.output, 0);
  progress.set_enabled(o.progress);
  // Refused games are skipped and counted; an unreadable file stops the build.
  IngestTally tally;
  MANAKA_RETURN_NOT_OK(ingest(o.inputs, {.threads = threads_or_hardware(o.threads), .chunk_bytes = o.chunk_bytes, .keep_messages = FIRST_ERRORS},
                              sampler, tally, progress));
  progress.finish();
  for (const chess::PgnFileCount& f : tally.files) {
    s.info.sources.push_back(
        SourceInfo{f.path, source_member(f.path), source_split(f.path), f.games_read, f.games_skipped});
  }
  s.info.games_read = tally.games_read;
  s.info.games_skipped = tally.games_skipped;
  s.first_errors = tally.messages;
  s.info.counts = sampler.counts();
  s.info.completed_at = completion_timestamp();
  std::vector<SampledPosition> rows = sampler.take();
  // An empty database is no dataset: a binary file or a PGN whose every
  // game is refused ends the build with the reason and no output.
  if (rows.empty()) return no_position_error(o.inputs, s.info, s.first_errors);
  s.rows = rows.size();
  for (const SampledPosition& r : rows) ++s.rows_per_phase[r.phase];
  // Written under a temporary of the output, its variance report (variance.h)
  // computed from the rows as they go in, and only then renamed onto it.
  PendingFile staged(o.output);
  MANAKA_RETURN_NOT_OK(write_database(staged.path(), s.info, rows, threads_or_hardware(o.threads), o.thresholds));
  MANAKA_RETURN_NOT_OK(staged.commit());
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return s;
}

namespace {
double per(double n, double secs) { return secs > 0 ? n / secs : 0.0; }
}  // namespace

std::string format_summary(const BuildSummary& s) {
  const auto& c = s.info.counts;
  std::string out = "output                " + s.output + "\n";
  out += "games read            " + std::to_string(s.info.games_read) + "\n";
  out += "games skipped         " + std::to_string(s.info.games_skipped) + "\n";
  out += "positions considered  " + std::to_string(c.positions_considered) + "\n";
  out += "duplicates skipped    " + std::to_string(c.duplicates) + "\n";
  out += "rows                  " + std::to_string(s.rows) + " of target " + std::to_string(s.info.target) + "\n";
  for (int p = 0; p < PHASE_NB; ++p) {
    std::string name = PHASE_NAME[p];
    name.resize(22, ' ');
    out += "  " + name.substr(0, 20) + std::to_string(s.rows_per_phase[p]) + " of quota " +
           std::to_string(s.info.quotas[p]) + " (" + std::to_string(c.offered[p]) + " games offered)\n";
  }
  if (!s.first_errors.empty()) {
    out += "skipped games (first " + std::to_string(s.first_errors.size()) + "):\n";
    for (const auto& e : s.first_errors) out += "  " + e + "\n";
  }
  char line[160];
  std::snprintf(line, sizeof line, "%.2f s, %.0f positions/s, %.0f games/s\n", s.seconds,
                per(double(c.positions_considered), s.seconds), per(double(s.info.games_read), s.seconds));
  return out + line;
}

std::string summary_json(const BuildSummary& s) {
  const auto& c = s.info.counts;
  nlohmann::json phases = nlohmann::json::object();
  for (int p = 0; p < PHASE_NB; ++p) {
    phases[PHASE_NAME[p]] = {{"rows", s.rows_per_phase[p]},
                             {"quota", s.info.quotas[p]},
                             {"candidates", c.candidates[p]},
                             {"games_offered", c.offered[p]}};
  }
  nlohmann::json sources = nlohmann::json::array();
  for (const auto& src : s.info.sources)
    sources.push_back({{"path", src.path}, {"games_read", src.games_read}, {"games_skipped", src.games_skipped}});
  nlohmann::json j = {
      {"output", s.output},
      {"seed", s.info.seed},
      {"target", s.info.target},
      {"sources", sources},
      {"games_read", s.info.games_read},
      {"games_skipped", s.info.games_skipped},
      {"positions_considered", c.positions_considered},
      {"duplicates", c.duplicates},
      {"rows", s.rows},
      {"phases", phases},
      {"first_errors", s.first_errors},
      {"seconds", s.seconds},
      {"positions_per_second", per(double(c.positions_considered), s.seconds)},
  };
  return json_text(j);
}

}  // namespace manaka::vpd
