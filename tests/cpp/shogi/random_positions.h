// Test helpers: packed positions to check validation against, valid and
// not. Included by shogi, stream and fold tests; not a test itself.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <random>
#include <utility>
#include <vector>

#include "shogi/movegen.h"
#include "shogi/pack.h"
#include "shogi/position.h"

namespace manaka::testing {

// n positions met along random legal games from the initial position (each
// game 1-200 plies), in the order played.
inline std::vector<shogi::Packed> random_game_positions(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<shogi::Packed> out;
  while (out.size() < n) {
    shogi::Position pos = shogi::Position::startpos();
    std::deque<shogi::StateInfo> states;
    const int plies = 1 + static_cast<int>(rng() % 200);
    for (int ply = 0; ply < plies && out.size() < n; ++ply) {
      shogi::MoveList list;
      shogi::generate_legal(pos, list);
      if (list.empty()) break;
      out.push_back(shogi::pack(pos));
      states.emplace_back();
      pos.do_move(list[static_cast<int>(rng() % static_cast<uint64_t>(list.size))], states.back());
    }
  }
  return out;
}

// A whole set scattered at random: both kings (sometimes a third, or none)
// on random squares, every other piece on a random empty square (promoted
// half the time) or in a random hand, a random side to move. Breaks every
// rule now and then (check, nifu, dead pieces, kings), and often none.
inline shogi::Packed random_setup(std::mt19937_64& rng) {
  using namespace shogi;
  Packed b{};
  std::fill(b.begin(), b.begin() + SQUARE_NB, NO_PIECE);
  auto empty_square = [&] {
    for (;;) {
      const auto s = static_cast<size_t>(rng() % SQUARE_NB);
      if (b[s] == NO_PIECE) return s;
    }
  };
  const int kings = rng() % 16 == 0 ? static_cast<int>(rng() % 4) : 2;
  for (int k = 0; k < kings; ++k) b[empty_square()] = make_piece(Color(k % 2), KING);
  for (int k = ROOK; k <= PAWN; ++k) {
    for (int i = 0; i < SET_COUNT[k]; ++i) {
      const auto c = Color(rng() % 2);
      if (rng() % 3 == 0) {
        ++b[PACKED_HAND + static_cast<size_t>(c) * HAND_KIND_NB + HAND_OF[k]];
      } else {
        const bool promote = can_promote(Kind(k)) && rng() % 2 == 0;
        b[empty_square()] = make_piece(c, promote ? PROMOTED[k] : Kind(k));
      }
    }
  }
  b[PACKED_SIDE] = static_cast<uint8_t>(rng() % 2);
  return b;
}

// One random change to the bytes: a random value, a flipped bit, a random
// piece on a random square, two squares swapped, a square emptied, or a
// hand count moved by one.
inline void mutate(shogi::Packed& b, std::mt19937_64& rng) {
  using namespace shogi;
  const auto square = [&] { return static_cast<size_t>(rng() % SQUARE_NB); };
  switch (rng() % 6) {
    case 0: b[rng() % PACKED_LEN] = static_cast<uint8_t>(rng()); break;
    case 1: b[rng() % PACKED_LEN] ^= static_cast<uint8_t>(1u << (rng() % 8)); break;
    case 2: b[square()] = make_piece(Color(rng() % 2), Kind(rng() % KIND_NB)); break;
    case 3: std::swap(b[square()], b[square()]); break;
    case 4: b[square()] = NO_PIECE; break;
    default: {
      const size_t at = PACKED_HAND + rng() % (2 * HAND_KIND_NB);
      b[at] = static_cast<uint8_t>(b[at] + (rng() % 2 ? 1 : -1));
    }
  }
}

}  // namespace manaka::testing
