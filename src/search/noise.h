// Random numbers of the search: uniform doubles, gamma and Dirichlet draws
// from SplitMix64, written out here rather than taken from <random> (whose
// distributions differ between standard libraries), so a seed gives the
// same games everywhere.
#pragma once

#include <cstdint>
#include <span>

#include "core/splitmix64.h"

namespace manaka::search {

class SearchRng {
 public:
  explicit SearchRng(uint64_t seed) : mix_(seed) {}
  uint64_t next() { return mix_.next(); }
  // Uniform in [0, 1), 53 bits.
  double uniform() { return double(next() >> 11) * 0x1.0p-53; }
  // Gamma(shape, 1), shape > 0: Marsaglia and Tsang's method (boosted by
  // U^(1/shape) below shape 1).
  double gamma(double shape);
  // Fills out with a Dirichlet(alpha, ..., alpha) draw.
  void dirichlet(double alpha, std::span<float> out);

 private:
  double normal();
  SplitMix64 mix_;
};

}  // namespace manaka::search
