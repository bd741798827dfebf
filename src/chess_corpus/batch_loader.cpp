#include "chess_corpus/batch_loader.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <future>
#include <mutex>
#include <numeric>
#include <thread>
#include <utility>

#include "core/splitmix64.h"
#include "core/task_thread.h"
#include "chess/move_index.h"
#include "core/uniform.h"
#include "chess_shard/chess_shard.h"

namespace manaka::chess_corpus {

namespace {

// A queue of at most `capacity` items between two threads; stop() wakes
// every waiter and makes push and pop give up.
template <typename T>
class Handoff {
 public:
  explicit Handoff(size_t capacity) : capacity_(capacity) {}

  bool push(T item) {
    std::unique_lock lock(mu_);
    not_full_.wait(lock, [&] { return stopped_ || items_.size() < capacity_; });
    if (stopped_) return false;
    items_.push_back(std::move(item));
    not_empty_.notify_one();
    return true;
  }
  std::optional<T> pop() {
    std::unique_lock lock(mu_);
    not_empty_.wait(lock, [&] { return stopped_ || !items_.empty(); });
    if (items_.empty()) return std::nullopt;
    T item = std::move(items_.front());
    items_.pop_front();
    not_full_.notify_one();
    return item;
  }
  void stop() {
    {
      std::lock_guard lock(mu_);
      stopped_ = true;
    }
    not_full_.notify_all();
    not_empty_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable not_full_, not_empty_;
  std::deque<T> items_;
  size_t capacity_;
  bool stopped_ = false;
};

struct Item {
  ChessBatch batch;
  Status error;
  bool end = false;
};

// int8 planes to float32: a loop the compiler vectorizes, also built for
// AVX2 on x86-64 and chosen at run time (a plain flag, not an ifunc, which
// sanitizers' runtimes cannot start under).
void widen_plain(const int8_t* src, float* dst, size_t n) {
  for (size_t i = 0; i < n; ++i) dst[i] = static_cast<float>(src[i]);
}
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target("avx2"))) void widen_avx2(const int8_t* src, float* dst, size_t n) {
  for (size_t i = 0; i < n; ++i) dst[i] = static_cast<float>(src[i]);
}
const bool kHaveAvx2 = __builtin_cpu_supports("avx2");
inline void widen(const int8_t* src, float* dst, size_t n) {
  kHaveAvx2 ? widen_avx2(src, dst, n) : widen_plain(src, dst, n);
}
#else
inline void widen(const int8_t* src, float* dst, size_t n) { widen_plain(src, dst, n); }
#endif

// Asks for a row's cache lines ahead of its copy (rows are gathered in a
// random order, which the hardware's prefetcher cannot guess).
inline void prefetch_row(const ChessShard& shard, uint64_t row) {
  constexpr uint64_t LINE = 64;
  const int8_t* p = shard.states.data() + row * PLANES_PER_POSITION;
  for (uint64_t off = 0; off < PLANES_PER_POSITION; off += LINE) __builtin_prefetch(p + off);
}

// One row of a window into slot `slot` of the batch.
inline void copy_row(const ChessShard& shard, uint64_t row, ChessBatch& b, uint64_t slot, StatesType type) {
  const int8_t* src = shard.states.data() + row * PLANES_PER_POSITION;
  if (type == StatesType::Float32) {
    widen(src, b.states_f32.data() + slot * PLANES_PER_POSITION, PLANES_PER_POSITION);
  } else {
    std::memcpy(b.states_i8.data() + slot * PLANES_PER_POSITION, src, PLANES_PER_POSITION);
  }
  b.move_indices[slot] = shard.move_indices[row];
  b.outcomes[slot] = static_cast<float>(shard.outcomes[row]);
}

// A row's visit distribution into slot `slot` of the batch's policy, which
// is zero there: counts over their sum (read_chess_shard checked them).
inline void copy_visits(const ChessShard& shard, uint64_t row, ChessBatch& b, uint64_t slot) {
  const uint64_t begin = uint64_t(shard.visit_offsets[row]), end = uint64_t(shard.visit_offsets[row + 1]);
  double total = 0;
  for (uint64_t k = begin; k < end; ++k) total += shard.visit_counts[k];
  if (total == 0) return;
  float* p = b.policy.data() + slot * chess::POLICY_SIZE;
  for (uint64_t k = begin; k < end; ++k)
    p[shard.visit_indices[k]] = static_cast<float>(shard.visit_counts[k] / total);
}

}  // namespace

struct BatchLoader::State {
  State(std::vector<std::string> paths, const BatchLoaderOptions& o)
      : shards(std::move(paths)),
        options(o),
        pool(std::make_shared<BatchPool>(size_t(o.prefetch) + 2)),
        batches(o.prefetch) {
    for (uint32_t i = 0; i < o.readers; ++i) readers.push_back(std::make_unique<TaskThread>());
  }

  using ShardFuture = std::future<Result<ChessShard>>;

  // Shard i, read on reader i % readers into a spare shard's buffers;
  // nothing once stopping.
  ShardFuture submit(size_t i) {
    return readers[i % readers.size()]->submit([this, i]() -> Result<ChessShard> {
      if (stopping.load(std::memory_order_relaxed)) return Status::io("stopped");
      Result<ChessShard> shard = read_chess_shard(shards[i], options.limits, take_spare());
      if (shard.ok() && options.policy_targets && !shard->has_visits)
        return Status::invalid(shards[i] +
                               ": no visit counts (visit_offsets, visit_indices, visit_counts), which policy targets "
                               "need: a shard of self-play games has them, a corpus shard does not");
      if (shard.ok() && options.scores && !shard->has_scores)
        return Status::invalid(shards[i] +
                               ": no array 'scores', which a score value target needs: a corpus made with "
                               "`manaka chess corpus --scores` has them");
      return shard;
    });
  }

  ChessShard take_spare() {
    std::lock_guard lock(spare_mu);
    if (spare.empty()) return {};
    ChessShard s = std::move(spare.back());
    spare.pop_back();
    return s;
  }

  // A window's shards, cut, become spares (at most a window's worth).
  void give_spares(std::vector<ChessShard>& window) {
    std::lock_guard lock(spare_mu);
    for (ChessShard& s : window) {
      if (spare.size() < options.window) spare.push_back(std::move(s));
    }
  }

  // Cuts one window (its shards and row order) into batches; false once stopped.
  bool cut(const std::vector<ChessShard>& window, const std::vector<uint64_t>& starts,
           const std::vector<uint64_t>& order) {
    const uint64_t size = options.batch_size;
    const StatesType type = options.states;
    // A window row's shard and its row there.
    auto locate = [&](uint64_t row) {
      const size_t s = std::upper_bound(starts.begin(), starts.end(), row) - starts.begin() - 1;
      return std::pair<const ChessShard&, uint64_t>(window[s], row - starts[s]);
    };
    for (uint64_t start = 0; start < order.size(); start += size) {
      const uint64_t n = std::min(size, order.size() - start);
      Item item;
      ChessBatch& b = item.batch;
      b.rows = n;
      if (type == StatesType::Float32) b.states_f32 = pool->take_f32(n * PLANES_PER_POSITION);
      else b.states_i8 = pool->take_i8(n * PLANES_PER_POSITION);
      b.move_indices.resize(n);
      b.outcomes.resize(n);
      if (window.size() == 1) {
        constexpr uint64_t AHEAD = 2;  // rows prefetched ahead of the copy
        for (uint64_t k = 0; k < n; ++k) {
          if (k + AHEAD < n) prefetch_row(window[0], order[start + k + AHEAD]);
          copy_row(window[0], order[start + k], b, k, type);
        }
      } else {
        for (uint64_t k = 0; k < n; ++k) {
          const auto [shard, r] = locate(order[start + k]);
          copy_row(shard, r, b, k, type);
        }
      }
      if (options.scores) {
        b.scores.resize(n);
        for (uint64_t k = 0; k < n; ++k) {
          const auto [shard, r] = locate(order[start + k]);
          b.scores[k] = static_cast<float>(shard.scores[r]);
        }
      }
      if (options.policy_targets) {
        b.policy = pool->take_policy(n * chess::POLICY_SIZE);
        std::memset(b.policy.data(), 0, b.policy.size() * sizeof(float));
        for (uint64_t k = 0; k < n; ++k) {
          const auto [shard, r] = locate(order[start + k]);
          copy_visits(shard, r, b, k);
        }
      }
      if (!batches.push(std::move(item))) return false;
    }
    return true;
  }

  void run() {
    SplitMix64 rng(options.seed);
    const size_t per = options.window;
    const size_t ahead = per + readers.size();  // shards read or being read beyond those taken
    std::deque<ShardFuture> pending;
    size_t submitted = 0, taken = 0;
    auto top_up = [&] {
      while (submitted < shards.size() && pending.size() < ahead) pending.push_back(submit(submitted++));
    };
    Status error;
    top_up();
    while (taken < shards.size()) {
      std::vector<ChessShard> window;
      std::vector<uint64_t> starts = {0};
      for (size_t k = 0; k < per && taken < shards.size(); ++k, ++taken) {
        Result<ChessShard> shard = pending.front().get();
        pending.pop_front();
        if (!shard.ok()) {
          error = std::move(shard).take_status();
          break;
        }
        starts.push_back(starts.back() + shard->positions);
        window.push_back(std::move(*shard));
      }
      if (!error.ok() || stopping.load(std::memory_order_relaxed)) break;
      top_up();  // the next window is read while this one is cut
      std::vector<uint64_t> order(starts.back());
      std::iota(order.begin(), order.end(), uint64_t{0});
      if (options.shuffle) {
        for (uint64_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[uniform_below(rng, i)]);
      }
      if (!cut(window, starts, order)) return;
      give_spares(window);
    }
    Item tail;
    tail.error = std::move(error);
    tail.end = true;
    batches.push(std::move(tail));
  }

  std::vector<std::string> shards;
  BatchLoaderOptions options;
  std::shared_ptr<BatchPool> pool;
  std::mutex spare_mu;
  std::vector<ChessShard> spare;  // shards already cut, their buffers for the next reads
  Handoff<Item> batches;
  std::atomic<bool> stopping{false};
  Status final_error;
  bool done = false;
  std::vector<std::unique_ptr<TaskThread>> readers;
  std::thread batcher;  // last: started once the rest exists
};

Result<std::unique_ptr<BatchLoader>> BatchLoader::start(std::vector<std::string> shards,
                                                        const BatchLoaderOptions& options) {
  if (options.batch_size == 0) return Status::invalid("batch_size must be at least 1");
  if (options.window == 0) return Status::invalid("window must be at least 1 shard");
  if (options.prefetch == 0) return Status::invalid("prefetch must be at least 1 batch");
  if (options.readers == 0) return Status::invalid("readers must be at least 1 thread");
  auto state = std::make_unique<State>(std::move(shards), options);
  State* s = state.get();
  s->batcher = std::thread([s] { s->run(); });
  return std::unique_ptr<BatchLoader>(new BatchLoader(std::move(state)));
}

BatchLoader::BatchLoader(std::unique_ptr<State> state) : state_(std::move(state)) {}

BatchLoader::~BatchLoader() {
  state_->stopping.store(true);
  state_->batches.stop();
  state_->batcher.join();
  state_->readers.clear();  // each runs what is queued (returning at once) and joins
}

const BatchLoaderOptions& BatchLoader::options() const { return state_->options; }
const std::shared_ptr<BatchPool>& BatchLoader::pool() const { return state_->pool; }

Result<std::optional<ChessBatch>> BatchLoader::next() {
  State& s = *state_;
  if (s.done) {
    if (!s.final_error.ok()) return Status(s.final_error);
    return std::optional<ChessBatch>();
  }
  std::optional<Item> item = s.batches.pop();
  if (!item || item->end) {
    s.done = true;
    if (item) s.final_error = std::move(item->error);
    if (!s.final_error.ok()) return Status(s.final_error);
    return std::optional<ChessBatch>();
  }
  return std::optional<ChessBatch>(std::move(item->batch));
}

}  // namespace manaka::chess_corpus
