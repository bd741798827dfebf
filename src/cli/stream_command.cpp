// `manaka stream validate | inspect | dump`: MPK1 raw streams from the
// command line.
//
//   manaka stream validate FILE...        "FILE: ok, N records" or "FILE: <error>" per
//                                         file; exit status 1 if any is invalid
//   manaka stream inspect FILE [--json]   header, counts and distributions
//   manaka stream dump FILE [--limit N]   one JSON object per record

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/checks.h"
#include "cli/commands.h"
#include "core/text.h"
#include "core/progress.h"
#include "shogi/move.h"
#include "shogi/pack.h"
#include "shogi/position.h"
#include "stream/inspect.h"
#include "stream/reader.h"

namespace manaka::cli {

namespace {

using stream::PolicySource;
using stream::Pov;
using stream::Reader;
using stream::StreamStats;

std::string float_text(double v, int precision = 4) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*g", precision, v);
  return buf;
}

void append_float(std::string& out, float v) { out += number_text(v); }

std::string percent(uint64_t n, uint64_t of) {
  return float_text(of ? 100.0 * static_cast<double>(n) / static_cast<double>(of) : 0.0, 3) + "%";
}

std::unique_ptr<Progress> make_progress(const Reader& reader, bool quiet) {
  auto p = std::make_unique<Progress>(reader.path(), reader.size());
  p->set_enabled(!quiet);
  return p;
}

// ---- validate ----

int run_validate(const std::vector<std::string>& files, bool quiet) {
  int bad = 0;
  for (const std::string& file : files) {
    auto reader = Reader::open(file);
    Result<uint64_t> count = reader.ok() ? Result<uint64_t>(0) : Result<uint64_t>(reader.status());
    if (reader.ok()) {
      auto progress = make_progress(*reader, quiet);
      count = stream::validate_all(*reader, progress.get());
      progress->finish();
    }
    // Reader messages start with the path already.
    if (count.ok()) {
      std::printf("%s: ok, %llu records\n", file.c_str(), static_cast<unsigned long long>(*count));
    } else {
      std::printf("%s\n", count.status().message().c_str());
      ++bad;
    }
    std::fflush(stdout);
  }
  return bad ? 1 : 0;
}

// ---- inspect ----

nlohmann::json header_json(const stream::Header& h) {
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

nlohmann::json stats_json(const std::string& file, const StreamStats& s) {
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

void print_stats(const std::string& file, const StreamStats& s) {
  const auto& h = s.header;
  std::printf("%s\n", file.c_str());
  std::printf("  header       MPK1 version %u, packed_len %u, pov %d (%s), policy_source %d (%s)\n", h.version,
              h.packed_len, static_cast<int>(h.pov), h.pov == Pov::Black ? "Black" : "side to move",
              static_cast<int>(h.policy_source), h.policy_source == PolicySource::Cp ? "cp" : "visits");
  std::printf("               mate_scale %u, mate_slack %u, fv_scale %u, eval_coef %s, flags %u\n", h.mate_scale,
              h.mate_slack, h.fv_scale, float_text(h.eval_coef, 9).c_str(), h.flags);
  std::printf("  records      %llu (%s)\n", static_cast<unsigned long long>(s.records),
              format_bytes(static_cast<double>(s.bytes)).c_str());
  if (s.records == 0) return;
  std::printf("  candidates   per record: mean %s, p50 %u, p99 %u, max %u (min %u); %llu in all\n",
              float_text(s.cand_mean).c_str(), s.cand_p50, s.cand_p99, s.cand_max, s.cand_min,
              static_cast<unsigned long long>(s.candidates));
  if (h.policy_source == PolicySource::Visits) {
    std::printf("  visits       per record: min %llu, mean %s, max %llu\n",
                static_cast<unsigned long long>(s.visit_total_min), float_text(s.visit_total_mean, 6).c_str(),
                static_cast<unsigned long long>(s.visit_total_max));
    std::printf("               candidates visited exactly 1 / 2 / 3 times: %s / %s / %s\n",
                percent(s.visited_1, s.candidates).c_str(), percent(s.visited_2, s.candidates).c_str(),
                percent(s.visited_3, s.candidates).c_str());
  }
  std::printf("  value_z      -1: %llu (%s), 0: %llu (%s), 1: %llu (%s)\n", static_cast<unsigned long long>(s.z_loss),
              percent(s.z_loss, s.records).c_str(), static_cast<unsigned long long>(s.z_draw),
              percent(s.z_draw, s.records).c_str(), static_cast<unsigned long long>(s.z_win),
              percent(s.z_win, s.records).c_str());
  std::printf("  value_q      min %s, mean %s, max %s\n", float_text(s.value_q_min).c_str(),
              float_text(s.value_q_mean).c_str(), float_text(s.value_q_max).c_str());
  std::printf("  ply          %u..%u\n", s.ply_min, s.ply_max);
  if (s.duplicates_counted) {
    std::printf("  boards       %s of records share a board with another (%llu records; %llu distinct boards;"
                " by 64-bit hash of packed)\n",
                percent(s.records_sharing_board, s.records).c_str(),
                static_cast<unsigned long long>(s.records_sharing_board),
                static_cast<unsigned long long>(s.distinct_boards));
  }
}

// ---- dump ----

void append_json_string(std::string& out, const std::string& s) { out += json_text(nlohmann::json(s)); }

void append_record_json(std::string& out, uint64_t index, const stream::Header& h, const stream::RecordView& rec) {
  out += "{\"record\":";
  out += std::to_string(index);
  out += ",\"ply\":";
  out += std::to_string(rec.ply);
  out += ",\"sfen\":";
  if (h.packed_len == shogi::PACKED_LEN) {
    auto pos = shogi::unpack(rec.packed);
    if (pos.ok()) {
      append_json_string(out, pos->sfen());
    } else {
      out += "null,\"packed_error\":";
      append_json_string(out, pos.status().message());
    }
  } else {
    out += "null";
  }
  out += ",\"value_z\":";
  append_float(out, rec.value_z);
  out += ",\"value_q\":";
  append_float(out, rec.value_q);
  out += ",\"candidates\":[";
  for (size_t i = 0; i < rec.candidates.size(); ++i) {
    const stream::Candidate& c = rec.candidates[i];
    if (i) out += ',';
    out += "{\"move\":";
    append_json_string(out, shogi::Move{c.mv}.to_usi());
    if (c.has_visits()) out += ",\"visits\":" + std::to_string(c.visits);
    if (c.has_cp()) out += ",\"cp\":" + std::to_string(c.cp);
    out += '}';
  }
  out += "]}\n";
}

Status run_dump(const std::string& file, uint64_t limit) {
  MANAKA_ASSIGN_OR_RETURN(Reader reader, Reader::open(file));
  std::string out;
  stream::RecordView rec;
  while (limit == 0 || reader.record_index() < limit) {
    uint64_t index = reader.record_index();
    MANAKA_ASSIGN_OR_RETURN(bool more, reader.next(rec));
    if (!more) break;
    append_record_json(out, index, reader.header(), rec);
    if (out.size() >= (size_t{1} << 16)) {
      std::fwrite(out.data(), 1, out.size(), stdout);
      out.clear();
    }
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fflush(stdout);
  return Status();
}

}  // namespace

void add_stream_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("stream", "MPK1 raw streams: validate, inspect, dump");
  cmd->require_subcommand(1);

  {
    auto* sub = cmd->add_subcommand("validate", "check every record of each file against the MPK1 rules");
    auto files = std::make_shared<std::vector<std::string>>();
    auto quiet = std::make_shared<bool>(false);
    sub->add_option("FILE", *files, "MPK1 stream files")->required();
    sub->add_flag("-q,--quiet", *quiet, "no progress on stderr");
    sub->callback([files, quiet] {
      if (run_validate(*files, *quiet) != 0) throw CLI::RuntimeError(1);
    });
  }
  {
    auto* sub = cmd->add_subcommand("inspect", "header, record count and distributions of a stream");
    auto file = std::make_shared<std::string>();
    auto json = std::make_shared<bool>(false);
    auto no_dups = std::make_shared<bool>(false);
    auto quiet = std::make_shared<bool>(false);
    sub->add_option("FILE", *file, "MPK1 stream file")->required();
    sub->add_flag("--json", *json, "print one JSON object");
    sub->add_flag("--no-duplicates", *no_dups,
                  "skip the repeated-board count (it keeps 8-16 bytes per distinct board)");
    sub->add_flag("-q,--quiet", *quiet, "no progress on stderr");
    sub->callback([file, json, no_dups, quiet] {
      auto reader = Reader::open(*file);
      exit_on_error(reader.status());
      auto progress = make_progress(*reader, *quiet);
      auto stats = stream::inspect(*reader, stream::InspectOptions{.count_duplicates = !*no_dups}, progress.get());
      progress->finish();
      exit_on_error(stats.status());
      if (*json) {
        std::printf("%s\n", json_text(stats_json(*file, *stats), 2).c_str());
      } else {
        print_stats(*file, *stats);
      }
    });
  }
  {
    auto* sub = cmd->add_subcommand("dump", "records as JSON lines: sfen, ply, values, USI candidates");
    auto file = std::make_shared<std::string>();
    auto limit = std::make_shared<uint64_t>(0);
    sub->add_option("FILE", *file, "MPK1 stream file")->required();
    sub->add_option("-n,--limit", *limit, "stop after N records (0: all)")->transform(checks::unsigned_integer(0));
    sub->callback([file, limit] { exit_on_error(run_dump(*file, *limit)); });
  }
}

}  // namespace manaka::cli
