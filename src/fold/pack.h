// `manaka pack`: MPK1 streams -> folded, shuffled parquet shards (docs:
// "Parquet" through "Row groups").
//
//   1. open_inputs: every stream's header must fold with the first's
//      (fold/compat.h) and describe 96-byte positions.
//   2. fold: records grouped by board (fold/fold_table.h), prob derived once
//      per row (fold/policy.h).
//   3. shuffle: the rows leave in one seeded permutation (fold/rng.h), so the
//      same streams, options and seed give byte-identical shards.
//   4. write: <prefix>-NNNNN.parquet (shard/shard_writer.h), footer from the
//      header and the converter's constants (fold/footer.h).
//
// Two ways to run steps 2-3, the same rows either way:
//   in memory (buckets == 0)  every record in memory, split by board hash
//       (bucket_of(hash, P)) into one FoldTable per thread, P = threads (at
//       most 8), each folded on its own thread; the groups are numbered by
//       their first record, as one table would number them, permuted by
//       Fisher-Yates with for_spool(seed, InMemory, 0) and emitted in that
//       order. Memory follows the whole corpus.
//   --buckets N  three passes (fold/bucket_passes.h) over N + N spool files in a temporary directory
//       (under spool_dir, or the output's directory): pass 1 partitions the
//       records by board hash (fold/board_hash.h) into N streams; pass 2 folds
//       each and scatters its rows to a second set of N spools, each row to
//       spool below(N) of for_spool(seed, Scatter, i); pass 3 loads second-set
//       spool j, permutes it with for_spool(seed, Permute, j) and writes it.
//       A row's place depends on nothing about the row, so the output is one
//       permutation of the corpus, not shuffled blocks; memory follows the
//       largest spool. The spools are removed on success and on failure; the
//       input streams are never touched.
// Either way, each shard's rows are known before any shard is written, and
// options.threads shards are filled and encoded at once, one per thread
// (shard::ShardWriter::write_shards); the bytes do not depend on the count.
// The two ways give the same multiset of rows (same candidate order, same
// float sums, since a spool keeps its records in input order) in different
// orders.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "fold/policy.h"
#include "shard/format.h"

namespace manaka::fold {

inline constexpr uint32_t kMaxBuckets = 4096;

struct PackOptions {
  std::string prefix;                         // shards are <prefix>-NNNNN.parquet
  double temperature = kDefaultTemperature;   // cp; finite and > 0
  uint64_t seed = 0;
  uint64_t rows_per_shard = shard::kDefaultRowsPerShard;
  uint32_t buckets = 0;                       // 0: fold in memory; else 1..kMaxBuckets
  std::string spool_dir;                      // --buckets only; "" = the prefix's directory
  bool overwrite = false;                     // replace an existing set of this prefix
  bool progress = true;                       // progress lines on stderr
  unsigned threads = 0;                       // fold parts and shards encoded at once; 0 = the core count
};

struct PackSummary {
  uint64_t records_in = 0;
  uint64_t rows_out = 0;
  uint64_t folded_rows = 0;     // rows of weight > 1
  uint64_t folded_records = 0;  // records that went into those rows
  std::vector<std::string> shards;
  std::vector<std::string> removed_stale;  // <prefix>-NNNNN.parquet of an earlier, larger run
  // Shards a killed run had written whole and this one put in place first
  // (shard::recover_shard_set), before its own output policy was applied.
  uint64_t recovered_shards = 0;
  double seconds = 0.0;
};

// A prefix that names a directory ("shards/train/") writes the set there
// under this name (shards/train/shard-00000.parquet, ...), not as
// "shards/train/-00000.parquet".
inline constexpr const char* kDefaultShardName = "shard";
std::string shard_prefix(const std::string& output);

// Missing directories of the prefix are made, and removed again (when still
// empty) if the run fails.
Result<PackSummary> pack(const std::vector<std::string>& streams, const PackOptions& options);

// The closing summary, two lines without a trailing newline:
//   2.00M records in, 1.94M rows out, 2 shards, 12.31 s (162.5k records/s)
//   folded: 61.0k rows (3.15% of rows) from 126.0k records (6.30% of records)
std::string format_summary(const PackSummary& summary);

}  // namespace manaka::fold
