// `pack --buckets N` cut into tasks that may run on different machines
// (python/manaka/ray.py runs them as Ray tasks), writing the shards that
// pack() writes on one machine, byte for byte (fold/pack.h, "--buckets N"):
//
//   map   (one per input stream m)  stream m -> N first-set spool parts
//         <dir>/spool-a-NNNN.mpk, each with the inputs' header; returns the
//         stream's record count and fingerprint. Pass 1 reads the streams in
//         order, so first-set spool i is the parts of bucket i, maps in
//         stream order.
//   fold  (one per first-set spool i)  those parts -> N second-set spool
//         parts <dir>/spool-b-NNNN.rows (rows scattered by
//         for_spool(seed, Scatter, i)); returns each part's row count. Pass 2
//         folds the spools in index order, so second-set spool j is the parts
//         of bucket j, folds in index order.
//   plan  the row counts summed per second-set spool give the set's rows,
//         its shard count (shard::shard_count) and each shard's spools.
//   write (any range of shards)  shards [first, end) of the set under
//         options.prefix, each spool read as its parts concatenated and
//         permuted by for_spool(seed, Permute, j). The shard's bytes hold its
//         index and the set's identity, not its file name, so a task may
//         write under a staging prefix and the driver rename it into place.
//
// Parts are written straight into `dir`: the caller gives each task a
// directory of its own and trusts it only once the task has returned
// (python/manaka/ray.py renames it into place then). pack_write's shards are
// committed by shard::ShardWriter::finish() only when all of them are whole.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "fold/pack.h"

namespace manaka::fold {

struct PackMapResult {
  uint64_t records = 0;
  uint64_t fingerprint = 0;  // record_fingerprint summed over the stream's records
};

// Stream `index` of `streams` (all checked to fold together) -> the N
// first-set parts in `dir` (created; existing parts are replaced).
Result<PackMapResult> pack_map(const std::vector<std::string>& streams, size_t index, const std::string& dir,
                               uint32_t buckets);

// First-set spool `bucket`: its `parts` in map order -> the N second-set
// parts in `dir`; returns the rows written to each (N counts).
Result<std::vector<uint64_t>> pack_fold(const std::vector<std::string>& streams,
                                        const std::vector<std::string>& parts, uint32_t bucket,
                                        const std::string& dir, const PackOptions& options);

// What the map and fold tasks found, summed: the write's input.
struct PackPlan {
  uint64_t records = 0;
  uint64_t fingerprint = 0;
  std::vector<uint64_t> spool_rows;  // rows of second-set spool j (N counts)
};

// Shards [first_shard, end_shard) of the set under options.prefix (the
// prefix's lock and output policy are the caller's). parts[j] lists the
// second-set parts of spool j in fold order. Returns the shards written and
// the rows' tallies (rows_out, folded_rows, folded_records).
Result<PackSummary> pack_write(const std::vector<std::string>& streams,
                               const std::vector<std::vector<std::string>>& parts, const PackPlan& plan,
                               uint64_t first_shard, uint64_t end_shard, const PackOptions& options);

}  // namespace manaka::fold
