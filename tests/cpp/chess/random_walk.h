// Test helper: positions along seeded random legal games from the start
// position and the published perft positions (castling, en passant,
// promotions, pins), so a property checked on each meets the rare rules.
#pragma once

#include <cstdint>
#include <vector>

#include "chess/movegen.h"
#include "core/splitmix64.h"
#include "position_of.h"

namespace manaka::chess {

inline const std::vector<const char*>& walk_starts() {
  static const std::vector<const char*> fens = {
      "startpos",
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
      "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
      "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
      "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
      "8/P1k5/K7/8/8/8/8/8 w - - 0 1",
      "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
  };
  return fens;
}

// `games` random games of up to `plies` moves each, cycling through
// walk_starts(); every position visited (starts included) in order.
inline std::vector<Position> random_walk(uint64_t seed, int games, int plies) {
  SplitMix64 rng(seed);
  std::vector<Position> out;
  for (int g = 0; g < games; ++g) {
    Position pos = position(walk_starts()[size_t(g) % walk_starts().size()]);
    out.push_back(pos);
    for (int ply = 0; ply < plies; ++ply) {
      MoveList list;
      generate_legal(pos, list);
      if (list.empty()) break;
      pos.do_move(list[int(rng.next() % uint64_t(list.size))]);
      out.push_back(pos);
    }
  }
  return out;
}

}  // namespace manaka::chess
