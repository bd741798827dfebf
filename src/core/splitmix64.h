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

// The seed of item `index` (a game, a pair) of a run seeded with `seed`:
// items get independent streams, and item i's stream does not depend on how
// many numbers item i - 1 drew.
constexpr uint64_t derived_seed(uint64_t seed, uint64_t index) {
  SplitMix64 mix(seed ^ (index * 0xD1B54A32D192ED03ull));
  mix.next();
  return mix.next();
}

}  // namespace manaka
