// A float policy as visit counts at a fixed scale, for producers whose search
// returns a distribution rather than playouts (DLManaka's Gumbel improved
// policy): visits = round(p * 65536), so a count of 1 means 2^-16 of
// probability, not one playout. Moves below half a quantum (p < 2^-17,
// which round to 0) are dropped; exactly half a quantum rounds up to 1
// (halves away from zero). The product is exact in double, so the rounding
// is exact too.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/status.h"
#include "stream/selfplay_writer.h"

namespace manaka::stream {

inline constexpr double kPolicyScale = 65536.0;

// round(p * 65536) for one probability; p must be finite and in [0, 1].
uint32_t quantize_probability(float p);

// Appends (mv, visits) for every move whose count is nonzero, in input order,
// to out (cleared first). Refuses mismatched lengths and probabilities that
// are not finite or outside [0, 1]; the sum is not checked.
Status quantize_policy(std::span<const uint16_t> moves, std::span<const float> probs,
                       std::vector<VisitedMove>& out);

}  // namespace manaka::stream
