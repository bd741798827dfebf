// The two ways pack() folds and shuffles (fold/pack.h); private to fold.
#pragma once

#include "core/status.h"
#include "fold/input.h"
#include "fold/pack.h"
#include "fold/policy.h"
#include "shard/row.h"
#include "shard/shard_writer.h"

namespace manaka::fold {

// What both converters share: the rule for prob, the output, the tallies.
struct PackContext {
  const Inputs& inputs;
  const PackOptions& options;
  PolicyRule rule;
  shard::ShardWriter& writer;
  PackSummary& summary;

  // Writes one row and counts it.
  Status write(const shard::Row& row) {
    summary.rows_out += 1;
    if (row.weight > 1) {
      summary.folded_rows += 1;
      summary.folded_records += row.weight;
    }
    return writer.append(row);
  }
};

Status pack_in_memory(PackContext& ctx);
Status pack_bucketed(PackContext& ctx);

}  // namespace manaka::fold
