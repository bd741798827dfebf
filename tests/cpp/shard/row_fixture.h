// Row i of the shard tests' synthetic sets: every field a function of i (a
// distinct board, 1-5 candidates), cp given or null. Not a test itself.
#pragma once

#include <cstdint>

#include "../fold/mpk_fixture.h"
#include "shard/row.h"

namespace manaka::testing {

inline shard::Row numbered_row(uint32_t i, bool with_cp) {
  shard::Row r;
  r.packed = board(i);
  r.ply = static_cast<uint16_t>(i % 300);
  r.value_z = static_cast<float>(i % 3) - 1.0f;
  r.value_q = 0.001f * static_cast<float>(i % 1000);
  r.weight = 1 + i % 4;
  for (uint32_t c = 0; c < 1 + i % 5; ++c) {
    r.mv.push_back(mv(static_cast<int>(c), static_cast<int>(i % 81)));
    r.prob.push_back(1.0f / static_cast<float>(1 + i % 5));
    r.cp.push_back(with_cp ? static_cast<int16_t>(c * 10 - 20) : shard::kNullCp);
  }
  return r;
}

}  // namespace manaka::testing
