#include "chess/game.h"

#include <algorithm>
#include <cassert>

#include "chess/movegen.h"

namespace manaka::chess {
namespace {

// python-chess's is_zeroing: a pawn move (en passant included) or a capture.
bool is_zeroing(const Position& pos, Move m) {
  return type_of(pos.piece_on(m.from_square())) == PAWN || (pos.pieces(~pos.side_to_move()) & square_bb(m.to_square()));
}

// python-chess's is_irreversible, judged in pos before m is played: a
// zeroing move, a move that loses a castling right (`after` is the position
// it leads to), or any move from a position with a legal en-passant
// capture (the right to capture is ceded).
bool is_irreversible(const Position& pos, Move m, const Position& after) {
  return is_zeroing(pos, m) || after.castling_rights() != pos.castling_rights() || pos.has_legal_en_passant();
}

}  // namespace

Game::Game(const Position& start) : positions_{start}, reversible_{0} {}

void Game::push(Move m) {
  Position next = position();
  next.do_move(m);
  const int run = is_irreversible(position(), m, next) ? 0 : reversible_.back() + 1;
  positions_.push_back(next);
  moves_.push_back(m);
  reversible_.push_back(run);
}

Move Game::pop() {
  assert(!moves_.empty());
  const Move m = moves_.back();
  positions_.pop_back();
  moves_.pop_back();
  reversible_.pop_back();
  return m;
}

bool Game::is_repetition(int count) const {
  if (count <= 1) return true;
  const int n = ply();
  const uint64_t key = position().key();
  // The key holds the side to move, so only every other position can match.
  for (int i = n - 2; i >= n - reversible_.back(); i -= 2)
    if (positions_[size_t(i)].key() == key && --count == 1) return true;
  return false;
}

bool Game::is_seventyfive_moves() const {
  return position().halfmove_clock() >= 150 && count_legal(position()) > 0;
}

bool Game::is_fifty_moves() const { return position().halfmove_clock() >= 100 && count_legal(position()) > 0; }

bool Game::can_claim_fifty_moves() const {
  if (is_fifty_moves()) return true;
  const Position& pos = position();
  if (pos.halfmove_clock() < 99) return false;
  MoveList list;
  generate_legal(pos, list);
  for (Move m : list) {
    if (is_zeroing(pos, m)) continue;
    Position next = pos;
    next.do_move(m);
    if (count_legal(next) > 0) return true;  // the clock is now at least 100
  }
  return false;
}

bool Game::can_claim_threefold_repetition() const {
  const int n = ply();
  const size_t first = size_t(n - reversible_.back());
  // The keys since the last irreversible move, the position now included,
  // as python-chess counts them.
  std::vector<uint64_t> keys;
  keys.reserve(size_t(n) + 1 - first);
  for (size_t i = first; i <= size_t(n); ++i) keys.push_back(positions_[i].key());
  std::sort(keys.begin(), keys.end());
  const auto occurrences = [&](uint64_t key) {
    const auto [lo, hi] = std::equal_range(keys.begin(), keys.end(), key);
    return hi - lo;
  };
  const Position& pos = position();
  if (occurrences(pos.key()) >= 3) return true;
  // A legal move that reaches a position seen twice makes it the third
  // time. Without a key seen twice, no move can.
  if (std::adjacent_find(keys.begin(), keys.end()) == keys.end()) return false;
  MoveList list;
  generate_legal(pos, list);
  for (Move m : list) {
    Position next = pos;
    next.do_move(m);
    if (occurrences(next.key()) >= 2) return true;
  }
  return false;
}

std::optional<Outcome> Game::outcome(bool claim_draw) const {
  const Position& pos = position();
  const bool can_move = count_legal(pos) > 0;
  if (!can_move && pos.in_check()) return Outcome{Termination::CHECKMATE, ~pos.side_to_move()};
  if (is_insufficient_material(pos)) return Outcome{Termination::INSUFFICIENT_MATERIAL, std::nullopt};
  if (!can_move) return Outcome{Termination::STALEMATE, std::nullopt};
  if (pos.halfmove_clock() >= 150) return Outcome{Termination::SEVENTYFIVE_MOVES, std::nullopt};
  if (is_fivefold_repetition()) return Outcome{Termination::FIVEFOLD_REPETITION, std::nullopt};
  if (claim_draw) {
    if (can_claim_fifty_moves()) return Outcome{Termination::FIFTY_MOVES, std::nullopt};
    if (can_claim_threefold_repetition()) return Outcome{Termination::THREEFOLD_REPETITION, std::nullopt};
  }
  return std::nullopt;
}

}  // namespace manaka::chess
