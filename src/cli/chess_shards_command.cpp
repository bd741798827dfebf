// `manaka chess shards inspect DIR... [--json]`: the chess corpus's npz
// shards (docs/chess-corpus.md). Every shard_*.npz of each directory (or
// each file given) is read in full and checked; the summary is computed by
// chess_corpus/shard_summary.h and only printed here. Exit status 1 if any shard
// is damaged or foreign (each is named with its reason) or none was found.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "core/text.h"
#include "chess_corpus/shard_summary.h"

namespace manaka::cli {

void add_chess_shards_command(CLI::App* chess) {
  auto* cmd = chess->add_subcommand("shards", "the chess corpus's npz shards (shard_NNNNNN.npz)");
  cmd->require_subcommand(1);
  auto* inspect = cmd->add_subcommand(
      "inspect", "counts, outcome mix, policy coverage; damaged or foreign shards named with the reason");
  struct Options {
    std::vector<std::string> paths;
    bool json = false;
  };
  auto opt = std::make_shared<Options>();
  inspect->add_option("paths", opt->paths, "corpus directories (their shard_*.npz files) or shard files")
      ->required();
  inspect->add_flag("--json", opt->json, "one JSON object (with the move-index histogram) instead of text");
  inspect->callback([opt] {
    auto summary = chess_corpus::summarize_shards(opt->paths);
    exit_on_error(summary.status());
    const std::string out =
        opt->json ? json_text(chess_corpus::summary_json(*summary), 2) + "\n" : chess_corpus::format_summary(*summary);
    std::fputs(out.c_str(), stdout);
    std::fflush(stdout);
    if (!summary->bad.empty()) throw CLI::RuntimeError(1);
    if (summary->shards == 0) {
      std::fprintf(stderr, "manaka: no shard_*.npz found\n");
      throw CLI::RuntimeError(1);
    }
  });
}

}  // namespace manaka::cli
