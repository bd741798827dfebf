// Batches of the chess corpus, streamed from its shards so that a trainer
// never waits on inflation (the spec's iter_batches, done in C++).
//
// Background threads per loader:
//   readers  `readers` threads read the shards ahead of need, each a shard
//            at a time (inflating and checking it, chess_shard.h): while one
//            window is cut into batches, the next is being read;
//   batcher  takes the shards in order, `window` at a time (one shard by
//            default, the spec's "one shard at a time"), draws the window's
//            permutation and cuts it into batches of batch_size rows in that
//            order, gathering each row and casting as it copies (states to
//            float32 unless asked for int8, move indices to int64, outcomes
//            to float32), and queues up to `prefetch` of them; with
//            policy_targets, also each row's visit distribution (its visit
//            counts over their sum, as float32 over the 4672 move indices).
// next() hands the batches out in order; the consumer only waits when the
// threads together are slower than it. States buffers come from a
// BatchPool (batch_pool.h), to which the consumer may hand them back.
//
// Order: the shards in the order given, window after window; within a
// window, a permutation of its rows when shuffling (Fisher-Yates with
// SplitMix64 seeded by `seed`, one generator for the whole pass, so a seed
// and a shard list give one order on every platform, whatever `readers`),
// the rows in file order otherwise. Batches never span two windows: each
// window ends with a short batch unless batch_size divides its rows. Every
// row of every shard comes out exactly once per pass.
//
// Memory: at most 3 * window + readers shards are in memory (the window
// being cut, window + readers read or being read, a window's buffers kept
// for reuse), 1285 bytes a position as stored (about 12.9 MB for a
// 10,000-position shard: ~65 MB with the defaults), plus the queued and
// pooled batches, batch_size * 5,132 bytes each with float32 states (1,292
// with int8), at most 2 * prefetch + 2 of them unless the consumer keeps
// batches alive; policy targets add batch_size * 18,688 bytes to each
// batch, and a shard's visits 8 bytes a position plus 8 an entry.
//
// A shard that cannot be read, or that has no visits when policy targets
// are asked for (no scores when scores are), ends the pass: next() returns its error (the
// file, the member and the rule) after the batches of the windows before it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/default_init.h"
#include "core/status.h"
#include "chess_corpus/batch_pool.h"
#include "npz/zip_reader.h"

namespace manaka::chess_corpus {

enum class StatesType : uint8_t { Float32, Int8 };

struct BatchLoaderOptions {
  uint64_t batch_size = 256;
  bool shuffle = true;
  uint64_t seed = 0;
  uint32_t window = 1;    // shards shuffled together
  uint32_t prefetch = 8;  // batches queued ahead of next()
  uint32_t readers = 2;   // threads reading shards ahead
  StatesType states = StatesType::Float32;
  bool policy_targets = false;  // batches carry the visit distributions (shards with visits only)
  bool scores = false;          // batches carry the engine's scores (shards with scores only)
  npz::ZipLimits limits;
};

struct ChessBatch {
  uint64_t rows = 0;
  UninitVector<float> states_f32;  // rows * 1280 when StatesType::Float32
  UninitVector<int8_t> states_i8;  // rows * 1280 when StatesType::Int8
  UninitVector<int64_t> move_indices;
  UninitVector<float> outcomes;
  UninitVector<float> policy;  // rows * 4672 with policy_targets: each row sums to 1 (0 for a row without visits)
  UninitVector<float> scores;  // rows with scores: the shard's int16 scores as they are (chess_shard.h)
};

class BatchLoader {
 public:
  // Starts the threads; refuses batch_size, window, prefetch or readers of 0.
  static Result<std::unique_ptr<BatchLoader>> start(std::vector<std::string> shards,
                                                    const BatchLoaderOptions& options);
  // Stops the threads (a pass may be abandoned at any point).
  ~BatchLoader();
  BatchLoader(const BatchLoader&) = delete;
  BatchLoader& operator=(const BatchLoader&) = delete;

  // The next batch, std::nullopt after the last; after an error, that error
  // again on every call.
  Result<std::optional<ChessBatch>> next();

  const BatchLoaderOptions& options() const;
  // Where a consumer done with a batch's states may hand them back.
  const std::shared_ptr<BatchPool>& pool() const;

 private:
  struct State;
  explicit BatchLoader(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace manaka::chess_corpus
