// Rows of several shard sets mixed by weight at read time, in batches of any
// size: the reader behind manaka.shards.iter_batches({"teacher/": 0.7,
// "selfplay/": 0.3}, batch_size=4096), so mixing needs no merged copy.
//
// Each source is read in passes. A pass reads every row of the source once,
// its shards in an order drawn from (seed, epoch, source, pass) (the rows of
// a shard were already shuffled by pack). Row r of batch b comes from source
// k with probability weight_k / sum of weights, drawn from (seed, epoch, b, r)
// alone: the epoch's plan (how many rows each batch takes from each source)
// is known from the footers before a row is read, so a stream can hand out
// only every stride-th batch (a DataLoader worker's share), decoding only the
// row groups those batches touch, and the batches are the same whatever the
// split. The epoch ends
//   kEverySource  once every source has been read whole (a source that ends
//                 its pass sooner starts its next one: a row repeats only
//                 after every row of its source was seen);
//   kFirstSource  once the first source ends its pass (no row repeats; the
//                 others are read in part).
// The last batch is short, or dropped with drop_last.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/status.h"
#include "shard/shard_reader.h"
#include "shard/shard_stream.h"

namespace manaka::shard {

struct MixSource {
  std::vector<std::string> paths;  // its shards
  double weight = 1.0;             // > 0; only ratios matter
};

enum class MixUntil { kEverySource, kFirstSource };

struct MixOptions {
  int64_t batch_size = 4096;
  bool drop_last = false;
  MixUntil until = MixUntil::kEverySource;
  bool shuffle = true;  // a fresh shard order each pass; false: the order given
  uint64_t seed = 0, epoch = 0;
  uint64_t stride = 1, offset = 0;  // hand out batches offset, offset + stride, ...
  ShardColumns columns;
  unsigned threads = 0;  // decoding threads per source; 0 = the core count
};

struct MixedBatch {
  ShardBatch rows;
  std::vector<uint16_t> source;  // each row's source, its index in the list
  int64_t index = 0;             // the batch's place in the epoch
};

class MixedStream {
 public:
  // Reads every shard's footer and makes the epoch's plan.
  static Result<std::unique_ptr<MixedStream>> open(std::vector<MixSource> sources, const MixOptions& options);
  MixedStream(const MixedStream&) = delete;
  MixedStream& operator=(const MixedStream&) = delete;
  ~MixedStream();

  // The next batch of this stream's share; false after the last.
  Result<bool> next(MixedBatch& out);

  int64_t epoch_rows() const { return epoch_rows_; }        // the whole epoch's, all strides
  int64_t epoch_batches() const;                            // batches handed out over all strides
  const std::vector<int64_t>& source_rows() const { return drawn_; }  // rows the epoch draws of each
  const std::vector<int64_t>& source_sizes() const { return sizes_; }  // rows each source holds
  const ShardColumns& columns() const { return o_.columns; }

  struct Source;  // a source's files, plan and reader

 private:
  MixedStream() = default;
  Status plan();
  int64_t batch_rows(int64_t b) const;

  std::vector<std::unique_ptr<Source>> sources_;
  MixOptions o_;
  std::vector<double> cumulative_;  // weights / sum, running
  std::vector<int64_t> sizes_, drawn_;
  int64_t epoch_rows_ = 0;
  // start_[b * S + s]: rows of source s drawn before batch b.
  std::vector<int64_t> start_;
  int64_t next_batch_ = 0;
};

}  // namespace manaka::shard
