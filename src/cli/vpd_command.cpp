// `manaka vpd build|sample|to-parquet|report|label`: VPD1 position datasets (docs/vpd1.md).
//
// build samples positions from PGN files (plain or zstd-compressed) into
// one VPD1 SQLite file, reading on --threads threads (the same file
// whatever their number), and prints a summary on stdout (--json: one JSON
// object); refused games are skipped and counted, not fatal; no position at
// all is an error and no file. sample prints
// FENs drawn through the indexed random_key, one a line, each with the
// fullmove number of its row's ply (the stored FEN has 1). to-parquet writes
// the parquet derivative: a Hive-partitioned directory and its manifest.
// report prints the variance report (--json: its JSON); --write stores it
// in the file's metadata (variance_report, high_variance); --threshold and
// --thresholds (build and report) change its thresholds, which it names.
// label adds engine evaluations as a labels table (vpd/label.h).
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "cli/checks.h"
#include "cli/commands.h"
#include "core/splitmix64.h"
#include "core/text.h"
#include "vpd/build.h"
#include "vpd/database.h"
#include "vpd/ingest.h"
#include "vpd/label.h"
#include "vpd/parquet_export.h"
#include "vpd/variance.h"
#include "vpd/variance_thresholds.h"

namespace manaka::cli {
namespace {

// --threshold NAME=VALUE (repeated) and --thresholds FILE.json, applied
// file first, then the command line; a refusal exits with its message.
struct ThresholdArgs {
  std::vector<std::string> assignments;
  std::string file;

  void add_to(CLI::App* cmd) {
    cmd->add_option("--thresholds", file, "a JSON file of variance thresholds, one object {\"min_phase_share\": 0.2, ...} (16 MiB at most)");
    cmd->add_option("--threshold", assignments, "one variance threshold, NAME=VALUE (repeatable; after --thresholds)");
  }
  vpd::VarianceThresholds thresholds() const {
    vpd::VarianceThresholds th;
    if (!file.empty()) exit_on_error(vpd::read_thresholds_file(th, file));
    for (const std::string& a : assignments) exit_on_error(vpd::set_threshold(th, a));
    return th;
  }
};

void add_build(CLI::App& parent) {
  auto* cmd = parent.add_subcommand("build", "PGN files -> a VPD1 position dataset (SQLite)");
  struct Args {
    vpd::BuildOptions o;
    ThresholdArgs thresholds;
    bool json = false, quiet = false;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("pgn", a->o.inputs, "PGN files, plain or zstd-compressed; under train/ or test/ sets the split")
      ->required();
  cmd->add_option("-o,--output", a->o.output, "the .vpd file to write")->required();
  cmd->add_flag("--overwrite", a->o.overwrite, "replace an existing output, once the new one is complete (an input never)");
  cmd->add_option("--target", a->o.target, "target size; phase quotas 15/60/25 %")
      ->capture_default_str()
      ->transform(checks::unsigned_integer(1, vpd::MAX_TARGET));
  cmd->add_option("--seed", a->o.seed, "sampling seed")->capture_default_str()->transform(checks::seed());
  a->o.threads = 0;
  cmd->add_option("--threads", a->o.threads,
                  "threads reading the inputs (0: one per hardware thread); the file is the same whatever their number")
      ->capture_default_str()
      ->transform(checks::unsigned_integer(0, 1024));
  a->thresholds.add_to(cmd);
  cmd->add_flag("--json", a->json, "print the summary as one JSON object");
  cmd->add_flag("-q,--quiet", a->quiet, "no progress line");
  cmd->callback([a] {
    a->o.thresholds = a->thresholds.thresholds();
    a->o.progress = !a->quiet && !a->json;
    auto summary = vpd::build(a->o);
    exit_on_error(summary.status());
    if (a->json) std::printf("%s\n", vpd::summary_json(*summary).c_str());
    else std::fputs(vpd::format_summary(*summary).c_str(), stdout);
  });
}

void add_sample(CLI::App& parent) {
  auto* cmd = parent.add_subcommand("sample", "print random FENs of a VPD1 file (indexed random_key lookup)");
  struct Args {
    std::string file;
    uint64_t count = 1;
    uint64_t seed = 0;
  };
  auto a = std::make_shared<Args>();
  auto* seed = cmd->add_option("--seed", a->seed, "draw keys from this seed (default: a random one)")
                   ->transform(checks::seed());
  cmd->add_option("file", a->file, "a .vpd file")->required();
  cmd->add_option("-n,--count", a->count, "FENs to print, drawn with replacement; at most the file's row count")
      ->capture_default_str()
      ->transform(checks::unsigned_integer(1));
  cmd->footer("Each FEN's fullmove number is its row's ply / 2 + 1; the stored fen column has 1.\n"
              "Without --seed a random seed is drawn and printed on stderr, so the draw can be repeated.");
  cmd->callback([a, seed] {
    auto file = vpd::VpdFile::open(a->file);
    exit_on_error(file.status());
    // More draws than rows is a count typed wrong (it printed until killed).
    auto rows = file->rows();
    exit_on_error(rows.status());
    if (a->count > *rows)
      exit_on_error(Status::usage("vpd sample: -n " + std::to_string(a->count) + " is more than the " +
                                  std::to_string(*rows) + " rows of " + a->file));
    if (!seed->count()) {
      a->seed = uint64_t(std::random_device{}()) << 32 | std::random_device{}();
      std::fprintf(stderr, "vpd sample: --seed %llu\n", ull(a->seed));
    }
    SplitMix64 rng(a->seed);
    std::string out;
    for (uint64_t i = 0; i < a->count; ++i) {
      auto fen = file->fen_at_key(rng.next() >> 1);
      exit_on_error(fen.status());
      out += *fen;
      out += '\n';
      if (out.size() > (1 << 16)) write_stdout(out), out.clear();
    }
    write_stdout(out);
  });
}

void add_to_parquet(CLI::App& parent) {
  auto* cmd = parent.add_subcommand(
      "to-parquet", "a VPD1 file -> Hive-partitioned parquet (source_split, phase) and _manifest.json");
  struct Args {
    vpd::ParquetExportOptions o;
    bool quiet = false;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("file", a->o.input, "a .vpd file")->required();
  cmd->add_option("-o,--output", a->o.output_dir, "the directory to create")->required();
  cmd->add_option("--rows-per-file", a->o.rows_per_file, "rows per parquet file at most")
      ->capture_default_str()
      ->transform(checks::unsigned_integer(1, uint64_t{1} << 40));
  cmd->add_flag("--overwrite", a->o.overwrite, "replace an existing output directory (once the new one is complete)");
  cmd->add_flag("-q,--quiet", a->quiet, "no progress line");
  cmd->callback([a] {
    a->o.progress = !a->quiet;
    auto summary = vpd::export_parquet(a->o);
    exit_on_error(summary.status());
    std::fputs(vpd::format_export_summary(*summary).c_str(), stdout);
  });
}

void add_report(CLI::App& parent) {
  auto* cmd = parent.add_subcommand(
      "report", "the variance report of a VPD1 file: declared thresholds, high_variance when all pass");
  struct Args {
    std::string file;
    ThresholdArgs thresholds;
    bool json = false, write = false;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("file", a->file, "a .vpd file")->required();
  cmd->add_flag("--json", a->json, "print the report as one JSON object");
  cmd->add_flag("--write", a->write,
                "store the report in the file's metadata (variance_report, high_variance); modifies FILE");
  a->thresholds.add_to(cmd);
  cmd->callback([a] {
    auto report = vpd::variance_report(a->file, a->thresholds.thresholds());
    exit_on_error(report.status());
    if (a->write) exit_on_error(vpd::write_variance_metadata(a->file, *report));
    if (a->json) std::printf("%s\n", vpd::report_json(*report).c_str());
    else std::fputs(vpd::format_report(*report).c_str(), stdout);
  });
}

void add_label(CLI::App& parent) {
  auto* cmd = parent.add_subcommand(
      "label", "evaluate the positions with a UCI engine into a labels table of the file (resumable)");
  struct Args {
    vpd::LabelOptions o;
    double movetime = 0.0;
    std::vector<std::string> options;
    bool quiet = false;
  };
  auto a = std::make_shared<Args>();
  a->o.engine_path = "/usr/games/stockfish";
  cmd->add_option("file", a->o.file, "a .vpd file; modified: labels added");
  cmd->get_option("file")->required();
  cmd->add_option("--engine", a->o.engine_path, "the UCI engine (a path, or a name looked up in PATH)")
      ->capture_default_str();
  auto* nodes = cmd->add_option("--nodes", a->o.limit.nodes, "nodes a position")->transform(checks::unsigned_integer(1));
  auto* depth = cmd->add_option("--depth", a->o.limit.depth, "plies a position")->transform(checks::integer(1, 100));
  auto* movetime = cmd->add_option("--movetime", a->movetime, "seconds a position")
                       ->transform(checks::number(0.0, 3600.0, true, "a number of seconds"));
  movetime->excludes(nodes)->excludes(depth);
  nodes->excludes(depth);
  cmd->add_option("--multipv", a->o.multipv, "lines a position")
      ->capture_default_str()
      ->transform(checks::integer(1, 64));
  cmd->add_option("--workers", a->o.workers, "engines at once (0: one per core)")
      ->capture_default_str()
      ->transform(checks::integer(0, 256));
  cmd->add_option("--max", a->o.max_positions, "label at most this many positions this run (lowest ids first)")
      ->transform(checks::unsigned_integer(1));
  cmd->add_option("--sample", a->o.sample,
                  "only the N positions with the smallest random_key (a uniform sample, the same every run)")
      ->transform(checks::unsigned_integer(1));
  cmd->add_option("--option", a->options, "an engine option NAME=VALUE (repeatable), e.g. Hash=64");
  cmd->add_flag("-q,--quiet", a->quiet, "no progress line and no summary");
  cmd->callback([a] {
    if (a->movetime > 0) a->o.limit.movetime_ms = std::max(1, int(std::lround(a->movetime * 1000.0)));
    for (const std::string& kv : a->options) {
      const size_t eq = kv.find('=');
      if (eq == std::string::npos || eq == 0) exit_on_error(Status::usage("--option '" + kv + "': expected NAME=VALUE"));
      a->o.engine_options.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
    }
    a->o.progress = !a->quiet;
    auto summary = vpd::label(a->o);
    exit_on_error(summary.status());
    if (!a->quiet) std::fputs(vpd::format_label_summary(*summary).c_str(), stdout);
  });
}

}  // namespace

void add_vpd_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("vpd", "VPD1 chess position datasets: build from PGN, sample, convert to parquet, variance report, engine labels");
  cmd->require_subcommand(1);
  add_build(*cmd);
  add_sample(*cmd);
  add_to_parquet(*cmd);
  add_report(*cmd);
  add_label(*cmd);
}

}  // namespace manaka::cli
