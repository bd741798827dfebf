#include "sazpack/replay.h"

#include <cstdio>
#include <string>

namespace manaka::sazpack {
namespace {

std::string move_text(Move16 mv) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%04x", mv.raw);
  return mv.to_usi() + " (move16 " + buf + ")";
}

}  // namespace

Result<shogi::Position> stem_position(const SazGame& game) {
  auto pos = decode_packed_sfen(std::span<const uint8_t, kStemSize>(game.stem));
  if (!pos.ok()) return std::move(pos).take_status().with_context("stem: ");
  return pos;
}

Result<shogi::Move> legal_played_move(const shogi::Position& pos, const SazPosition& position, size_t index) {
  auto mv = position.played.to_mpk();
  if (!mv.ok() || !pos.is_legal(*mv)) {
    return Status::invalid("position " + std::to_string(index) + ": played move " + move_text(position.played) +
                           " is not a legal move in " + pos.sfen() +
                           " (only a game's last played move may be a special or illegal)");
  }
  return mv;
}

void LegalMoves::reset(const shogi::Position& pos) {
  for (shogi::Move m : list_) bits_.reset(m.raw);
  list_.size = 0;
  shogi::generate_legal(pos, list_);
  for (shogi::Move m : list_) bits_.set(m.raw);
}

Result<shogi::Move> legal_policy_move(const LegalMoves& legal, const shogi::Position& pos,
                                      const SazPolicyEntry& entry, size_t position, size_t entry_index) {
  const uint16_t raw = entry.mv.mpk_raw();
  if (raw && legal.contains(raw)) return shogi::Move{raw};
  return Status::invalid("position " + std::to_string(position) + ", policy entry " + std::to_string(entry_index) +
                         ": move " + move_text(entry.mv) + " is not a legal move in " + pos.sfen());
}

}  // namespace manaka::sazpack
