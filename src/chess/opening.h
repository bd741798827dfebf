// Random openings: a few uniformly random legal moves from the initial
// position, as the evaluation's game pairs and self-play start from.
#pragma once

#include <cstdint>
#include <vector>

#include "chess/move.h"
#include "core/status.h"

namespace manaka::chess {

inline constexpr int kMaxOpeningPlies = 40;
// How often an opening that ends the game is redrawn before giving up.
inline constexpr int kOpeningDraws = 1000;

// `plies` uniformly random legal moves from the initial position, drawn from
// (seed, index) alone (index: a game, a pair of games) and redrawn while they
// end the game (Game::outcome(claim_draw = true)).
Result<std::vector<Move>> random_opening(uint64_t seed, uint64_t index, int plies);

}  // namespace manaka::chess
