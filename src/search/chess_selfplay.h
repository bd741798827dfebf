// Chess self-play as training data: the searched positions of every game,
// in game order, as the arrays of the chess corpus's npz shards (spec
// "Chess encodings") plus the search's visit counts as policy targets.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "chess/game.h"
#include "core/status.h"
#include "search/chess_rules.h"
#include "search/selfplay.h"

namespace manaka::search {

struct ChessSelfPlayOptions {
  SearchOptions search;
  int games = 1;
  int max_plies = 512;      // searched plies; then the game is a draw
  int opening_plies = 0;    // random plies first (chess/opening.h), not recorded
  uint64_t first_game = 0;  // the games are first_game.. of a run (their seeds and openings)
};

inline constexpr int kMaxSelfPlayGames = 1'000'000;
inline constexpr int kMaxSelfPlayPlies = 10'000;

// N positions over G games; M visited moves.
struct ChessSelfPlayData {
  std::vector<int8_t> states;          // N x 20 x 8 x 8
  std::vector<int32_t> move_indices;   // N: the move played
  std::vector<int8_t> outcomes;        // N: z for the side to move, -1 0 1
  std::vector<int64_t> visit_offsets;  // N + 1: position i's visits are [offsets[i], offsets[i+1])
  std::vector<int32_t> visit_indices;  // M: policy indices of the root's children
  std::vector<int32_t> visit_counts;   // M: their visits (> 0; unvisited children left out)
  std::vector<float> root_values;      // N: the search's value, side to move
  std::vector<int64_t> game_offsets;   // G + 1: game g's positions
  std::vector<std::string> results;       // G: "1-0", "0-1", "1/2-1/2"
  std::vector<std::string> terminations;  // G: python-chess's names, or "MAX_PLIES"
  std::vector<std::string> openings;      // G: the opening's moves, UCI, space-separated
  EvaluatorStats stats;
};

Status check_options(const ChessSelfPlayOptions& options);

Result<ChessSelfPlayData> chess_self_play(const ChessSelfPlayOptions& options, const Network& network,
                                          const Poll& poll, SelfPlayCounters* counters = nullptr);

// Lays played games out as ChessSelfPlayData (the stats left empty).
ChessSelfPlayData chess_training_data(const std::vector<PlayedGame<ChessRules>>& games);

}  // namespace manaka::search
