// `manaka shards inspect FILE...`: rows, footer, weight and candidate counts,
// and the shuffle's block statistic (shard/inspect.h).
// `manaka shards overlap TRAIN VALID`: validation boards that also occur in
// training (shard/overlap.h); exit status 1 when their share is above
// --max-share.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cli/checks.h"
#include "cli/commands.h"
#include "shard/inspect.h"
#include "shard/overlap.h"

namespace manaka::cli {

namespace {

void add_overlap(CLI::App& parent) {
  struct Args {
    std::string train, valid;
    double max_share = 0.0;
    size_t examples = shard::kDefaultOverlapExamples;
    bool json = false;
  };
  auto a = std::make_shared<Args>();
  auto* cmd = parent.add_subcommand(
      "overlap", "validation boards that also occur in training (exit status 1 above --max-share)");
  cmd->add_option("train", a->train, "training shards: a directory of *.parquet or one shard")->required();
  cmd->add_option("valid", a->valid, "validation shards: a directory of *.parquet or one shard")->required();
  cmd->add_option("--max-share", a->max_share, "the share of validation rows allowed in training (0 to 1)")
      ->capture_default_str()
      ->transform(checks::number(0.0, 1.0, false, "a share from 0 to 1"));
  cmd->add_option("--examples", a->examples, "shared boards to show")
      ->capture_default_str()
      ->transform(checks::integer(0, 1000));
  cmd->add_flag("--json", a->json, "print the counts as one JSON object");
  cmd->callback([a] {
    auto report = shard::shard_overlap({a->train}, {a->valid}, a->examples);
    exit_on_error(report.status());
    if (a->json) {
      std::printf("%s\n", shard::overlap_json(*report).c_str());
    } else {
      std::fputs(shard::format_overlap(*report).c_str(), stdout);
    }
    if (report->share() > a->max_share) {
      std::fflush(stdout);
      std::fprintf(stderr, "manaka: shards overlap: %.4f%% of validation rows occur in training (--max-share %.4f%%)\n",
                   100.0 * report->share(), 100.0 * a->max_share);
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
  inspect->add_option("files", *files, "shards, read in this order for the block statistic")
      ->required();
  inspect->callback([files] {
    auto report = shard::inspect_shards(*files);
    exit_on_error(report.status());
    std::fputs(shard::format_report(*report).c_str(), stdout);
  });
  add_overlap(*cmd);
}

}  // namespace manaka::cli
