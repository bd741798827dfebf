#include "sazpack/distribution.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace manaka::sazpack {

std::vector<uint16_t> to_distribution(std::span<const float> p) {
  const size_t n = p.size();
  std::vector<uint16_t> out(n, 0);
  if (n == 0) return out;
  double sum = 0;
  for (float x : p) sum += std::max(0.0f, x);
  std::vector<double> share(n);
  for (size_t i = 0; i < n; ++i) share[i] = sum > 0 ? std::max(0.0f, p[i]) / sum * kDistributionTotal : double(kDistributionTotal) / double(n);
  uint32_t used = 0;
  for (size_t i = 0; i < n; ++i) used += out[i] = uint16_t(std::floor(share[i]));
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return share[a] - std::floor(share[a]) > share[b] - std::floor(share[b]);
  });
  for (size_t k = 0; used < kDistributionTotal; k = (k + 1) % n, ++used) out[order[k]]++;
  return out;
}

SazWdl wdl_of_value(float q) {
  q = std::clamp(q, -1.0f, 1.0f);
  const float w = std::max(q, 0.0f), l = std::max(-q, 0.0f);
  const float parts[3] = {w, 1.0f - w - l, l};
  auto d = to_distribution(parts);
  return SazWdl{d[0], d[1], d[2]};
}

}  // namespace manaka::sazpack
