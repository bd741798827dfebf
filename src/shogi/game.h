// Game: a starting position and the moves played from it, with the rules
// that need the history: repetition (sennichite, shogi/sennichite.h) and the
// decision of whether and how the game has ended.
//
// Positions are compared by Position::key(): board, both hands and the side
// to move. Shogi has no irreversible move (a captured piece comes back as a
// drop), so every position since the start is compared.
//
// One Position is kept and moves are done and undone on it (make/unmake);
// the StateInfo records of its undo chain live in a deque, whose elements
// keep their addresses as it grows and shrinks at the back. A copy replays
// the moves from the start onto its own Position and deque, so nothing in it
// points into the original: the search copies a root Game per thread.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "shogi/move.h"
#include "shogi/position.h"
#include "shogi/sennichite.h"

namespace manaka::shogi {

// How a game ended (the numbering is the teacher's GameEnd).
enum class Termination : uint8_t {
  NoLegalMove,     // the side to move has none and loses: mate, uchifuzume included
  Repetition,      // fourfold repetition: a draw
  PerpetualCheck,  // fourfold repetition with one side checking throughout: it loses
  PlyLimit,        // the game reached its ply limit: a draw
};
// "no_legal_move", "repetition", "perpetual_check", "ply_limit"
const char* termination_name(Termination t);

struct Outcome {
  Termination termination;
  std::optional<Color> winner;  // none for a draw
  friend bool operator==(const Outcome&, const Outcome&) = default;
};

class Game {
 public:
  explicit Game(const Position& start = Position::startpos());
  Game(const Game& other);
  Game& operator=(const Game& other);

  const Position& position() const { return pos_; }
  const Position& start() const { return start_; }
  // Moves played since start().
  int ply() const { return int(moves_.size()); }
  const std::vector<Move>& moves() const { return moves_; }

  // Plays m, which is assumed legal (Position::is_legal).
  void push(Move m);
  // Takes back the last move and returns it; ply() must be above 0.
  Move pop();

  // The position now has occurred count times (itself included) since the
  // start. is_repetition(2): it occurred before.
  bool is_repetition(int count) const;
  // Sennichite judged at the position now (check_repetition over the game).
  Repetition repetition() const;

  // Tried in this order: fourfold repetition (a draw, or a loss for the
  // perpetual checker), no legal move (the side to move loses), and, only
  // when max_plies > 0, ply() >= max_plies (a draw). None while the game
  // goes on.
  std::optional<Outcome> outcome(int max_plies = 0) const;

 private:
  Position start_;
  Position pos_;
  std::deque<StateInfo> states_;  // states_[i]: the record move i + 1 filled in
  std::vector<Move> moves_;
  std::vector<uint64_t> keys_;    // keys_[i]: the key after i moves
  std::vector<uint8_t> checks_;   // checks_[i]: whether that position is in check
};

}  // namespace manaka::shogi
