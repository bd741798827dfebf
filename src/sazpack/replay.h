// Rebuilding a game's boards: decode the stem, then play each position's
// `played` move to reach the next position. This is a step after decoding
// (the codec itself never looks at positions or moves).
//
// Position i is the board before positions[i].played; position 0 is the
// stem. Every played move but the last must be legal where it is played; the
// last is never applied, so it may be a special (resign, win, none, ...).
#pragma once

#include <bitset>
#include <cstddef>
#include <cstdint>

#include "core/status.h"
#include "sazpack/format.h"
#include "sazpack/packed_sfen.h"
#include "shogi/movegen.h"
#include "shogi/position.h"

namespace manaka::sazpack {

// The stem as a position; refusals start "stem: ".
Result<shogi::Position> stem_position(const SazGame& game);

// positions[index].played as a legal MPK1 move in pos, or a refusal naming
// the position, the move and the board.
Result<shogi::Move> legal_played_move(const shogi::Position& pos, const SazPosition& position, size_t index);

// The legal moves of one position, generated once for many lookups (cheaper
// than Position::is_legal per move beyond a handful of moves).
class LegalMoves {
 public:
  void reset(const shogi::Position& pos);
  bool contains(uint16_t mpk_raw) const { return bits_[mpk_raw]; }

 private:
  std::bitset<32768> bits_;
  shogi::MoveList list_;
};

// A policy entry's move as a legal MPK1 move (legal being the moves of pos),
// or a refusal naming the position, the entry, the move and the board.
Result<shogi::Move> legal_policy_move(const LegalMoves& legal, const shogi::Position& pos,
                                      const SazPolicyEntry& entry, size_t position, size_t entry_index);

// Calls visit(i, pos) for i = 0 .. positions.size() - 1 with the board
// before positions[i].played; stops at the first error visit returns.
template <typename Visit>
Status replay_game(const SazGame& game, Visit&& visit) {
  MANAKA_ASSIGN_OR_RETURN(shogi::Position pos, stem_position(game));
  // do_move links each state to the one before only for undo_move, which is
  // never called here, so two states taking turns are enough.
  shogi::StateInfo states[2];
  const size_t n = game.positions.size();
  for (size_t i = 0; i < n; ++i) {
    MANAKA_RETURN_NOT_OK(visit(i, static_cast<const shogi::Position&>(pos)));
    if (i + 1 == n) break;
    MANAKA_ASSIGN_OR_RETURN(shogi::Move mv, legal_played_move(pos, game.positions[i], i));
    pos.do_move(mv, states[i & 1]);
  }
  return Status();
}

}  // namespace manaka::sazpack
