// What the search needs from a game: the contract chess_rules.h and
// shogi_rules.h fulfil. The search is written once against it.
//
//   R::State      a game with its history (copyable; push/pop in place)
//   R::Move       a move (a small value)
//   R::Outcome    how a game ended
//   R::kPlaneSize int8 values of a position's network input
//   R::kPolicySize the policy logits' count
//   R::kMaxMoves  an upper bound on a position's legal moves
//   int   legal_moves(const State&, Move* out)      the legal moves, generation order
//   int   policy_index(const State&, Move)          0 <= index < kPolicySize
//   void  encode(const State&, int8_t* out)         the network input
//   std::optional<Outcome> outcome(const State&)    set when the game is over
//   float outcome_value(const State&, const Outcome&)  -1, 0, 1 for the side to move
//   void  push(State&, Move), pop(State&)
#pragma once

#include <concepts>
#include <cstdint>
#include <optional>

namespace manaka::search {

template <class R>
concept Rules = requires(typename R::State& s, const typename R::State& cs, typename R::Move m,
                         typename R::Move* out, int8_t* planes, const typename R::Outcome& o) {
  { R::kPlaneSize } -> std::convertible_to<size_t>;
  { R::kPolicySize } -> std::convertible_to<int>;
  { R::kMaxMoves } -> std::convertible_to<int>;
  { R::legal_moves(cs, out) } -> std::same_as<int>;
  { R::policy_index(cs, m) } -> std::same_as<int>;
  { R::encode(cs, planes) };
  { R::outcome(cs) } -> std::same_as<std::optional<typename R::Outcome>>;
  { R::outcome_value(cs, o) } -> std::same_as<float>;
  { R::push(s, m) };
  { R::pop(s) };
};

}  // namespace manaka::search
