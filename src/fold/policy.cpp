#include "fold/policy.h"

#include <cassert>
#include <cmath>

namespace manaka::fold {

uint16_t effective_mate_slack(const stream::Header& header) {
  if (header.mate_scale == 0) return 0;
  return header.mate_slack != 0 ? header.mate_slack : kDefaultMateSlack;
}

MateBand mate_band(const stream::Header& header) {
  MateBand band;
  band.enabled = header.mate_scale != 0;
  band.threshold = static_cast<int32_t>(header.mate_scale) - effective_mate_slack(header);
  return band;
}

namespace {

template <typename V>
void normalise(std::span<const V> visits, std::span<float> prob) {
  assert(visits.size() == prob.size());
  uint64_t total = 0;
  for (V v : visits) total += v;
  const double inv = total > 0 ? 1.0 / static_cast<double>(total) : 0.0;
  for (size_t i = 0; i < visits.size(); ++i) {
    prob[i] = static_cast<float>(static_cast<double>(visits[i]) * inv);
  }
}

}  // namespace

void normalise_visits(std::span<const uint64_t> visits, std::span<float> prob) { normalise(visits, prob); }
void normalise_visits(std::span<const uint16_t> visits, std::span<float> prob) { normalise(visits, prob); }

void softmax_cp(std::span<const int16_t> cp, double temperature, std::span<float> prob) {
  assert(cp.size() == prob.size() && !cp.empty() && temperature > 0);
  int32_t top = cp[0];
  for (int16_t c : cp) top = c > top ? c : top;
  // exp of a non-positive argument: never overflows, the leader's term is 1,
  // so the sum is >= 1 and never underflows to zero.
  double sum = 0.0;
  for (int16_t c : cp) sum += std::exp(static_cast<double>(c - top) / temperature);
  for (size_t i = 0; i < cp.size(); ++i) {
    prob[i] = static_cast<float>(std::exp(static_cast<double>(cp[i] - top) / temperature) / sum);
  }
}

void cp_policy(std::span<const int16_t> cp, double temperature, const MateBand& band,
               std::span<float> prob) {
  assert(cp.size() == prob.size() && !cp.empty());
  size_t lead = 0;
  for (size_t i = 1; i < cp.size(); ++i) {
    if (cp[i] > cp[lead]) lead = i;
  }
  if (band.is_mate(cp[lead])) {
    for (size_t i = 0; i < cp.size(); ++i) prob[i] = i == lead ? 1.0f : 0.0f;
    return;
  }
  softmax_cp(cp, temperature, prob);
}

void PolicyRule::cp_prob(std::span<const int16_t> cp, uint8_t side, std::vector<int16_t>& turned,
                         std::span<float> prob) const {
  if (stream::side_to_move_sign(pov, side) > 0) {
    cp_policy(cp, temperature, band, prob);
    return;
  }
  turned.resize(cp.size());  // cp-sourced: every candidate has cp (rules 7, 8), never NO_CP, so -cp fits
  for (size_t i = 0; i < cp.size(); ++i) turned[i] = static_cast<int16_t>(-cp[i]);
  cp_policy(turned, temperature, band, prob);
}

int64_t rounded_mean(int64_t sum, int64_t n) {
  assert(n > 0);
  if (sum >= 0) return (2 * sum + n) / (2 * n);
  return -((-2 * sum + n) / (2 * n));
}

}  // namespace manaka::fold
