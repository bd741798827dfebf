// Perft: the number of leaf positions of the legal move tree, the standard
// check of a move generator against published counts.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "chess/move.h"
#include "chess/position.h"

namespace manaka::chess {

// Leaves at `depth` plies below pos (1 at depth 0). The last ply is counted
// with count_legal, not played (bulk counting).
uint64_t perft(const Position& pos, int depth);
// perft(pos, depth) split by first move, in generation order; depth >= 1.
std::vector<std::pair<Move, uint64_t>> perft_divide(const Position& pos, int depth);

}  // namespace manaka::chess
