#include "vpd/sampler.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>

#include "core/uniform.h"
#include "chess/bitboard.h"

namespace manaka::vpd {

std::array<uint64_t, PHASE_NB> phase_quotas(uint64_t target) {
  const uint64_t opening = target * QUOTA_PERCENT[OPENING] / 100;
  const uint64_t endgame = target * QUOTA_PERCENT[ENDGAME] / 100;
  return {opening, target - opening - endgame, endgame};
}

uint8_t result_index(std::string_view token) {
  for (size_t i = 0; i < RESULT_TOKENS.size(); ++i)
    if (token == RESULT_TOKENS[i]) return uint8_t(i);
  return uint8_t(RESULT_TOKENS.size() - 1);  // "*": the reader yields no other token
}

uint64_t position_hash(const chess::Position& pos) {
  uint64_t h = pos.key() ^ (uint64_t(pos.halfmove_clock()) * 0x9E3779B97F4A7C15ull);
  h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
  h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
  return h ^ (h >> 31);
}

Sampler::Sampler(uint64_t target, uint64_t seed) : quotas_(phase_quotas(target)), rng_(seed) {}

uint64_t Sampler::uniform(uint64_t n) { return uniform_below(rng_, n); }

uint64_t Sampler::selected() const {
  uint64_t n = 0;
  for (auto& r : reservoir_) n += r.size();
  return n;
}

void candidates_of(const chess::PgnGame& game, uint64_t game_number, uint32_t source, GameCandidates& out) {
  out.game_number = game_number;
  out.source = source;
  out.result = result_index(game.result);
  out.positions.clear();
  out.boards.clear();
  out.positions.reserve(game.moves.size());
  out.boards.reserve(game.moves.size());
  chess::Position pos = game.start;
  for (chess::Move m : game.moves) {
    // After a null move no position has a legal history: none is a candidate.
    if (m == chess::MOVE_NONE) break;
    const int ply = game_ply(pos);
    out.positions.push_back(
        Candidate{position_hash(pos), ply, phase_of(ply, pos.non_pawn_material(), chess::popcount(pos.pieces()))});
    out.boards.push_back(pos);
    pos.do_move(m);
  }
}

void Sampler::add_game(const chess::PgnGame& game, uint64_t game_number, uint32_t source) {
  GameCandidates c;
  candidates_of(game, game_number, source, c);
  add(c);
}

void Sampler::add(GameCandidates& game) {
  ++counts_.games;
  constexpr size_t NONE = SIZE_MAX;
  std::array<size_t, PHASE_NB> held;
  held.fill(NONE);
  std::array<uint64_t, PHASE_NB> eligible{};
  for (size_t i = 0; i < game.positions.size(); ++i) {
    const Candidate& c = game.positions[i];
    ++counts_.positions_considered;
    ++counts_.candidates[c.phase];
    if (selected_.contains(c.fen_hash)) {
      ++counts_.duplicates;
    } else if (++eligible[c.phase] == 1 || uniform(eligible[c.phase]) == 0) {
      held[c.phase] = i;
    }
  }
  for (size_t i : held) {
    if (i == NONE) continue;
    const Candidate& c = game.positions[i];
    // A FEN repeated in one game at plies of different phases.
    if (selected_.contains(c.fen_hash)) {
      ++counts_.duplicates;
      continue;
    }
    offer(SampledPosition{game.boards[i].normalized_fen(), c.fen_hash, game.game_number, c.ply, c.phase, game.source,
                          game.result});
  }
}

void Sampler::offer(SampledPosition&& pos) {
  const Phase phase = pos.phase;
  auto& res = reservoir_[phase];
  const uint64_t n = ++counts_.offered[phase];
  if (res.size() < quotas_[phase]) {
    selected_.insert(pos.fen_hash);
    res.push_back(std::move(pos));
    return;
  }
  const uint64_t j = uniform(n);
  if (j >= quotas_[phase]) return;
  selected_.erase(res[j].fen_hash);
  selected_.insert(pos.fen_hash);
  res[j] = std::move(pos);
}

std::vector<SampledPosition> Sampler::take() {
  std::vector<SampledPosition> out;
  out.reserve(selected());
  for (auto& r : reservoir_) {
    for (auto& p : r) out.push_back(std::move(p));
    r.clear();
  }
  selected_.clear();
  std::sort(out.begin(), out.end(), [](const SampledPosition& a, const SampledPosition& b) {
    return a.game_number != b.game_number ? a.game_number < b.game_number : a.ply < b.ply;
  });
  return out;
}

}  // namespace manaka::vpd
