// `manaka stream validate | inspect | dump | import | export`: MPK1 raw
// streams from the command line.
//
//   manaka stream validate FILE...        "FILE: ok, N records" or "FILE: <error>" per
//                                         file; exit status 1 if any is invalid
//   manaka stream inspect FILE [--json]   header, counts and distributions
//   manaka stream dump FILE [--limit N]   one JSON object per record
//   manaka stream import --from psv|hcpe|hcpe3 FILE... -o OUT.mpk --eval-coef C --mate-scale M
//                                         other tools' shogi data -> MPK1 (docs/import.md)
//   manaka stream export --to psv|hcpe INPUT... -o OUT   MPK1 streams or shard sets
//                                         MPK1 -> other tools' shogi data

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
#include "shard_export/shard_export.h"
#include "stream/export.h"
#include "stream/inspect.h"
#include "stream/import.h"
#include "stream/reader.h"
#include "stream/split.h"
#include "teacher/score.h"

namespace manaka::cli {

namespace {

using stream::PolicySource;
using stream::Pov;
using stream::Reader;
using stream::StreamStats;

void append_float(std::string& out, float v) { out += number_text(v); }

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

// ---- dump ----

void append_json_string(std::string& out, const std::string& s) { out += json_text(nlohmann::json(s)); }

// The packed bytes hold no move number: the sfen's is the record's ply + 1
// (ply is 0-based, the starting position's SFEN has move number 1).
void append_record_json(std::string& out, uint64_t index, const stream::Header& h, const stream::RecordView& rec) {
  out += "{\"record\":";
  out += std::to_string(index);
  out += ",\"ply\":";
  out += std::to_string(rec.ply);
  out += ",\"sfen\":";
  if (h.packed_len == shogi::PACKED_LEN) {
    auto pos = shogi::unpack(rec.packed);
    if (pos.ok()) {
      const std::string sfen = pos->sfen();
      append_json_string(out, sfen.substr(0, sfen.rfind(' ') + 1) + std::to_string(rec.ply + 1));
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
      write_stdout(out);
      out.clear();
    }
  }
  write_stdout(out);
  std::fflush(stdout);
  return Status();
}

constexpr int kMaxThreadsAsked = 256;

void add_import(CLI::App& parent) {
  auto* sub = parent.add_subcommand("import", "YaneuraOu psv, dlshogi hcpe / hcpe3 files -> one MPK1 stream");
  struct Args {
    stream::ImportOptions o;
    std::string from;
    bool json = false, quiet = false;
  };
  auto a = std::make_shared<Args>();
  sub->add_option("--from", a->from, "the files' format")->required()->check(CLI::IsMember({"psv", "hcpe", "hcpe3"}));
  sub->add_option("FILE", a->o.inputs, "input files")->required();
  sub->add_option("-o,--output", a->o.output, "MPK1 stream to write")->required();
  sub->add_option("--eval-coef", a->o.eval_coef, "value_q = tanh(score / (2 * C)); stored as a float")
      ->required()
      ->transform(checks::number(stream::kMinEvalCoef, stream::kMaxEvalCoef, false, "a number of centipawns"));
  sub->add_option("--mate-scale", a->o.mate_scale, "the score mates fold to (YaneuraOu 32000, dlshogi 30000)")
      ->required()
      ->transform(checks::integer(1, 32767));
  sub->add_option("--mate-slack", a->o.mate_slack, "mates reach mate_scale - K (0: the default 320)")
      ->capture_default_str()
      ->transform(checks::integer(0, 65535));
  sub->add_flag("--strict", a->o.strict, "stop at the first refused position, naming file, record and offset");
  sub->add_flag("--overwrite", a->o.overwrite, "replace an existing output, once the new one is complete (an input never)");
  sub->add_option("--threads", a->o.threads, "converting threads (0: one per hardware thread; 16 at most are used)")
      ->capture_default_str()
      ->transform(checks::integer(0, kMaxThreadsAsked));
  sub->add_flag("--json", a->json, "print the summary as one JSON object");
  sub->add_flag("-q,--quiet", a->quiet, "no progress line");
  sub->callback([a] {
    a->o.from = *stream::parse_source_format(a->from);
    auto conv = teacher::Conventions::make(a->o.eval_coef, a->o.mate_scale, a->o.mate_slack);
    exit_on_error(conv.status());
    a->o.value_q = [c = *conv](int64_t cp) { return c.value_q(cp); };
    a->o.progress = !a->quiet && !a->json;
    auto summary = stream::import_stream(a->o);
    exit_on_error(summary.status());
    if (a->json) {
      std::printf("%s\n", stream::import_summary_json(*summary).c_str());
    } else {
      std::fputs(stream::format_import_summary(*summary).c_str(), stdout);
    }
  });
}

void add_export(CLI::App& parent) {
  auto* sub = parent.add_subcommand("export", "MPK1 streams or shard sets -> YaneuraOu psv or dlshogi hcpe (the best move only)");
  struct Args {
    stream::ExportOptions o;
    std::string to;
    bool json = false, quiet = false;
  };
  auto a = std::make_shared<Args>();
  sub->add_option("--to", a->to, "the format to write")->required()->check(CLI::IsMember({"psv", "hcpe"}));
  sub->add_option("INPUT", a->o.inputs,
                  "MPK1 streams and shard sets (shard files, or directories of them), written one after another")
      ->required();
  sub->add_option("-o,--output", a->o.output, "file to write")->required();
  sub->add_option("--eval-coef", a->o.eval_coef,
                  "turns value_q back into a score where an input has no eval_coef and a record no cp")
      ->transform(checks::number(stream::kMinEvalCoef, stream::kMaxEvalCoef, false, "a number of centipawns"));
  sub->add_option("--result-threshold", a->o.result_threshold,
                  "value_z above T is a win, below -T a loss, else a draw (a shard row's value_z is a mean)")
      ->capture_default_str()
      ->transform(checks::number(0.0, 1.0, false, "a number", true));
  sub->add_flag("--strict", a->o.strict, "stop at the first record the format cannot hold");
  sub->add_flag("--overwrite", a->o.overwrite, "replace an existing output, once the new one is complete (an input never)");
  sub->add_flag("--json", a->json, "print the summary as one JSON object");
  sub->add_flag("-q,--quiet", a->quiet, "no progress line");
  sub->callback([a] {
    a->o.to = *stream::parse_source_format(a->to);
    a->o.progress = !a->quiet && !a->json;
    auto summary = shard_export::export_records(a->o);
    exit_on_error(summary.status());
    if (a->json) {
      std::printf("%s\n", stream::export_summary_json(*summary).c_str());
    } else {
      std::fputs(stream::format_export_summary(*summary).c_str(), stdout);
    }
  });
}

void add_split(CLI::App& parent) {
  auto* sub = parent.add_subcommand(
      "split", "MPK1 streams -> a training and a validation stream, whole games to one side (then pack each)");
  struct Args {
    stream::SplitOptions o;
    bool json = false, quiet = false;
  };
  auto a = std::make_shared<Args>();
  sub->add_option("FILE", a->o.inputs, "MPK1 streams (files: each is read twice)")->required();
  sub->add_option("--train", a->o.train, "MPK1 stream to write the training games to")->required();
  sub->add_option("--validation", a->o.validation, "MPK1 stream to write the validation games to")->required();
  sub->add_option("--share", a->o.share, "share of the games that go to validation (at least one game each side)")
      ->capture_default_str()
      ->transform(checks::number(0.0, 1.0, true, "a share", true));
  sub->add_option("--seed", a->o.seed, "seed of the choice of validation games")
      ->capture_default_str()
      ->transform(checks::seed());
  sub->add_flag("--overwrite", a->o.overwrite, "replace existing outputs, once the new ones are complete (an input never)");
  sub->add_flag("--json", a->json, "print the summary as one JSON object");
  sub->add_flag("-q,--quiet", a->quiet, "no progress line");
  sub->footer(
      "A game is a run of records whose ply rises: a record whose ply is not above the one before starts a new game, "
      "and so does each file. Exactly round(share x games) games go to validation, chosen by the seed.\n"
      "Example: manaka stream split games.mpk --train train.mpk --validation val.mpk --share 0.05\n"
      "         manaka pack train.mpk -o shards/train/sp && manaka pack val.mpk -o shards/val/sp");
  sub->callback([a] {
    a->o.progress = !a->quiet && !a->json;
    auto summary = stream::split_stream(a->o);
    exit_on_error(summary.status());
    if (a->json) {
      std::printf("%s\n", stream::split_summary_json(*summary).c_str());
    } else {
      std::fputs(stream::format_split_summary(*summary).c_str(), stdout);
    }
  });
}

}  // namespace

void add_stream_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("stream", "MPK1 raw streams: validate, inspect, dump, import, export, split");
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
        std::printf("%s\n", stream::stats_json(*file, *stats).c_str());
      } else {
        std::fputs(stream::format_stats(*file, *stats).c_str(), stdout);
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
  add_import(*cmd);
  add_export(*cmd);
  add_split(*cmd);
}

}  // namespace manaka::cli
