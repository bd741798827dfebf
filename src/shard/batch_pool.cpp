#include "shard/batch_pool.h"

#include <cstdint>
#include <utility>

namespace manaka::shard {

namespace {

// The last waiting buffer of `column`, moved out (an empty vector when none).
template <typename T>
std::vector<T> pop(std::vector<ShardBatch>& spares, std::vector<T> ShardBatch::*column) {
  for (size_t i = spares.size(); i-- > 0;) {
    std::vector<T>& v = spares[i].*column;
    if (v.capacity() > 0) return std::exchange(v, {});
  }
  return {};
}

}  // namespace

ShardBatch ShardBatchPool::take(const ShardColumns& want) {
  ShardBatch b;
  std::lock_guard lock(mu_);
  if (want.packed) b.packed = pop(spares_, &ShardBatch::packed);
  if (want.ply) b.ply = pop(spares_, &ShardBatch::ply);
  if (want.value_z) b.value_z = pop(spares_, &ShardBatch::value_z);
  if (want.value_q) b.value_q = pop(spares_, &ShardBatch::value_q);
  if (want.weight) b.weight = pop(spares_, &ShardBatch::weight);
  if (want.candidates) {
    b.cand_offsets = pop(spares_, &ShardBatch::cand_offsets);
    b.mv = pop(spares_, &ShardBatch::mv);
    b.prob = pop(spares_, &ShardBatch::prob);
    b.cp = pop(spares_, &ShardBatch::cp);
  }
  return b;
}

template <typename T>
void ShardBatchPool::give(std::vector<T> ShardBatch::*column, std::vector<T>&& buffer) {
  if (buffer.capacity() == 0) return;
  // Its size is kept: a reader resizing it to a like row group's then fills
  // no zeros before overwriting.
  std::vector<T> dropped;  // freed outside the lock
  std::lock_guard lock(mu_);
  for (ShardBatch& spare : spares_) {
    if ((spare.*column).capacity() == 0) {
      spare.*column = std::move(buffer);
      return;
    }
  }
  if (spares_.size() < keep_) {
    spares_.emplace_back().*column = std::move(buffer);
    return;
  }
  dropped = std::move(buffer);
}

template void ShardBatchPool::give(std::vector<uint8_t> ShardBatch::*, std::vector<uint8_t>&&);
template void ShardBatchPool::give(std::vector<uint16_t> ShardBatch::*, std::vector<uint16_t>&&);
template void ShardBatchPool::give(std::vector<uint32_t> ShardBatch::*, std::vector<uint32_t>&&);
template void ShardBatchPool::give(std::vector<int16_t> ShardBatch::*, std::vector<int16_t>&&);
template void ShardBatchPool::give(std::vector<int64_t> ShardBatch::*, std::vector<int64_t>&&);
template void ShardBatchPool::give(std::vector<float> ShardBatch::*, std::vector<float>&&);

void ShardBatchPool::give(ShardBatch&& b) {
  give(&ShardBatch::packed, std::move(b.packed));
  give(&ShardBatch::ply, std::move(b.ply));
  give(&ShardBatch::value_z, std::move(b.value_z));
  give(&ShardBatch::value_q, std::move(b.value_q));
  give(&ShardBatch::weight, std::move(b.weight));
  give(&ShardBatch::cand_offsets, std::move(b.cand_offsets));
  give(&ShardBatch::mv, std::move(b.mv));
  give(&ShardBatch::prob, std::move(b.prob));
  give(&ShardBatch::cp, std::move(b.cp));
}

}  // namespace manaka::shard
