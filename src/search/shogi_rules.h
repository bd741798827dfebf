// Shogi for the search (rules.h): shogi::Game, the 44 planes and 11259
// policy indices of shogi/encode.h and shogi/move_index.h, and games ended
// by the rules of shogi/game.h (no legal move, sennichite and perpetual
// check); self-play adds its ply limit.
#pragma once

#include <algorithm>
#include <optional>

#include "shogi/encode.h"
#include "shogi/game.h"
#include "shogi/move_index.h"
#include "shogi/movegen.h"

namespace manaka::search {

struct ShogiRules {
  using State = shogi::Game;
  using Move = shogi::Move;
  using Outcome = shogi::Outcome;
  static constexpr size_t kPlaneSize = shogi::PLANES_SIZE;
  static constexpr int kPolicySize = shogi::POLICY_SIZE;
  static constexpr int kMaxMoves = shogi::MAX_MOVES;

  static int legal_moves(const State& s, Move* out) {
    shogi::MoveList list;
    shogi::generate_legal(s.position(), list);
    std::copy(list.begin(), list.end(), out);
    return list.size;
  }
  static int policy_index(const State& s, Move m) { return shogi::move_index(s.position(), m); }
  static void encode(const State& s, int8_t* out) { shogi::encode_planes(s.position(), s.is_repetition(2), out); }
  static std::optional<Outcome> outcome(const State& s) { return s.outcome(); }
  static float outcome_value(const State& s, const Outcome& o) {
    if (!o.winner) return 0.0f;
    return *o.winner == s.position().side_to_move() ? 1.0f : -1.0f;
  }
  static void push(State& s, Move m) { s.push(m); }
  static void pop(State& s) { s.pop(); }
};

}  // namespace manaka::search
