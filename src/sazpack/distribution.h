// Probabilities and values as SAZ2 stores them: distributions of u16 that
// sum to exactly 65535 (priors, WDL triples).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "sazpack/format.h"

namespace manaka::sazpack {

// p (non-negative weights, not all 0) scaled to integers summing to exactly
// kDistributionTotal: each gets floor(p_i / sum * 65535), and the units left
// go to the largest remainders (ties: the lower index), so the result is the
// closest such vector and depends on nothing but p. All-zero weights give an
// even split.
std::vector<uint16_t> to_distribution(std::span<const float> p);

// A scalar value q in [-1, 1] for the side to move, as a WDL with win - loss
// = q and draw = 1 - |q| (the search has no draw head): q = 0.5 is
// (0.5, 0.5, 0), q = 0 is a sure draw. SAZ2 readers take value_q back as
// (win - loss) / 65535 (sazpack/to_mpk.h).
SazWdl wdl_of_value(float q);

}  // namespace manaka::sazpack
