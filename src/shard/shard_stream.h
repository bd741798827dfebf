// Every row group of a list of shards, in order (file by file, group by
// group), read ahead on worker threads: the reader behind
// manaka.shards.iter_batches.
//
// Arrow's reader decodes one row group of one file at a time, so one reader
// per file would leave the other cores idle; here each worker opens its own
// ShardReader of the file it is working in, so several row groups of one
// file decode at once. At most `depth` batches are decoded ahead of the one
// next() hands out (the prefetch, and the memory bound: depth + threads
// batches), and next() hands them out in order, so what the caller sees does
// not depend on the thread count. Only the columns asked for are decoded.
// Batches decode into buffers from the stream's pool (shard/batch_pool.h):
// a caller done with a batch gives it back there (the Python binding's numpy
// arrays do when they are freed), and later row groups reuse its pages.
//
//   MANAKA_ASSIGN_OR_RETURN(auto stream, ShardStream::open(paths, {}));
//   ShardBatch batch;
//   while (true) {
//     MANAKA_ASSIGN_OR_RETURN(bool more, stream->next(batch));
//     if (!more) break;
//     ...
//   }
#pragma once

#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/status.h"
#include "shard/batch_pool.h"
#include "shard/shard_reader.h"

namespace manaka::shard {

// One row group of one of the stream's files (its index in paths).
struct ShardGroup {
  uint32_t file = 0;
  int group = 0;
};

struct ShardStreamOptions {
  ShardColumns columns;
  unsigned threads = 0;  // decoding threads; 0 = the core count
  unsigned depth = 0;    // batches decoded ahead of the caller; 0 = 2 x threads
  // When not empty, these row groups in this order (a group may come more
  // than once) instead of every group of every file.
  std::vector<ShardGroup> groups;
};

class ShardStream {
 public:
  // Opens the first file (its schema is checked); the others are opened as
  // the workers reach them, and a bad one fails at its place in the order.
  static Result<std::unique_ptr<ShardStream>> open(std::vector<std::string> paths,
                                                   const ShardStreamOptions& options);
  ShardStream(const ShardStream&) = delete;
  ShardStream& operator=(const ShardStream&) = delete;
  ~ShardStream();  // stops the workers; batches not taken are dropped

  // The next row group; false after the last. An error (a file that cannot
  // be read) is returned at its place in the order and ends the stream.
  Result<bool> next(ShardBatch& out);
  unsigned threads() const { return static_cast<unsigned>(workers_.size()); }
  const ShardColumns& columns() const { return columns_; }
  // Where batches' buffers come from and go back to; outlives the stream
  // while anyone holds it.
  const std::shared_ptr<ShardBatchPool>& pool() const { return pool_; }

 private:
  struct Task {
    uint64_t seq = 0;
    size_t file = 0;
    int group = 0;
  };
  ShardStream(std::vector<std::string> paths, const ShardStreamOptions& options);
  bool take(Task& task, std::unique_lock<std::mutex>& lock);  // under mu_
  void work();

  std::vector<std::string> paths_;
  ShardColumns columns_;
  std::vector<ShardGroup> plan_;  // options.groups
  size_t plan_next_ = 0;
  unsigned depth_ = 1;
  std::shared_ptr<ShardBatchPool> pool_;

  std::mutex mu_;
  std::condition_variable cv_;
  // The order of row groups, discovered file by file.
  size_t file_ = 0;          // the file tasks come from now
  int group_ = 0;            // its next group
  int groups_ = -1;          // its row group count; -1 not yet known
  uint64_t next_task_ = 0;   // seq of the next task handed to a worker
  uint64_t next_out_ = 0;    // seq next() hands out next
  bool ended_ = false;       // no task after next_task_ (the end, or a failure)
  bool stopping_ = false;
  std::map<uint64_t, Result<ShardBatch>> ready_;
  std::vector<std::thread> workers_;
};

}  // namespace manaka::shard
