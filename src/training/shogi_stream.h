// Training batches of the shogi network from a list of shards, made ahead
// of the caller: shard::ShardStream decodes row groups on its threads, and
// one thread of this stream cuts them into batches of `batch_size` rows
// (across row groups and shards, in the list's order) and encodes each
// (training/shogi_batch.h) while the caller trains on the one before. At
// most `depth` batches wait. What next() hands out depends only on the
// paths, their order and the options, not on the thread count.
//
//   MANAKA_ASSIGN_OR_RETURN(auto stream, ShogiStream::open(paths, options));
//   ShogiBatch batch;
//   while (true) {
//     MANAKA_ASSIGN_OR_RETURN(bool more, stream->next(batch));
//     if (!more) break;
//     ... batch.planes, batch.policy, batch.value, batch.weight ...
//   }
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/status.h"
#include "shard/shard_stream.h"
#include "training/shogi_batch.h"

namespace manaka::training {

struct ShogiStreamOptions {
  int64_t batch_size = 256;
  bool drop_last = false;  // drop a last batch of fewer rows (else it is handed out short)
  TargetOptions targets;
  unsigned threads = 0;    // decoding threads; 0 = the core count
  unsigned depth = 2;      // encoded batches ready ahead of the caller, at least 1
};

class ShogiStream {
 public:
  static Result<std::unique_ptr<ShogiStream>> open(std::vector<std::string> paths,
                                                   const ShogiStreamOptions& options);
  ShogiStream(const ShogiStream&) = delete;
  ShogiStream& operator=(const ShogiStream&) = delete;
  ~ShogiStream();  // stops the encoding thread; batches not taken are dropped

  // The next batch; false after the last. An error (a shard that cannot be
  // read, a row that cannot be encoded) ends the stream at its place.
  Result<bool> next(ShogiBatch& out);

 private:
  ShogiStream(std::vector<std::string> paths, const ShogiStreamOptions& options,
              std::unique_ptr<shard::ShardStream> shards);
  void work();
  Status fill();                 // the encoding thread's loop, until the end or stop
  bool push(Result<ShogiBatch> batch);  // false when stopping

  std::vector<std::string> paths_;
  ShogiStreamOptions options_;
  std::unique_ptr<shard::ShardStream> shards_;

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Result<ShogiBatch>> ready_;
  bool ended_ = false;
  bool stopping_ = false;
  std::thread worker_;
};

}  // namespace manaka::training
