// Chess for the search (rules.h): chess::Game, the corpus's 20 planes and
// 4672 policy indices, and games ended as the corpus and the evaluation end
// them, by python-chess's outcome(claim_draw=True).
#pragma once

#include "chess/encode.h"
#include "chess/game.h"
#include "chess/move_index.h"
#include "chess/movegen.h"
#include "search/game_rules.h"

namespace manaka::search {

inline std::optional<chess::Outcome> chess_game_over(const chess::Game& g) { return g.outcome(true); }

using ChessRules = GameRules<chess::Game, chess::MoveList, chess::Outcome, chess::PLANES_SIZE, chess::POLICY_SIZE,
                             chess::MAX_MOVES, &chess_game_over>;

}  // namespace manaka::search
