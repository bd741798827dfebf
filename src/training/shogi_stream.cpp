#include "training/shogi_stream.h"

#include <algorithm>
#include <utility>

namespace manaka::training {

Result<std::unique_ptr<ShogiStream>> ShogiStream::open(std::vector<std::string> paths,
                                                       const ShogiStreamOptions& options) {
  if (options.batch_size < 1) return Status::usage("batch_size must be at least 1");
  if (!(options.targets.value_q_weight >= 0.0f && options.targets.value_q_weight <= 1.0f))
    return Status::usage("value_q_weight must be in [0, 1], got " + std::to_string(options.targets.value_q_weight));
  shard::ShardStreamOptions so;
  so.columns = shogi_batch_columns();
  so.threads = options.threads;
  MANAKA_ASSIGN_OR_RETURN(auto shards, shard::ShardStream::open(paths, so));
  return std::unique_ptr<ShogiStream>(new ShogiStream(std::move(paths), options, std::move(shards)));
}

ShogiStream::ShogiStream(std::vector<std::string> paths, const ShogiStreamOptions& options,
                         std::unique_ptr<shard::ShardStream> shards)
    : paths_(std::move(paths)), options_(options), shards_(std::move(shards)) {
  options_.depth = std::max(1u, options_.depth);
  worker_ = std::thread([this] { work(); });
}

ShogiStream::~ShogiStream() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  worker_.join();
}

bool ShogiStream::push(Result<ShogiBatch> batch) {
  std::unique_lock lock(mu_);
  cv_.wait(lock, [&] { return stopping_ || ready_.size() < options_.depth; });
  if (stopping_) return false;
  ready_.push_back(std::move(batch));
  cv_.notify_all();
  return true;
}

void ShogiStream::work() {
  Status s = fill();
  if (!s.ok()) push(std::move(s));
  std::lock_guard lock(mu_);
  ended_ = true;
  cv_.notify_all();
}

Status ShogiStream::fill() {
  const int64_t size = options_.batch_size;
  auto fresh = [&] {
    ShogiBatch b;
    b.reset(size);
    return b;
  };
  ShogiBatch out = fresh();
  int64_t filled = 0;
  shard::ShardBatch in;
  while (true) {
    MANAKA_ASSIGN_OR_RETURN(bool more, shards_->next(in));
    if (!more) break;
    const std::string where = paths_[in.file] + " row group " + std::to_string(in.group);
    for (int64_t first = 0; first < in.rows;) {
      const int64_t n = std::min(in.rows - first, size - filled);
      MANAKA_RETURN_NOT_OK(encode_rows(in, first, n, options_.targets, out, filled, where));
      first += n;
      filled += n;
      if (filled == size) {
        if (!push(std::move(out))) return Status();
        out = fresh();
        filled = 0;
      }
    }
    shards_->pool()->give(std::move(in));
    in = shard::ShardBatch{};
  }
  if (filled > 0 && !options_.drop_last) {
    out.truncate(filled);
    push(std::move(out));
  }
  return Status();
}

Result<bool> ShogiStream::next(ShogiBatch& out) {
  std::unique_lock lock(mu_);
  cv_.wait(lock, [&] { return !ready_.empty() || ended_; });
  if (ready_.empty()) return false;
  Result<ShogiBatch> got = std::move(ready_.front());
  ready_.pop_front();
  cv_.notify_all();
  if (!got.ok()) {
    ended_ = true;
    ready_.clear();
    return std::move(got).take_status();
  }
  out = std::move(*got);
  return true;
}

}  // namespace manaka::training
