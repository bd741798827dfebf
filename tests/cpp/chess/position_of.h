// Test helper: the position of a FEN the test knows is valid (a refusal fails
// the test and yields the start position, so the test goes on reporting).
#pragma once

#include <gtest/gtest.h>

#include "chess/position.h"

namespace manaka::chess {

inline Position position(const char* fen) {
  auto pos = Position::from_fen(fen);
  EXPECT_TRUE(pos.ok()) << pos.status().message();
  return pos.ok() ? *pos : Position::startpos();
}

}  // namespace manaka::chess
