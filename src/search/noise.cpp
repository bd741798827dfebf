#include "search/noise.h"

#include <cmath>

namespace manaka::search {

double SearchRng::normal() {
  // Box-Muller; 1 - uniform() is in (0, 1], so the logarithm is finite.
  double u = 1.0 - uniform(), v = uniform();
  return std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * M_PI * v);
}

double SearchRng::gamma(double shape) {
  if (shape < 1.0) return gamma(shape + 1.0) * std::pow(1.0 - uniform(), 1.0 / shape);
  const double d = shape - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    double x, v;
    do {
      x = normal();
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    double u = 1.0 - uniform();
    if (std::log(u) < 0.5 * x * x + d - d * v + d * std::log(v)) return d * v;
  }
}

void SearchRng::dirichlet(double alpha, std::span<float> out) {
  double sum = 0;
  for (float& x : out) sum += x = float(gamma(alpha));
  if (sum <= 0) {  // every draw underflowed (tiny alpha): uniform
    for (float& x : out) x = 1.0f / float(out.size());
    return;
  }
  for (float& x : out) x = float(x / sum);
}

}  // namespace manaka::search
