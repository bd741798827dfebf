// The two ways pack() folds and shuffles (fold/pack.h); private to fold.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <thread>

#include "core/progress.h"
#include "core/status.h"
#include "fold/input.h"
#include "fold/pack.h"
#include "fold/policy.h"
#include "shard/row.h"
#include "shard/shard_writer.h"

namespace manaka::fold {

// What both converters share: the rule for prob, the output, the tallies.
struct PackContext {
  PackContext(const Inputs& in, const PackOptions& opts, PackSummary& sum)
      : inputs(in), options(opts), rule(PolicyRule::from(in.header, opts.temperature)), summary(sum) {}

  const Inputs& inputs;
  const PackOptions& options;
  PolicyRule rule;
  PackSummary& summary;
  uint64_t fingerprint = 0;  // record_fingerprint summed over the records read
  std::unique_ptr<shard::ShardWriter> writer;
  // When the pack began: its phases' progress lines count from it.
  const std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  // The shards write_shards() writes: all, or a task's share (fold/pack_parts.h).
  uint64_t first_shard = 0;
  uint64_t end_shard = UINT64_MAX;
  // Frees the fold's memory (munmap of ~1 GB: tens of ms) while the set is
  // published; joined when the context goes.
  std::jthread release;

  // Opens the shard set once the fold knows how many rows it will write:
  // every footer carries the set's size and identity (shard/shard_set.h).
  Status open_output(uint64_t rows);

  // The tallies a row adds (rows_out, folded_rows, folded_records).
  static void count(const shard::Row& row, PackSummary& tally) {
    tally.rows_out += 1;
    if (row.weight > 1) {
      tally.folded_rows += 1;
      tally.folded_records += row.weight;
    }
  }

  // The shards' writing threads: --threads, or the core count for 0.
  unsigned threads() const;

  // Runs the writer's write_shards with `fill`, each shard's rows counted
  // into the summary; `progress` (may be null) follows the bytes written.
  Status write_shards(Progress* progress,
                      const std::function<Status(shard::ShardSink& sink, PackSummary& tally)>& fill);
};

Status pack_in_memory(PackContext& ctx);
Status pack_bucketed(PackContext& ctx);

}  // namespace manaka::fold
