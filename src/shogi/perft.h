// Perft: the number of leaf positions of the legal move tree, the standard
// check of a move generator against published counts.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "shogi/move.h"
#include "shogi/position.h"

namespace manaka::shogi {

// Leaves at `depth` plies below pos (1 at depth 0). The last ply is counted
// with count_legal, not played. pos is left as it was found.
uint64_t perft(Position& pos, int depth);
// perft(pos, depth) split by first move, in generation order; depth >= 1.
std::vector<std::pair<Move, uint64_t>> perft_divide(Position& pos, int depth);

}  // namespace manaka::shogi
