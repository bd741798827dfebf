// Rows -> <prefix>-NNNNN.parquet shards (NNNNN five digits from 00000).
//
// Rows are appended one at a time and leave in batches of row_group_rows
// (8192), each written straight into the open shard as one row group, so the
// writer holds one row group in memory, never a shard. A shard is complete at
// rows_per_shard rows (default 1,048,576 = 128 row groups) and is written
// under "<name>.tmp-<pid>" (parquet::ParquetFileWriter) and stays there, closed,
// until the whole set is written: finish() then renames every shard into
// place (shard/shard_set.h). A run that fails or is stopped leaves no shard
// of its own under a final name, and the set that was there stays whole.
//
// Files are zstd level 1, with no dictionary on the columns whose values are
// (nearly) all distinct (packed: unique per row once folded; value_q: floats),
// where a dictionary page costs time and saves nothing (measured on 2M
// synthetic teacher rows: 7% smaller, 15% less encoding time); mv and prob
// are BYTE_STREAM_SPLIT, min/max statistics are kept for ply, value_z and
// weight only, data pages are V2 and 8 MiB, and there is no page index
// (src/fold/README.md, "Writer settings", has the measurements). Encoders
// allocate from Arrow's jemalloc pool when libarrow has one: the writer thread
// allocates and frees a row group's pages at a time, and of the three pools
// jemalloc gives that memory back best (2M teacher records, --buckets 16:
// peak 62 MB with jemalloc, 71 with mimalloc, 95 with the system allocator,
// whose per-thread arena keeps growing; no difference in time).
//
// Encoding and compressing a row group (parquet's share of the work) runs on
// one background thread while the caller builds the next batch; the queue
// between them holds at most kQueuedBatches batches. The bytes written do not
// depend on this: batches are cut, ordered and assigned to shards on the
// caller's thread.
//
// write_shards() is the other way in, for a caller that has decided every
// row's place before any is written (the fold has: its permutation, or its
// spools' row counts): shard k's rows come from fill(k, sink), on one of
// `threads` threads, each shard its own file (with threads > 1, encoded on
// a second thread of the shard's, see ShardSink). A shard's bytes depend
// only on its rows, footer and index, so the set is byte-identical whatever
// the thread count. Parquet writes a file's row groups one after another
// (each column chunk is placed in the file as it is encoded), so one file's
// row groups are never encoded at once; a set of fewer shards than threads
// uses fewer filling threads. While fewer shards than threads are being
// written (the last shard of a set, or a set of one), a sink encodes each
// row group's leaves on two threads instead (parquet/ordered_sink.h), so the
// spare core is used; with a shard per thread the leaves stay on one, where
// the spread's extra copy of each column chunk would cost without gain.
//
// finish() closes the last shard, renames the set into place and then removes
// the earlier set's files past this one's count: <prefix>-NNNNN.parquet
// (digits only) whose index is at or past the number this run wrote. So after
// a successful run the glob <prefix>-*.parquet is exactly its output. It also
// removes <prefix>-NNNNN.parquet.tmp-<pid> files whose process no longer
// exists (the shards of a killed run on this machine).
//
// The caller holds the prefix's lock (lock_shard_set) and has applied the output
// policy (an existing set is replaced only when asked); the writer knows the
// set's row count up front, so every footer carries the set's identity
// (shard/shard_set.h).
// A run with no rows writes one empty shard, so the output always exists and
// carries the schema and footer.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/status.h"
#include "core/task_thread.h"
#include "shard/format.h"
#include "shard/row.h"

namespace manaka::shard {

// Batches between the caller and the writer thread.
inline constexpr size_t kQueuedBatches = 1;

struct ShardWriterOptions {
  std::string prefix;  // "out/train" -> out/train-00000.parquet, ...
  uint64_t rows_per_shard = kDefaultRowsPerShard;
  int64_t row_group_rows = kRowGroupRows;
  std::vector<std::pair<std::string, std::string>> footer;  // key-value metadata
  uint64_t set_id = 0;  // the set's fingerprint, in every footer
  uint64_t set_rows = 0;  // rows the set will hold; append() exactly these
  // write_shards() writes only shards [first_shard, end_shard) of the set: a
  // distributed pack's task writes its share (fold/pack_parts.h).
  uint64_t first_shard = 0;
  uint64_t end_shard = UINT64_MAX;
};

// Files of a set of `rows` rows: ceil(rows / rows_per_shard), and 1 for none.
uint64_t shard_count(uint64_t rows, uint64_t rows_per_shard);

}  // namespace manaka::shard
namespace manaka {
class PendingFile;
}
namespace manaka::parquet {
class ParquetFileWriter;
struct WriteOptions;
}  // namespace manaka::parquet
namespace manaka::shard {
class RowGroupBuffer;
struct RowGroupColumns;
class ShardWriter;

// One shard of a write_shards() set, on the thread that fills it: rows go
// to a row group buffer, and each full row group is encoded into the shard's
// file, on this thread or, when the set is written on several threads, on
// the sink's own encoding thread while this one fills the next group (one
// group in flight). Emitting a shuffled row is mostly waiting on memory, so
// a shard's two stages overlap; and when the set's last shard is the only
// one left, its stages still keep two cores busy.
class ShardSink {
 public:
  ShardSink(const ShardSink&) = delete;
  ShardSink& operator=(const ShardSink&) = delete;
  ~ShardSink();

  uint64_t shard() const { return shard_; }
  // The shard's rows are rows [first_row(), first_row() + rows()) of the set.
  uint64_t first_row() const { return first_row_; }
  uint64_t rows() const { return rows_; }
  Status append(const Row& row);
  // append() with the row's candidates written in place (RowGroupBuffer::
  // open_row): fill the slots, then close_row().
  Result<CandidateSlots> open_row(const Row& head, size_t n);
  Status close_row();
  // A whole row group made beforehand, at a group boundary: row_group_rows
  // rows, or the shard's last rows (shard/rewrite.h). Read, not copied.
  Status append_group(std::shared_ptr<const RowGroupColumns> group);

 private:
  friend class ShardWriter;
  ShardSink(ShardWriter& writer, uint64_t shard, uint64_t first_row, uint64_t rows, bool background);
  Status check_room() const;  // another row fits the shard
  Status flush_group();
  Status submit(std::shared_ptr<const RowGroupColumns> group);
  Status write_group(const RowGroupColumns& group);  // on the encoding thread, when there is one
  Status wait_encoding();
  Result<std::unique_ptr<PendingFile>> close();  // every row appended; the footer written

  ShardWriter& writer_;
  uint64_t shard_, first_row_, rows_;
  uint64_t appended_ = 0;
  std::unique_ptr<RowGroupBuffer> group_;
  std::unique_ptr<parquet::ParquetFileWriter> file_;
  int64_t counted_bytes_ = 0;  // what this sink has added to the writer's bytes()
  std::future<Status> encoding_;         // the group in flight, if any
  std::unique_ptr<TaskThread> encoder_;  // last: joined before the file and buffers go
};

class ShardWriter {
 public:
  // Creates the prefix's directory when missing.
  static Result<std::unique_ptr<ShardWriter>> create(ShardWriterOptions options);
  ShardWriter(const ShardWriter&) = delete;
  ShardWriter& operator=(const ShardWriter&) = delete;
  ~ShardWriter();  // stops the writer thread; an unfinished shard's temporary is removed

  // The row must have packed filled and mv/prob/cp of equal length. An error
  // of the writer thread surfaces at the next append() or at finish().
  Status append(const Row& row);
  // Writes out what is buffered, closes the last shard, removes stale ones.
  Status finish();

  // The whole set at once, instead of append(): calls fill(shard, sink) for
  // every shard, `threads` shards at a time, each on its own thread; fill
  // appends exactly sink.rows() rows, the set's rows [sink.first_row(),
  // sink.first_row() + sink.rows()) in order, and may run concurrently with
  // other shards' fills. The first failure stops the shards not yet begun.
  // finish() then renames the set into place.
  using ShardFill = std::function<Status(ShardSink& sink)>;
  Status write_shards(unsigned threads, const ShardFill& fill);

  uint64_t rows() const { return rows_; }
  // Parquet bytes written so far (approximate while the thread runs).
  int64_t bytes() const { return bytes_.load(std::memory_order_relaxed); }
  // Rows of the row groups write_shards' sinks have encoded so far (a
  // progress line's count, read from any thread).
  int64_t rows_encoded() const { return rows_encoded_.load(std::memory_order_relaxed); }
  // Valid after finish().
  const std::vector<std::string>& shards() const { return shards_; }
  const std::vector<std::string>& removed_stale() const { return removed_; }

 private:
  // One unit of the writer thread's work, in order: write a row group into
  // shard `shard` (opening it first if needed), or commit shard `shard`.
  struct Task {
    std::unique_ptr<RowGroupColumns> group;  // null: commit
    uint64_t shard = 0;
  };

  explicit ShardWriter(ShardWriterOptions options);
  Status flush_group();
  Status close_shard();
  Status push(Task task);
  Status first_error();
  void stop_thread();
  void run();                  // the writer thread
  Status execute(Task& task);  // on the writer thread
  Status remove_stale();
  Status publish();
  // Shard `shard`'s file, open under its temporary name, footer prepared.
  Result<std::unique_ptr<parquet::ParquetFileWriter>> open_file(uint64_t shard, int leaf_threads = 1) const;
  // Whether a sink's next row group spreads its leaves over two threads.
  bool spread_leaves() const { return writing_.load(std::memory_order_relaxed) < write_threads_; }
  friend class ShardSink;

  ShardWriterOptions options_;
  std::unique_ptr<RowGroupBuffer> group_;
  uint64_t rows_ = 0;
  uint64_t rows_in_shard_ = 0;
  uint64_t shard_index_ = 0;      // the shard rows go to now
  bool shard_has_rows_ = false;
  bool written_ = false;          // write_shards() has run

  // Shared with the writer thread, under mu_.
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Task> queue_;
  bool busy_ = false;             // the thread is executing a task
  bool stopping_ = false;
  Status error_;                  // the thread's first failure
  std::atomic<int64_t> bytes_{0};
  std::atomic<int64_t> rows_encoded_{0};
  std::thread thread_;

  // write_shards(): its thread count, and the shards being written now. A
  // sink whose shard is one of fewer than the threads encodes its row
  // groups' leaves on two threads (parquet::WriteOptions::leaf_threads).
  unsigned write_threads_ = 1;
  std::atomic<unsigned> writing_{0};

  // Owned by the writer thread until it is joined.
  std::unique_ptr<parquet::ParquetFileWriter> file_;
  std::vector<std::unique_ptr<PendingFile>> closed_;  // complete, not yet renamed
  std::unique_ptr<parquet::WriteOptions> parquet_;  // built from options_
  int64_t closed_bytes_ = 0;
  std::vector<std::string> shards_;
  std::vector<std::string> removed_;
};

}  // namespace manaka::shard
