#include "sazpack/inspect.h"

#include <algorithm>

#include "sazpack/codec.h"

namespace manaka::sazpack {

void ChunkStats::add(const SazGame& game) {
  const uint64_t n = game.positions.size();
  positions_min = games == 0 ? n : std::min(positions_min, n);
  positions_max = std::max(positions_max, n);
  ++games;
  positions += n;
  ++by_result[uint8_t(game.game_result)];
  ++by_reason[uint8_t(game.termination_reason)];
  ++by_rule[uint8_t(game.entering_king_rule)];
  for (const SazPosition& p : game.positions) {
    entries += p.policy.size();
    entries_max = std::max<uint64_t>(entries_max, p.policy.size());
    mates += p.mate.has_value();
    requested_visits += p.requested_visits;
    for (const SazPolicyEntry& e : p.policy) visits += e.visits;
  }
}

Result<ChunkStats> inspect_chunk(std::span<const uint8_t> chunk) {
  MANAKA_ASSIGN_OR_RETURN(GameReader reader, GameReader::open(chunk));
  ChunkStats stats;
  stats.bytes = chunk.size();
  SazGame game;
  while (true) {
    MANAKA_ASSIGN_OR_RETURN(bool more, reader.next(game));
    if (!more) break;
    stats.add(game);
  }
  return stats;
}

}  // namespace manaka::sazpack
