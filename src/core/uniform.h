// A uniform integer in [0, n) from any generator with next() -> u64, the same
// on every platform (std::uniform_int_distribution's output is
// implementation-defined): Lemire's multiply-shift with rejection, the high
// 64 bits of next() * n, redrawn while the low 64 bits fall under 2^64 mod n.
// The first draw is kept unless it lands in the biased sliver (a chance of
// n / 2^64), so it is exact at the cost of almost nothing.
#pragma once

#include <cstdint>

namespace manaka {

template <typename Rng>
uint64_t uniform_below(Rng& rng, uint64_t n) {
  unsigned __int128 m = static_cast<unsigned __int128>(rng.next()) * n;
  auto low = static_cast<uint64_t>(m);
  if (low < n) {
    const uint64_t floor = (0 - n) % n;  // 2^64 mod n
    while (low < floor) {
      m = static_cast<unsigned __int128>(rng.next()) * n;
      low = static_cast<uint64_t>(m);
    }
  }
  return static_cast<uint64_t>(m >> 64);
}

}  // namespace manaka
