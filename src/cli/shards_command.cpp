// `manaka shards inspect FILE...`: rows, footer, weight and candidate counts,
// and the shuffle's block statistic (shard/inspect.h).
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "shard/inspect.h"

namespace manaka::cli {

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
}

}  // namespace manaka::cli
