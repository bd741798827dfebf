#include "shogi/perft.h"

#include "shogi/movegen.h"

namespace manaka::shogi {

uint64_t perft(Position& pos, int depth) {
  if (depth <= 0) return 1;
  if (depth == 1) return uint64_t(count_legal(pos));
  MoveList list;
  generate_legal(pos, list);
  StateInfo st;
  uint64_t nodes = 0;
  for (Move m : list) {
    pos.do_move(m, st);
    nodes += perft(pos, depth - 1);
    pos.undo_move(m);
  }
  return nodes;
}

std::vector<std::pair<Move, uint64_t>> perft_divide(Position& pos, int depth) {
  MoveList list;
  generate_legal(pos, list);
  std::vector<std::pair<Move, uint64_t>> out;
  out.reserve(list.size);
  StateInfo st;
  for (Move m : list) {
    pos.do_move(m, st);
    out.emplace_back(m, perft(pos, depth - 1));
    pos.undo_move(m);
  }
  return out;
}

}  // namespace manaka::shogi
