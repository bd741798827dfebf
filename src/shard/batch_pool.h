// Column buffers of handed-out batches, given back when their reader is done
// with them, so the next row group decodes into pages already faulted in: a
// fresh batch's columns are large mallocs (glibc mmaps them), and the kernel
// zeroing those new pages cost a reader more than copying the values in.
//
// Each column is given back on its own (numpy frees the arrays of one batch
// one by one); take() assembles a batch from whatever waits. At most `keep`
// buffers wait per column, the rest are freed: the pool is bounded, and a
// buffer its caller keeps simply never comes back.
#pragma once

#include <cstddef>
#include <mutex>
#include <vector>

#include "shard/shard_reader.h"

namespace manaka::shard {

class ShardBatchPool {
 public:
  explicit ShardBatchPool(size_t keep) : keep_(keep) {}
  ShardBatchPool(const ShardBatchPool&) = delete;
  ShardBatchPool& operator=(const ShardBatchPool&) = delete;

  // A batch whose `columns` are given-back buffers, their last values still
  // in them (read_row_group_into overwrites them); the others are empty.
  ShardBatch take(const ShardColumns& columns);
  // One column's buffer back (`column` names which: &ShardBatch::mv).
  template <typename T>
  void give(std::vector<T> ShardBatch::*column, std::vector<T>&& buffer);
  // Every column of `batch` back.
  void give(ShardBatch&& batch);

 private:
  std::mutex mu_;
  size_t keep_;
  // spares_[i].*column is the i-th waiting buffer of that column; a zero
  // capacity marks none.
  std::vector<ShardBatch> spares_;
};

}  // namespace manaka::shard
