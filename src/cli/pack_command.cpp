// `manaka pack STREAM... -o PREFIX`: MPK1 streams -> folded, shuffled parquet
// shards (fold/pack.h).
#include <cfloat>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cli/checks.h"
#include "cli/commands.h"
#include "fold/pack.h"

namespace manaka::cli {

void add_pack_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "pack", "fold MPK1 streams into shuffled parquet shards <prefix>-NNNNN.parquet");
  struct Args {
    std::vector<std::string> streams;
    fold::PackOptions options;
    bool quiet = false;
  };
  auto args = std::make_shared<Args>();
  cmd->add_option("streams", args->streams, "MPK1 streams, folded together in this order")
      ->required();
  cmd->add_option("-o,--output", args->options.prefix,
                  "shard prefix: writes PREFIX-00000.parquet, PREFIX-00001.parquet, ...; a directory (DIR/) gets "
                  "DIR/shard-00000.parquet, ...")
      ->required();
  cmd->add_flag("--overwrite", args->options.overwrite,
               "replace an existing shard set of this prefix, once the new one is complete");
  cmd->add_option("--temperature", args->options.temperature,
                  "softmax temperature in centipawns (cp-sourced streams)")
      ->capture_default_str()
      ->transform(checks::number(0.0, DBL_MAX, true, "a number of centipawns"));
  cmd->add_option("--seed", args->options.seed, "shuffle seed")->capture_default_str()->transform(checks::seed());
  cmd->add_option("--rows-per-shard", args->options.rows_per_shard, "rows in each shard")
      ->capture_default_str()
      ->transform(checks::unsigned_integer(1));
  cmd->add_option("--buckets", args->options.buckets,
                  "fold in three passes over N spool files (memory follows the largest spool "
                  "rather than the corpus); 0 folds in memory")
      ->capture_default_str()
      ->transform(checks::unsigned_integer(0, fold::kMaxBuckets));
  cmd->add_option("--spool-dir", args->options.spool_dir,
                  "where --buckets puts its temporary spools (default: next to the output)");
  cmd->add_option("--threads", args->options.threads,
                  "threads for the fold (in memory, or --buckets' first two passes) and the shards' encoding, one shard "
                  "each, or a shard's columns on two once fewer shards than threads are left (0: one per hardware thread); "
                  "the output is the same for any number")
      ->capture_default_str()
      ->transform(checks::unsigned_integer(0, 1024));
  cmd->add_flag("-q,--quiet", args->quiet, "no progress and no summary");
  cmd->callback([args] {
    args->options.progress = !args->quiet;
    auto summary = fold::pack(args->streams, args->options);
    exit_on_error(summary.status());
    if (args->quiet) return;
    if (summary->recovered_shards)
      std::printf("pack: first put in place %llu shards of %s that a killed run had written whole\n",
                  static_cast<unsigned long long>(summary->recovered_shards), fold::shard_prefix(args->options.prefix).c_str());
    std::printf("pack: %s\n", fold::format_summary(*summary).c_str());
    for (const auto& path : summary->removed_stale) {
      std::printf("pack: removed %s, left by an earlier run\n",
                  path.c_str());
    }
  });
}

}  // namespace manaka::cli
