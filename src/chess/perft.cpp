#include "chess/perft.h"

#include "chess/movegen.h"

namespace manaka::chess {

uint64_t perft(const Position& pos, int depth) {
  if (depth <= 0) return 1;
  if (depth == 1) return uint64_t(count_legal(pos));
  MoveList list;
  generate_legal(pos, list);
  uint64_t nodes = 0;
  for (Move m : list) {
    Position next = pos;
    next.do_move(m);
    nodes += perft(next, depth - 1);
  }
  return nodes;
}

std::vector<std::pair<Move, uint64_t>> perft_divide(const Position& pos, int depth) {
  MoveList list;
  generate_legal(pos, list);
  std::vector<std::pair<Move, uint64_t>> out;
  out.reserve(size_t(list.size));
  for (Move m : list) {
    Position next = pos;
    next.do_move(m);
    out.emplace_back(m, perft(next, depth - 1));
  }
  return out;
}

}  // namespace manaka::chess
