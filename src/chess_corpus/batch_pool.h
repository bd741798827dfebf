// Recycled states buffers for the batch loader. A batch's states are most
// of its bytes (batch_size * 1280 floats, 1.3 MB at 256 rows); allocated
// fresh for every batch, each is a new mapping whose pages the kernel must
// fault in and zero. Buffers handed back here, when the consumer is done
// with a batch (the numpy array's owner gives it back as it dies), are
// reused instead. Thread-safe; keeps at most `keep` buffers of each kind
// (float32 states, int8 states, float32 policy targets: kept apart, as
// their sizes differ).
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

#include "core/default_init.h"

namespace manaka::chess_corpus {

class BatchPool {
 public:
  explicit BatchPool(size_t keep) : keep_(keep) {}

  // A buffer of n elements (contents undefined).
  UninitVector<float> take_f32(size_t n) { return take(free_f32_, n); }
  UninitVector<int8_t> take_i8(size_t n) { return take(free_i8_, n); }
  void give(UninitVector<float>&& v) { put(free_f32_, std::move(v)); }
  void give(UninitVector<int8_t>&& v) { put(free_i8_, std::move(v)); }
  UninitVector<float> take_policy(size_t n) { return take(free_policy_, n); }
  void give_policy(UninitVector<float>&& v) { put(free_policy_, std::move(v)); }

 private:
  template <typename T>
  UninitVector<T> take(std::vector<UninitVector<T>>& list, size_t n) {
    UninitVector<T> v;
    {
      std::lock_guard lock(mu_);
      if (!list.empty()) {
        v = std::move(list.back());
        list.pop_back();
      }
    }
    v.resize(n);
    return v;
  }
  template <typename T>
  void put(std::vector<UninitVector<T>>& list, UninitVector<T>&& v) {
    std::lock_guard lock(mu_);
    if (list.size() < keep_ && v.capacity() > 0) list.push_back(std::move(v));
  }

  std::mutex mu_;
  size_t keep_;
  std::vector<UninitVector<float>> free_f32_;
  std::vector<UninitVector<int8_t>> free_i8_;
  std::vector<UninitVector<float>> free_policy_;
};

}  // namespace manaka::chess_corpus
