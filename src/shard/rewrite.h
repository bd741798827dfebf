// A shard set written again by this build's writer exactly as pack writes
// one (the same sinks, threads, settings and footers), from its row groups
// loaded into memory beforehand: the writer alone, so that a bench can set
// what encoding pack's own rows costs beside what pack takes (folding,
// shuffling and emitting included). bench/pack_bench.py's "shard writer
// alone".
//
//   MANAKA_ASSIGN_OR_RETURN(auto set, shard::load_set(paths));   // untimed
//   MANAKA_RETURN_NOT_OK(shard::write_set(set, "out/again", 2));  // timed
//
// The rows keep their shard and row group: every shard but the last holds
// the first one's rows, every group but a shard's last kRowGroupRows. The
// values are read as the reader hands them, in the side to move's view, so
// a set whose footer says pov 1 (where those differ from the bytes) is
// refused rather than rewritten with values flipped.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/status.h"
#include "shard/shard_reader.h"

namespace manaka::shard {

struct RowGroupColumns;

struct LoadedSet {
  uint64_t rows = 0;
  uint64_t rows_per_shard = 0;
  uint64_t set_id = 0;  // the footer's manaka.set.id, 0 when absent: a set rewritten is byte for byte itself
  FooterPairs footer;  // the first shard's, without the set's own keys (shard/shard_set.h)
  std::vector<std::shared_ptr<const RowGroupColumns>> groups;  // every shard's, in order
  std::vector<size_t> first_group;  // shard k's groups begin at groups[first_group[k]]
};

// The shards' row groups, in the order given (a set's shards in index order).
Result<LoadedSet> load_set(const std::vector<std::string>& paths);

// Writes `set` as <prefix>-NNNNN.parquet on `threads` threads, as pack does:
// temporaries renamed into place when all are done.
Status write_set(const LoadedSet& set, const std::string& prefix, unsigned threads);

}  // namespace manaka::shard
