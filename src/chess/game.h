// Game: a starting position and the moves played from it, with the rules
// that need the history: repetitions, the fifty- and seventy-five-move
// rules, and the decision of whether and how the game has ended.
//
// Every rule decides exactly as python-chess 1.11's Board method of the same
// name on a Board set up at the same start (python-chess sees no history
// before it) with the same moves pushed. In particular:
//
// - Positions are compared by Position::key(), python-chess's
//   _transposition_key(): board, side to move, castling rights, and the
//   en-passant square only when a legal capture exists.
// - Only positions since the last irreversible move are compared
//   (python-chess's is_irreversible, judged in the position the move is
//   played from): a capture or pawn move, a move that loses a castling
//   right, or any move from a position that has a legal en-passant capture.
// - Claims look one move ahead, as python-chess's can_claim_* do: a player
//   may claim threefold repetition when a legal move reaches a position for
//   the third time, and the fifty-move rule when a legal move that is
//   neither a capture nor a pawn move brings the clock to 100 in a position
//   that is not mate or stalemate.
//
// Positions are kept, one per ply (copy-make), so pop needs no undo and a
// look back reads keys without replaying moves.
#pragma once

#include <optional>
#include <vector>

#include "chess/move.h"
#include "chess/position.h"
#include "chess/termination.h"

namespace manaka::chess {

class Game {
 public:
  explicit Game(const Position& start = Position::startpos());

  const Position& position() const { return positions_.back(); }
  const Position& start() const { return positions_.front(); }
  // Moves played since start().
  int ply() const { return int(moves_.size()); }
  const std::vector<Move>& moves() const { return moves_; }

  // Plays m, which is assumed legal (Position::is_legal).
  void push(Move m);
  // Takes back the last move and returns it; ply() must be above 0.
  Move pop();

  // The position now has occurred count times (itself included) since the
  // last irreversible move. is_repetition(2): it occurred before.
  bool is_repetition(int count = 3) const;
  bool is_fivefold_repetition() const { return is_repetition(5); }
  // The halfmove clock is at least 150 (resp. 100) and a legal move exists.
  bool is_seventyfive_moves() const;
  bool is_fifty_moves() const;
  bool can_claim_fifty_moves() const;
  bool can_claim_threefold_repetition() const;
  bool can_claim_draw() const { return can_claim_fifty_moves() || can_claim_threefold_repetition(); }

  // python-chess's Board.outcome(claim_draw=...), tried in its order:
  // checkmate, insufficient material, stalemate, the seventy-five-move rule,
  // fivefold repetition, then, only when claim_draw, the fifty-move rule
  // and threefold repetition (see the top of this file). None while the
  // game goes on.
  std::optional<Outcome> outcome(bool claim_draw = false) const;

 private:
  std::vector<Position> positions_;  // positions_[i]: after the first i moves
  std::vector<Move> moves_;
  // reversible_[i]: how many moves in a row up to position i are reversible,
  // so positions_[i - reversible_[i] .. i] are the ones i is compared with.
  std::vector<int> reversible_;
};

}  // namespace manaka::chess
