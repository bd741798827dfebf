#include "sazpack/columns.h"

#include <algorithm>
#include <limits>

#include "sazpack/codec.h"
#include "sazpack/replay.h"
#include "shogi/pack.h"

namespace manaka::sazpack {
namespace {

float value_z_of(Outcome outcome, shogi::Color side) {
  switch (outcome) {
    case Outcome::BlackWin: return side == shogi::BLACK ? 1.0f : -1.0f;
    case Outcome::WhiteWin: return side == shogi::WHITE ? 1.0f : -1.0f;
    case Outcome::Draw: return 0.0f;
    case Outcome::None: break;
  }
  return std::numeric_limits<float>::quiet_NaN();
}

template <typename T>
void cut(std::vector<T>& v, size_t n) {
  v.resize(n);
}

// Drops everything appended after a game's rows began.
void roll_back(SazColumns& c, size_t games, size_t rows, size_t entries) {
  cut(c.stem, games * kStemSize);
  cut(c.game_result, games);
  cut(c.termination_reason, games);
  cut(c.entering_king_rule, games);
  cut(c.game_offsets, games + 1);
  cut(c.packed, rows * shogi::PACKED_LEN);
  cut(c.game, rows);
  cut(c.ply, rows);
  cut(c.played, rows);
  cut(c.played_move16, rows);
  cut(c.root_wdl, rows * 3);
  cut(c.outcome_wdl, rows * 3);
  cut(c.raw_wdl, rows * 3);
  cut(c.raw_mate, rows);
  cut(c.raw_moves_left, rows);
  cut(c.plies_left, rows);
  cut(c.requested_visits, rows);
  cut(c.target_weight_milli, rows);
  cut(c.exploration_flags, rows);
  cut(c.has_mate, rows);
  cut(c.mate, rows);
  cut(c.value_q, rows);
  cut(c.value_z, rows);
  cut(c.policy_offsets, rows + 1);
  cut(c.mv, entries);
  cut(c.prior, entries);
  cut(c.raw_prior, entries);
  cut(c.visits, entries);
  cut(c.lower, entries);
  cut(c.upper, entries);
}

void push_wdl(std::vector<uint16_t>& v, const SazWdl& w) {
  v.push_back(w.win);
  v.push_back(w.draw);
  v.push_back(w.loss);
}

// Grows v by n elements (zeroed: cheap beside what follows) and returns the first.
template <typename T>
T* grow(std::vector<T>& v, size_t n) {
  const size_t at = v.size();
  v.resize(at + n);
  return v.data() + at;
}

// Reserves room for what a chunk of `payload` bytes may hold, from the
// least bytes a game, a position and an entry take; capped, so a huge chunk
// grows its columns as it goes rather than asking for it all up front.
// Reserving does not touch memory: pages left unused are never faulted in.
void reserve_for(SazColumns& c, size_t payload) {
  constexpr size_t kCap = size_t{1} << 26;
  const size_t games = std::min(payload / kGameFixedSize + 1, kCap);
  const size_t rows = std::min(payload / (kPositionFixedSize + 1 + kPolicyEntryMinSize) + 1, kCap);
  const size_t entries = std::min(payload / kPolicyEntryMinSize + 1, kCap);
  c.stem.reserve(games * kStemSize);
  for (auto* v : {&c.game_result, &c.termination_reason, &c.entering_king_rule}) v->reserve(games);
  c.game_offsets.reserve(games + 1);
  c.packed.reserve(rows * shogi::PACKED_LEN);
  for (auto* v : {&c.root_wdl, &c.outcome_wdl, &c.raw_wdl}) v->reserve(rows * 3);
  for (auto* v : {&c.game, &c.ply, &c.requested_visits}) v->reserve(rows);
  for (auto* v : {&c.played, &c.played_move16, &c.raw_mate, &c.raw_moves_left, &c.plies_left,
                  &c.target_weight_milli}) {
    v->reserve(rows);
  }
  for (auto* v : {&c.exploration_flags, &c.has_mate}) v->reserve(rows);
  c.mate.reserve(rows);
  for (auto* v : {&c.value_q, &c.value_z}) v->reserve(rows);
  c.policy_offsets.reserve(rows + 1);
  for (auto* v : {&c.mv, &c.prior, &c.raw_prior}) v->reserve(entries);
  c.visits.reserve(entries);
  for (auto* v : {&c.lower, &c.upper}) v->reserve(entries);
}

}  // namespace

Status append_columns(const SazGame& game, SazColumns& c, const ColumnOptions& options) {
  const size_t games = c.games(), rows = c.positions(), entries = c.entries();
  const uint32_t game_index = uint32_t(games);
  const Outcome outcome = outcome_of(game.game_result);
  LegalMoves legal;
  Status st = replay_game(game, [&](size_t i, const shogi::Position& pos) -> Status {
    const SazPosition& p = game.positions[i];
    const size_t k = p.policy.size();
    uint16_t* mv = grow(c.mv, k);
    uint16_t* prior = grow(c.prior, k);
    uint16_t* raw_prior = grow(c.raw_prior, k);
    uint32_t* visits = grow(c.visits, k);
    uint8_t* lower = grow(c.lower, k);
    uint8_t* upper = grow(c.upper, k);
    const bool check = options.check_policy_legality;
    if (check) legal.reset(pos);
    bool bad = false;
    for (size_t e = 0; e < k; ++e) {
      const SazPolicyEntry& entry = p.policy[e];
      const uint16_t raw = entry.mv.mpk_raw();
      bad |= raw == 0 || (check && !legal.contains(raw));
      mv[e] = raw;
      prior[e] = entry.prior;
      raw_prior[e] = entry.raw_prior;
      visits[e] = entry.visits;
      lower[e] = uint8_t(entry.lower);
      upper[e] = uint8_t(entry.upper);
    }
    if (bad) {  // name the first entry at fault
      for (size_t e = 0; e < k; ++e) {
        if (mv[e] != 0 && (!check || legal.contains(mv[e]))) continue;
        if (check) return legal_policy_move(legal, pos, p.policy[e], i, e).take_status();
        return p.policy[e].mv.to_mpk().take_status().with_context("position " + std::to_string(i) +
                                                                   ", policy entry " + std::to_string(e) + ": ");
      }
    }
    c.policy_offsets.push_back(int64_t(c.mv.size()));
    const shogi::Packed packed = shogi::pack(pos);
    c.packed.insert(c.packed.end(), packed.begin(), packed.end());
    c.game.push_back(game_index);
    c.ply.push_back(uint32_t(i));
    c.played.push_back(p.played.mpk_raw());
    c.played_move16.push_back(p.played.raw);
    push_wdl(c.root_wdl, p.root_wdl);
    push_wdl(c.outcome_wdl, p.outcome_wdl);
    push_wdl(c.raw_wdl, p.raw_wdl);
    c.raw_mate.push_back(p.raw_mate);
    c.raw_moves_left.push_back(p.raw_moves_left);
    c.plies_left.push_back(p.plies_left);
    c.requested_visits.push_back(p.requested_visits);
    c.target_weight_milli.push_back(p.target_weight_milli);
    c.exploration_flags.push_back(p.exploration_flags);
    c.has_mate.push_back(p.mate.has_value());
    c.mate.push_back(p.mate.value_or(0));
    c.value_q.push_back(float(int(p.root_wdl.win) - int(p.root_wdl.loss)) / float(kDistributionTotal));
    c.value_z.push_back(value_z_of(outcome, pos.side_to_move()));
    return Status();
  });
  if (!st.ok()) {
    roll_back(c, games, rows, entries);
    return st;
  }
  c.stem.insert(c.stem.end(), game.stem.begin(), game.stem.end());
  c.game_result.push_back(uint8_t(game.game_result));
  c.termination_reason.push_back(uint8_t(game.termination_reason));
  c.entering_king_rule.push_back(uint8_t(game.entering_king_rule));
  c.game_offsets.push_back(int64_t(c.positions()));
  return Status();
}

Result<SazColumns> decode_columns(std::span<const uint8_t> chunk, const ColumnOptions& options) {
  MANAKA_ASSIGN_OR_RETURN(GameReader reader, GameReader::open(chunk));
  SazColumns out;
  reserve_for(out, chunk.size() - kHeaderSize);
  SazGame game;
  while (true) {
    MANAKA_ASSIGN_OR_RETURN(bool more, reader.next(game));
    if (!more) break;
    Status st = append_columns(game, out, options);
    if (!st.ok()) {
      return std::move(st).with_context("game " + std::to_string(reader.games_read() - 1) + " (byte " +
                                        std::to_string(reader.game_begin()) + "), ");
    }
  }
  return out;
}

}  // namespace manaka::sazpack
