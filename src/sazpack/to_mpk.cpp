#include "sazpack/to_mpk.h"

#include <limits>
#include <vector>

#include "sazpack/codec.h"
#include "sazpack/replay.h"
#include "shogi/pack.h"

namespace manaka::sazpack {
namespace {

constexpr size_t kMaxPositions = size_t{std::numeric_limits<uint16_t>::max()} + 1;

stream::GameResult stream_result(Outcome outcome) {
  switch (outcome) {
    case Outcome::BlackWin: return stream::GameResult::BlackWin;
    case Outcome::WhiteWin: return stream::GameResult::WhiteWin;
    default: return stream::GameResult::Draw;
  }
}

}  // namespace

uint64_t MpkConversion::games_refused() const {
  uint64_t n = games_too_long;
  for (uint64_t v : refused_by_result) n += v;
  return n;
}

void MpkConversion::add(const MpkConversion& o) {
  games += o.games;
  games_written += o.games_written;
  records += o.records;
  positions_without_visits += o.positions_without_visits;
  games_too_long += o.games_too_long;
  for (size_t i = 0; i < refused_by_result.size(); ++i) refused_by_result[i] += o.refused_by_result[i];
}

Status game_to_mpk(const SazGame& game, stream::SelfPlayWriter& out, MpkConversion& stats) {
  ++stats.games;
  const Outcome outcome = outcome_of(game.game_result);
  if (outcome == Outcome::None) {
    ++stats.refused_by_result[uint8_t(game.game_result)];
    return Status();
  }
  if (game.positions.size() > kMaxPositions) {
    ++stats.games_too_long;
    return Status();
  }
  MANAKA_RETURN_NOT_OK(out.begin_game());
  uint64_t records = 0, skipped = 0;
  std::vector<stream::VisitedMove> moves;
  LegalMoves legal;
  Status st = replay_game(game, [&](size_t i, const shogi::Position& pos) -> Status {
    const SazPosition& p = game.positions[i];
    moves.clear();
    legal.reset(pos);
    for (size_t e = 0; e < p.policy.size(); ++e) {
      MANAKA_ASSIGN_OR_RETURN(shogi::Move mv, legal_policy_move(legal, pos, p.policy[e], i, e));
      if (p.policy[e].visits != 0) moves.push_back({mv.raw, p.policy[e].visits});
    }
    if (moves.empty()) {
      ++skipped;
      return Status();
    }
    const shogi::Packed packed = shogi::pack(pos);
    const float value_q = float(int(p.root_wdl.win) - int(p.root_wdl.loss)) / float(kDistributionTotal);
    Status added = out.add_position(packed, uint16_t(i), value_q, moves);
    if (!added.ok()) return std::move(added).with_context("position " + std::to_string(i) + ": ");
    ++records;
    return Status();
  });
  if (!st.ok()) {
    out.discard_game();
    return st;
  }
  MANAKA_RETURN_NOT_OK(out.end_game(stream_result(outcome)));
  ++stats.games_written;
  stats.records += records;
  stats.positions_without_visits += skipped;
  return Status();
}

Status chunk_to_mpk(std::span<const uint8_t> chunk, stream::SelfPlayWriter& out, MpkConversion& stats,
                    const std::function<void(uint64_t bytes, uint64_t records)>& progress) {
  MANAKA_ASSIGN_OR_RETURN(GameReader reader, GameReader::open(chunk));
  SazGame game;
  while (true) {
    MANAKA_ASSIGN_OR_RETURN(bool more, reader.next(game));
    if (!more) break;
    if (progress) progress(reader.game_begin(), stats.records);
    Status st = game_to_mpk(game, out, stats);
    if (!st.ok()) {
      return std::move(st).with_context("game " + std::to_string(reader.games_read() - 1) + " (byte " +
                                        std::to_string(reader.game_begin()) + "), ");
    }
  }
  return Status();
}

}  // namespace manaka::sazpack
