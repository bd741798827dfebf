// `manaka vpd build|sample|to-parquet|report`: VPD1 position datasets (docs/vpd1.md).
//
// build samples positions from PGN files (plain or zstd-compressed) into
// one VPD1 SQLite file and prints a summary on stdout (--json: one JSON
// object); refused games are skipped and counted, not fatal. sample prints
// FENs drawn through the indexed random_key, one a line. to-parquet writes
// the parquet derivative: a Hive-partitioned directory and its manifest.
// report prints the variance report (--json: its JSON); --write stores it
// in the file's metadata (variance_report, high_variance).
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "cli/checks.h"
#include "cli/commands.h"
#include "core/splitmix64.h"
#include "vpd/build.h"
#include "vpd/database.h"
#include "vpd/parquet_export.h"
#include "vpd/variance.h"

namespace manaka::cli {
namespace {

void add_build(CLI::App& parent) {
  auto* cmd = parent.add_subcommand("build", "PGN files -> a VPD1 position dataset (SQLite)");
  struct Args {
    vpd::BuildOptions o;
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
  cmd->add_flag("--json", a->json, "print the summary as one JSON object");
  cmd->add_flag("-q,--quiet", a->quiet, "no progress line");
  cmd->callback([a] {
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
  cmd->add_option("-n,--count", a->count, "FENs to print")
      ->capture_default_str()
      ->transform(checks::unsigned_integer(1));
  cmd->callback([a, seed] {
    auto file = vpd::VpdFile::open(a->file);
    exit_on_error(file.status());
    SplitMix64 rng(seed->count() ? a->seed : (uint64_t(std::random_device{}()) << 32 | std::random_device{}()));
    std::string out;
    for (uint64_t i = 0; i < a->count; ++i) {
      auto fen = file->fen_at_key(rng.next() >> 1);
      exit_on_error(fen.status());
      out += *fen;
      out += '\n';
      if (out.size() > (1 << 16)) std::fputs(out.c_str(), stdout), out.clear();
    }
    std::fputs(out.c_str(), stdout);
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
    bool json = false, write = false;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("file", a->file, "a .vpd file")->required();
  cmd->add_flag("--json", a->json, "print the report as one JSON object");
  cmd->add_flag("--write", a->write,
                "store the report in the file's metadata (variance_report, high_variance); modifies FILE");
  cmd->callback([a] {
    auto report = vpd::variance_report(a->file);
    exit_on_error(report.status());
    if (a->write) exit_on_error(vpd::write_variance_metadata(a->file, *report));
    if (a->json) std::printf("%s\n", vpd::report_json(*report).c_str());
    else std::fputs(vpd::format_report(*report).c_str(), stdout);
  });
}

}  // namespace

void add_vpd_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("vpd", "VPD1 chess position datasets: build from PGN, sample, convert to parquet, variance report");
  cmd->require_subcommand(1);
  add_build(*cmd);
  add_sample(*cmd);
  add_to_parquet(*cmd);
  add_report(*cmd);
}

}  // namespace manaka::cli
