// SAZ2 games into MPK1 self-play records (docs/sazpack.md, "Into MPK1").
//
// Every position of a game becomes one record of a self-play stream
// (stream::SelfPlayWriter: policy_source 0, pov 0, packed_len 96):
//   packed   the board before the position's played move, rebuilt by
//            replaying the game from its stem (sazpack/replay.h)
//   ply      the position's index in the game, 0 at the stem
//   value_q  (root_wdl.win - root_wdl.loss) / 65535, the side to move's view
//   value_z  the game's result from the position's side to move: 1, 0, -1
//   candidates  the policy entries with visits > 0, mv in MPK1's move16,
//            visits as visits, cp absent (NO_CP)
// Every policy move must be legal in its position. A game whose result has
// no outcome (Error, Invalid, Paused) is refused and counted by result; a
// game of more than 65536 positions (ply is u16) is refused and counted; a
// position whose entries all have 0 visits has no candidate and is skipped
// and counted.
#pragma once

#include <array>
#include <functional>
#include <cstdint>
#include <span>

#include "core/status.h"
#include "sazpack/format.h"
#include "stream/selfplay_writer.h"

namespace manaka::sazpack {

struct MpkConversion {
  uint64_t games = 0;                 // games read
  uint64_t games_written = 0;
  uint64_t records = 0;               // positions written
  uint64_t positions_without_visits = 0;
  uint64_t games_too_long = 0;        // refused: more positions than ply can number
  std::array<uint64_t, 22> refused_by_result{};  // refused: the result has no outcome

  uint64_t games_refused() const;
  void add(const MpkConversion& other);
};

// Converts one game; a refused game is counted in stats, not an error. An
// error (a stem that does not decode, an illegal move) names the position.
Status game_to_mpk(const SazGame& game, stream::SelfPlayWriter& out, MpkConversion& stats);

// Every game of a chunk; errors start "game G (byte B), ". progress, when
// given, hears each game's first byte in the chunk and the records so far.
Status chunk_to_mpk(std::span<const uint8_t> chunk, stream::SelfPlayWriter& out, MpkConversion& stats,
                    const std::function<void(uint64_t bytes, uint64_t records)>& progress = {});

}  // namespace manaka::sazpack
