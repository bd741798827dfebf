// The rules contract (rules.h) for a game whose rules folder offers the
// usual names: a Game with position(), push, pop and is_repetition; a
// MoveList filled by generate_legal(position, list); encode_planes and
// move_index over the position. Chess and shogi both do (they are found by
// argument-dependent lookup); only the types, the sizes and how a game is
// judged over differ, and those are the parameters.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>

namespace manaka::search {

template <class GameT, class MoveListT, class OutcomeT, size_t PlaneSize, int PolicySize, int MaxMoves,
          std::optional<OutcomeT> (*Over)(const GameT&)>
struct GameRules {
  using State = GameT;
  using Move = std::remove_cvref_t<decltype(std::declval<MoveListT&>().moves[0])>;
  using Outcome = OutcomeT;
  static constexpr size_t kPlaneSize = PlaneSize;
  static constexpr int kPolicySize = PolicySize;
  static constexpr int kMaxMoves = MaxMoves;

  static int legal_moves(const State& s, Move* out) {
    MoveListT list;
    generate_legal(s.position(), list);
    std::copy(list.begin(), list.end(), out);
    return list.size;
  }
  static int policy_index(const State& s, Move m) { return move_index(s.position(), m); }
  static void encode(const State& s, int8_t* out) { encode_planes(s.position(), s.is_repetition(2), out); }
  static std::optional<Outcome> outcome(const State& s) { return Over(s); }
  static float outcome_value(const State& s, const Outcome& o) {
    if (!o.winner) return 0.0f;
    return *o.winner == s.position().side_to_move() ? 1.0f : -1.0f;
  }
  static void push(State& s, Move m) { s.push(m); }
  static void pop(State& s) { s.pop(); }
};

}  // namespace manaka::search
