// `manaka shards inspect FILE...`: rows, footer, weight and candidate counts,
// and the shuffle's block statistic (shard/inspect.h).
// `manaka shards overlap TRAIN VALID`: validation boards that also occur in
// training (shard/overlap.h); exit status 1 when their share beyond the
// opening is above --max-share.
// Every command takes files, directories (searched recursively) and globs
// (shard/shard_sources.h).
// `manaka shards validate FILE|DIR...`: every row read and checked
// (shard/validate.h); exit status 1 when a row breaks a rule.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cli/checks.h"
#include "cli/commands.h"
#include "shard/inspect.h"
#include "core/progress.h"
#include "shard/overlap.h"
#include "shard/shard_sources.h"
#include "shard/validate.h"

namespace manaka::cli {

namespace {

void add_overlap(CLI::App& parent) {
  struct Args {
    std::string train, valid;
    double max_share = 0.0;
    size_t examples = shard::kDefaultOverlapExamples;
    int opening_plies = shard::kDefaultOpeningPlies;
    bool json = false;
  };
  auto a = std::make_shared<Args>();
  auto* cmd = parent.add_subcommand(
      "overlap", "validation boards that also occur in training (exit status 1 above --max-share)");
  cmd->add_option("train", a->train, "training shards: a shard, a directory (searched recursively) or a glob")
      ->required();
  cmd->add_option("valid", a->valid, "validation shards: a shard, a directory (searched recursively) or a glob")
      ->required();
  cmd->add_option("--max-share", a->max_share,
                  "the share of validation rows allowed in training, opening rows aside (0 to 1)")
      ->capture_default_str()
      ->transform(checks::number(0.0, 1.0, false, "a share from 0 to 1"));
  cmd->add_option("--examples", a->examples, "shared boards to show")
      ->capture_default_str()
      ->transform(checks::integer(0, 1000));
  cmd->add_option("--opening-plies", a->opening_plies,
                  "shared rows at a ply below this are the opening every game passes through: reported, not "
                  "judged (0 judges every row)")
      ->capture_default_str()
      ->transform(checks::integer(0, 65535));
  cmd->add_flag("--json", a->json, "print the counts as one JSON object");
  cmd->callback([a] {
    auto report = shard::shard_overlap({a->train}, {a->valid}, a->examples, a->opening_plies);
    exit_on_error(report.status());
    if (a->json) {
      std::printf("%s\n", shard::overlap_json(*report).c_str());
    } else {
      std::fputs(shard::format_overlap(*report).c_str(), stdout);
    }
    if (report->beyond_opening_share() > a->max_share) {
      std::fflush(stdout);
      std::fprintf(stderr,
                   "manaka: shards overlap: %.4f%% of validation rows occur in training beyond ply %d "
                   "(--max-share %.4f%%)\n",
                   100.0 * report->beyond_opening_share(), a->opening_plies, 100.0 * a->max_share);
      throw CLI::RuntimeError(1);
    }
  });
}

void add_validate(CLI::App& parent) {
  struct Args {
    std::vector<std::string> files;
    bool json = false, quiet = false;
  };
  auto a = std::make_shared<Args>();
  auto* cmd = parent.add_subcommand(
      "validate", "every row read back and checked against the rules pack writes by (exit status 1 if one breaks)");
  cmd->add_option("files", a->files, "shards, directories (searched recursively) or globs: whole sets")->required();
  cmd->add_flag("--json", a->json, "print the counts as one JSON object");
  cmd->add_flag("-q,--quiet", a->quiet, "no progress line");
  cmd->callback([a] {
    auto sources = shard::find_shards(a->files);
    exit_on_error(sources.status());
    const std::vector<std::string>* files = &sources->files;
    Progress progress("shards validate", 0);
    progress.set_units("rows", "");
    progress.set_enabled(!a->quiet && !a->json);
    auto report = shard::validate_shards(*files, &progress);
    exit_on_error(report.status());
    std::fputs(a->json ? (shard::validate_json(*report) + "\n").c_str() : shard::format_validate(*report).c_str(),
               stdout);
    if (!report->ok()) {
      std::fflush(stdout);
      std::fprintf(stderr, "manaka: shards validate: %llu of %lld rows break a rule\n",
                   static_cast<unsigned long long>(report->rows_broken), static_cast<long long>(report->rows));
      throw CLI::RuntimeError(1);
    }
  });
}

}  // namespace

void add_shards_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("shards", "parquet shards written by `manaka pack`");
  cmd->require_subcommand(1);
  auto* inspect = cmd->add_subcommand(
      "inspect", "rows, footer metadata, weight and candidate counts, shuffle statistic");
  auto files = std::make_shared<std::vector<std::string>>();
  inspect->add_option("files", *files,
                      "shards, directories (searched recursively) or globs, read in this order for the block "
                      "statistic")
      ->required();
  inspect->callback([files] {
    auto sources = shard::find_shards(*files);
    exit_on_error(sources.status());
    auto report = shard::inspect_shards(sources->files);
    exit_on_error(report.status());
    std::fputs(shard::format_report(*report).c_str(), stdout);
  });
  add_overlap(*cmd);
  add_validate(*cmd);
}

}  // namespace manaka::cli
