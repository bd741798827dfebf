#include "shogi/game.h"

#include <cassert>

#include "shogi/movegen.h"

namespace manaka::shogi {

const char* termination_name(Termination t) {
  switch (t) {
    case Termination::NoLegalMove: return "no_legal_move";
    case Termination::Repetition: return "repetition";
    case Termination::PerpetualCheck: return "perpetual_check";
    case Termination::PlyLimit: return "ply_limit";
  }
  return "?";
}

Game::Game(const Position& start) : start_(start), pos_(start) {
  keys_.push_back(pos_.key());
  checks_.push_back(pos_.in_check());
}

// Replays the moves: copying pos_ would drop its undo history (Position's
// copy keeps only the position), and copying states_ would leave the
// records' `previous` pointing into other's deque.
Game::Game(const Game& other) : Game(other.start_) {
  for (Move m : other.moves_) push(m);
}

Game& Game::operator=(const Game& other) {
  if (this != &other) {
    start_ = other.start_;
    pos_ = other.start_;
    states_.clear();
    moves_.clear();
    keys_.assign(1, pos_.key());
    checks_.assign(1, pos_.in_check());
    for (Move m : other.moves_) push(m);
  }
  return *this;
}

void Game::push(Move m) {
  states_.emplace_back();
  pos_.do_move(m, states_.back());
  moves_.push_back(m);
  keys_.push_back(pos_.key());
  checks_.push_back(pos_.in_check());
}

Move Game::pop() {
  assert(!moves_.empty());
  const Move m = moves_.back();
  pos_.undo_move(m);
  states_.pop_back();
  moves_.pop_back();
  keys_.pop_back();
  checks_.pop_back();
  return m;
}

bool Game::is_repetition(int count) const {
  if (count <= 1) return true;
  const uint64_t key = keys_.back();
  // The key holds the side to move, so only every other position can match.
  for (int i = ply() - 2; i >= 0; i -= 2)
    if (keys_[size_t(i)] == key && --count == 1) return true;
  return false;
}

Repetition Game::repetition() const { return check_repetition(keys_, checks_, start_.side_to_move()); }

std::optional<Outcome> Game::outcome(int max_plies) const {
  switch (repetition()) {
    case Repetition::None: break;
    case Repetition::Draw: return Outcome{Termination::Repetition, std::nullopt};
    case Repetition::BlackChecked: return Outcome{Termination::PerpetualCheck, WHITE};
    case Repetition::WhiteChecked: return Outcome{Termination::PerpetualCheck, BLACK};
  }
  if (count_legal(pos_) == 0) return Outcome{Termination::NoLegalMove, ~pos_.side_to_move()};
  if (max_plies > 0 && ply() >= max_plies) return Outcome{Termination::PlyLimit, std::nullopt};
  return std::nullopt;
}

}  // namespace manaka::shogi
