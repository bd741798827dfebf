// A set of 64-bit hashes (sampler.h's position hashes) by open addressing:
// linear probing in a power-of-two table at most half full, erasure by
// backward shift (no tombstones). The sampler asks it once per candidate
// position, on the one thread that runs the draws, so it is kept to a
// probe or two where std::unordered_set takes a division and a pointer
// chase. The hashes are well mixed already: the slot is the low bits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace manaka::vpd {

class HashSet64 {
 public:
  bool contains(uint64_t key) const {
    if (key == EMPTY) return has_empty_;
    if (slots_.empty()) return false;
    for (size_t i = key & mask_;; i = (i + 1) & mask_) {
      if (slots_[i] == key) return true;
      if (slots_[i] == EMPTY) return false;
    }
  }

  void insert(uint64_t key) {
    if (key == EMPTY) {
      size_ += !has_empty_;
      has_empty_ = true;
      return;
    }
    if ((size_ + 1) * 2 > slots_.size()) grow();
    size_t i = key & mask_;
    for (; slots_[i] != EMPTY; i = (i + 1) & mask_)
      if (slots_[i] == key) return;
    slots_[i] = key;
    ++size_;
  }

  void erase(uint64_t key) {
    if (key == EMPTY) {
      size_ -= has_empty_;
      has_empty_ = false;
      return;
    }
    if (slots_.empty()) return;
    size_t i = key & mask_;
    for (; slots_[i] != key; i = (i + 1) & mask_)
      if (slots_[i] == EMPTY) return;
    // Backward shift: each later key of the run moves into the hole unless
    // its home slot lies cyclically in (hole, its slot].
    for (size_t j = (i + 1) & mask_; slots_[j] != EMPTY; j = (j + 1) & mask_) {
      const size_t home = slots_[j] & mask_;
      const bool stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
      if (stays) continue;
      slots_[i] = slots_[j];
      i = j;
    }
    slots_[i] = EMPTY;
    --size_;
  }

  size_t size() const { return size_; }
  void clear() {
    slots_.clear();
    mask_ = 0;
    size_ = 0;
    has_empty_ = false;
  }

 private:
  static constexpr uint64_t EMPTY = 0;  // a key of 0 is held by has_empty_
  static constexpr size_t MIN_SLOTS = 1024;

  void grow() {
    std::vector<uint64_t> old = std::move(slots_);
    slots_.assign(old.empty() ? MIN_SLOTS : old.size() * 2, EMPTY);
    mask_ = slots_.size() - 1;
    for (uint64_t k : old) {
      if (k == EMPTY) continue;
      size_t i = k & mask_;
      while (slots_[i] != EMPTY) i = (i + 1) & mask_;
      slots_[i] = k;
    }
  }

  std::vector<uint64_t> slots_;
  size_t mask_ = 0;
  size_t size_ = 0;  // has_empty_ included
  bool has_empty_ = false;
};

}  // namespace manaka::vpd
