// Random openings for shogi: a few uniformly random legal moves from the
// initial position, as the evaluation's game pairs start from (the chess
// one's twin, chess/opening.h, over shogi's rules).
#pragma once

#include <cstdint>
#include <vector>

#include "core/status.h"
#include "shogi/move.h"

namespace manaka::shogi {

inline constexpr int kMaxOpeningPlies = 40;
inline constexpr int kOpeningDraws = 1000;

// `plies` uniformly random legal moves from the initial position, drawn from
// (seed, index) alone and redrawn while they end the game (Game::outcome).
Result<std::vector<Move>> random_opening(uint64_t seed, uint64_t index, int plies);

}  // namespace manaka::shogi
