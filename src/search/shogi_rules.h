// Shogi for the search (rules.h): shogi::Game, the 44 planes and 11259
// policy indices of shogi/encode.h and shogi/move_index.h, and games ended
// by the rules of shogi/game.h (no legal move, sennichite and perpetual
// check); self-play adds its ply limit.
#pragma once

#include "search/game_rules.h"
#include "shogi/encode.h"
#include "shogi/game.h"
#include "shogi/move_index.h"
#include "shogi/movegen.h"

namespace manaka::search {

inline std::optional<shogi::Outcome> shogi_game_over(const shogi::Game& g) { return g.outcome(); }

using ShogiRules = GameRules<shogi::Game, shogi::MoveList, shogi::Outcome, shogi::PLANES_SIZE, shogi::POLICY_SIZE,
                             shogi::MAX_MOVES, &shogi_game_over>;

}  // namespace manaka::search
