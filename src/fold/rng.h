// The converter's only source of randomness: a fully specified generator, so
// the same streams and seed give byte-identical shards on every platform and
// standard library (std::uniform_int_distribution's output is
// implementation-defined, and so is std::shuffle's).
//
//   SplitMix64    Steele, Lea & Flood's 64-bit mixer; used only to expand a
//                 64-bit seed into xoshiro's 256-bit state.
//   Xoshiro256ss  Blackman & Vigna's xoshiro256** 1.0.
//   below(n)      a uniform integer in [0, n): core/uniform.h.
//   shuffle()     Fisher-Yates from the back: for i = n-1 down to 1,
//                 swap(a[i], a[below(i + 1)]).
//
// Which generator each step uses (fold/pack.h):
//   in memory             for_spool(seed, Stream::InMemory, 0)
//   --buckets pass 2      for_spool(seed, Stream::Scatter, i)  for first-set spool i
//   --buckets pass 3      for_spool(seed, Stream::Permute, j)  for second-set spool j
// for_spool seeds SplitMix64 with (seed + index) XOR a per-stream constant:
// every spool gets SEED + spool, and the scatter and the permutation of the
// same index still draw from different sequences.
#pragma once

#include <cstdint>
#include <span>
#include <utility>

#include "core/splitmix64.h"
#include "core/uniform.h"

namespace manaka::fold {

using manaka::SplitMix64;

class Xoshiro256ss {
 public:
  enum class Stream : uint64_t {
    InMemory = 0,
    Scatter = 0x5CA77E5CA77E5CA7ull,
    Permute = 0x9E5A0D1E9E5A0D1Eull,
  };

  explicit Xoshiro256ss(uint64_t seed) {
    SplitMix64 sm(seed);
    for (uint64_t& w : s_) w = sm.next();
  }

  // A generator in a given state (not all zero); for known-answer tests.
  static Xoshiro256ss from_state(uint64_t s0, uint64_t s1, uint64_t s2, uint64_t s3) {
    Xoshiro256ss g(0);
    g.s_[0] = s0, g.s_[1] = s1, g.s_[2] = s2, g.s_[3] = s3;
    return g;
  }

  static Xoshiro256ss for_spool(uint64_t seed, Stream stream, uint64_t index) {
    return Xoshiro256ss((seed + index) ^ static_cast<uint64_t>(stream));
  }

  uint64_t next() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Uniform in [0, n); n must be > 0 (core/uniform.h).
  uint64_t below(uint64_t n) { return uniform_below(*this, n); }

  // Fisher-Yates as above. A swap's far end depends on the generator alone,
  // not on the items, so each is drawn kAhead swaps early and prefetched: in
  // a large array (pack's 2M groups, 15 MB) every far end is a cache miss.
  // The same draws in the same order: the same permutation.
  template <typename T>
  void shuffle(std::span<T> items) {
    constexpr size_t kAhead = 16;
    size_t ahead[kAhead];  // ahead[i % kAhead]: the far end of the swap at i
    size_t next = items.size();  // the next i to draw for
    auto draw = [&] {
      const size_t j = static_cast<size_t>(below(next));
      __builtin_prefetch(&items[j]);
      ahead[next % kAhead] = j;
      --next;
    };
    for (size_t k = 0; k < kAhead && next > 1; ++k) draw();
    for (size_t i = items.size(); i > 1; --i) {
      const size_t j = ahead[i % kAhead];  // read before the draw for i - kAhead takes its place
      if (next > 1) draw();
      std::swap(items[i - 1], items[j]);
    }
  }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

}  // namespace manaka::fold
