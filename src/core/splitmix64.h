// SplitMix64 (Steele, Lea & Flood): a small generator fully specified here,
// so a seed means the same sequence on every platform and standard library
// (std::uniform_int_distribution and std::shuffle are implementation-defined).
#pragma once

#include <cstdint>

namespace manaka {

class SplitMix64 {
 public:
  constexpr explicit SplitMix64(uint64_t seed) : x_(seed) {}
  constexpr uint64_t next() {
    uint64_t z = (x_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

 private:
  uint64_t x_;
};

}  // namespace manaka
