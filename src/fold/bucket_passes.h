// The three passes of `pack --buckets N` (fold/pack.h), once: pack() runs
// them one after another in a temporary directory (fold/bucketed.cpp), and
// the distributed pack runs each as tasks on other machines
// (fold/pack_parts.h). The same functions on the same spools give the same
// bytes either way; only where the spools live, how many parts make up one
// spool, and who removes them differ. Private to fold.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "core/progress.h"
#include "core/status.h"
#include "fold/converters.h"
#include "fold/fold_table.h"
#include "fold/spool.h"
#include "stream/format.h"

namespace manaka::fold {

// Opens n spool files "<dir>/spool-<set>-NNNN.<ext>" (fold/spool.h) for
// writing, each with its share of the spool buffer. The directory exists.
Result<std::vector<SpoolWriter>> open_spool_set(const std::string& dir, char set, const char* ext, uint32_t n);
Status close_spool_set(std::vector<SpoolWriter>& spools);
// The first set's n spools ('a', "mpk"), each begun with `header`: MPK1
// streams that pass 2 reads back.
Result<std::vector<SpoolWriter>> open_first_set(const std::string& dir, const stream::Header& header, uint32_t n);

// All threads' counts of a pass that several run at once.
struct PassTotals {
  std::atomic<uint64_t> bytes{0}, records{0};
};

// A pass's progress on one thread: the line (may be null; only this thread
// updates it) and the bytes and records done. With `shared`, each thread
// adds its counts there every few thousand records, and the line shows the
// sum of all threads'.
struct PassProgress {
  explicit PassProgress(Progress* line = nullptr, PassTotals* shared = nullptr) : line(line), shared(shared) {}

  Progress* line;
  PassTotals* shared;
  uint64_t bytes = 0, records = 0;  // this thread's: the files read whole, the records

  // One more record read, `at` bytes into the file being read.
  void record_read(uint64_t at) {
    ++records;
    if (shared && records % 4096 == 0) publish(bytes + at);
    if (!line) return;
    if (shared) {
      line->update(shared->bytes.load(std::memory_order_relaxed), shared->records.load(std::memory_order_relaxed));
    } else {
      line->update(bytes + at, records);
    }
  }
  // A file read whole: `size` bytes.
  void file_read(uint64_t size) {
    bytes += size;
    if (shared) publish(bytes);
  }

 private:
  void publish(uint64_t bytes_now) {
    shared->bytes.fetch_add(bytes_now - published_bytes_, std::memory_order_relaxed);
    shared->records.fetch_add(records - published_records_, std::memory_order_relaxed);
    published_bytes_ = bytes_now;
    published_records_ = records;
  }
  uint64_t published_bytes_ = 0, published_records_ = 0;
};

// Pass 1 (map): every record of `inputs`, in order, to first-set spool
// parts[bucket_of(hash_board(board), parts.size())], each part already
// holding the inputs' header. Returns the records read and their
// fingerprint (record_fingerprint summed). On `threads` threads (at most
// one a spool), thread t writes the spools whose index is t modulo their
// count, each reading all of the inputs: the spools' bytes are the same
// for any count.
struct MapTally {
  uint64_t records = 0;
  uint64_t fingerprint = 0;
};
Result<MapTally> map_records(const Inputs& inputs, std::vector<SpoolWriter>& parts, Progress* progress,
                             unsigned threads = 1);

// Pass 2 (fold) of first-set spool `bucket`: the records of `paths` (its
// parts, in map order) folded in `table` (cleared afterwards), each row then
// sent to out[below(N)] of for_spool(seed, Scatter, bucket), N = out.size();
// rows[j] counts the rows sent to out[j]. remove_read: each path is removed
// once read (a one-machine run's spool, no longer needed).
Status fold_bucket(const PackContext& ctx, const std::vector<std::string>& paths, uint32_t bucket,
                   bool remove_read, FoldTable& table, std::vector<SpoolWriter>& out, std::vector<uint64_t>& rows,
                   PassProgress& progress);

// Pass 3 (write): the set is the second-set spools, each permuted by
// for_spool(seed, Permute, j), one after the other; spool j is parts[j]
// back to back and holds spool_rows[j] rows. Each shard that ctx's writer
// writes (ctx.open_output done) loads the spools it spans in turn, on its own
// thread (a spool that spans two shards is loaded by both). remove_read: a
// spool's files are removed by the last shard that loads them (and at once
// for spools no shard reads).
Status write_spools(PackContext& ctx, const std::vector<std::vector<std::string>>& parts,
                    const std::vector<uint64_t>& spool_rows, bool remove_read, Progress* progress);

}  // namespace manaka::fold
