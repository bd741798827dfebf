// The fold's 64-bit hash of a 96-byte board. Fixed here rather than taken
// from std::hash, because --buckets partitions records by it and the shards
// must not depend on the standard library.
//
// Twelve little-endian u64 words, each absorbed as h = (h ^ w) * K;
// h ^= h >> 32 (both steps bijective, so boards differing in one word never
// collide), then SplitMix64's finaliser.
//
// Its two halves have separate jobs: the high 32 bits place a board in the
// fold's hash table (fold/fold_table.h) and the low 32 bits choose its
// --buckets spool (bucket_of), so a spool's boards still spread over the
// whole table.
#pragma once

#include <cstdint>

#include "core/bytes.h"

namespace manaka::fold {

inline constexpr size_t kBoardBytes = 96;

inline uint64_t hash_board(const uint8_t* p) {
  constexpr uint64_t kMul = 0x9E3779B97F4A7C15ull;
  uint64_t h = 0x243F6A8885A308D3ull;
  for (size_t i = 0; i < kBoardBytes; i += 8) {
    h = (h ^ load_u64(p + i)) * kMul;
    h ^= h >> 32;
  }
  h ^= h >> 30;
  h *= 0xBF58476D1CE4E5B9ull;
  h ^= h >> 27;
  h *= 0x94D049BB133111EBull;
  return h ^ (h >> 31);
}

// The spool in [0, buckets) a board hashing to h goes to (multiply-shift on
// the low 32 bits).
inline uint32_t bucket_of(uint64_t h, uint32_t buckets) {
  return static_cast<uint32_t>(((h & 0xFFFFFFFFull) * buckets) >> 32);
}

}  // namespace manaka::fold
