// Chess for the search (rules.h): chess::Game, the corpus's 20 planes and
// 4672 policy indices, and games ended as the corpus and the evaluation end
// them, by python-chess's outcome(claim_draw=True).
#pragma once

#include <optional>

#include "chess/encode.h"
#include "chess/game.h"
#include "chess/move_index.h"
#include "chess/movegen.h"

namespace manaka::search {

struct ChessRules {
  using State = chess::Game;
  using Move = chess::Move;
  using Outcome = chess::Outcome;
  static constexpr size_t kPlaneSize = chess::PLANES_SIZE;
  static constexpr int kPolicySize = chess::POLICY_SIZE;
  static constexpr int kMaxMoves = chess::MAX_MOVES;

  static int legal_moves(const State& s, Move* out) {
    chess::MoveList list;
    chess::generate_legal(s.position(), list);
    std::copy(list.begin(), list.end(), out);
    return list.size;
  }
  static int policy_index(const State& s, Move m) { return chess::move_index(s.position(), m); }
  static void encode(const State& s, int8_t* out) { chess::encode_planes(s.position(), s.is_repetition(2), out); }
  static std::optional<Outcome> outcome(const State& s) { return s.outcome(true); }
  static float outcome_value(const State& s, const Outcome& o) {
    if (!o.winner) return 0.0f;
    return *o.winner == s.position().side_to_move() ? 1.0f : -1.0f;
  }
  static void push(State& s, Move m) { s.push(m); }
  static void pop(State& s) { s.pop(); }
};

}  // namespace manaka::search
