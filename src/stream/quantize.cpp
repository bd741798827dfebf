#include "stream/quantize.h"
#include "core/text.h"

#include <cmath>
#include <cstdio>
#include <string>

namespace manaka::stream {

uint32_t quantize_probability(float p) {
  return static_cast<uint32_t>(std::round(static_cast<double>(p) * kPolicyScale));
}

Status quantize_policy(std::span<const uint16_t> moves, std::span<const float> probs,
                       std::vector<VisitedMove>& out) {
  out.clear();
  if (moves.size() != probs.size()) {
    return Status::invalid("quantize_policy: " + std::to_string(moves.size()) + " moves but " +
                           std::to_string(probs.size()) + " probabilities");
  }
  for (size_t i = 0; i < moves.size(); ++i) {
    float p = probs[i];
    if (!(std::isfinite(p) && p >= 0.0f && p <= 1.0f)) {
      return Status::invalid("quantize_policy: probability " + std::to_string(i) + " is " + number_text(p) +
                             ", must be finite and within [0, 1]");
    }
    uint32_t visits = quantize_probability(p);
    if (visits != 0) out.push_back(VisitedMove{moves[i], visits});
  }
  return Status();
}

}  // namespace manaka::stream
