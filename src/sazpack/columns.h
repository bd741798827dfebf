// The columnar decode: a chunk as flat arrays, one row per position, every
// board rebuilt by replaying the game from its stem (sazpack/replay.h), every
// move in MPK1's move16. What a training loader wants without an object per
// entry.
//
//   per game g (G rows)      stem[g*32..], game_result, termination_reason,
//                            entering_king_rule, game_offsets (G + 1):
//                            the rows of game g are [game_offsets[g], game_offsets[g+1])
//   per position i (N rows)  packed[i*96..] (shogi/pack.h), game, ply (index
//                            in the game, 0 at the stem), played (MPK1 move16,
//                            0 when the game's last move is a special),
//                            played_move16 (the raw YaneuraOu value),
//                            root_wdl / outcome_wdl / raw_wdl [i*3..] (win,
//                            draw, loss), raw_mate, raw_moves_left, plies_left,
//                            requested_visits, target_weight_milli,
//                            exploration_flags, has_mate, mate (0 when absent),
//                            value_q = (win - loss) / 65535 of root_wdl,
//                            value_z = the result from the side to move (1, 0,
//                            -1; NaN when the result has no outcome),
//                            policy_offsets (N + 1)
//   per policy entry (E)     mv (MPK1 move16), prior, raw_prior, visits,
//                            lower, upper; position i owns entries
//                            [policy_offsets[i], policy_offsets[i+1])
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/default_init.h"
#include "core/status.h"
#include "sazpack/format.h"

namespace manaka::sazpack {

// Columns are UninitVector so a decode can size them once and let each
// thread write (and first touch) its own rows.
struct SazColumns {
  UninitVector<uint8_t> stem;
  UninitVector<uint8_t> game_result;
  UninitVector<uint8_t> termination_reason;
  UninitVector<uint8_t> entering_king_rule;
  UninitVector<int64_t> game_offsets{0};

  UninitVector<uint8_t> packed;
  UninitVector<uint32_t> game;
  UninitVector<uint32_t> ply;
  UninitVector<uint16_t> played;
  UninitVector<uint16_t> played_move16;
  UninitVector<uint16_t> root_wdl;
  UninitVector<uint16_t> outcome_wdl;
  UninitVector<uint16_t> raw_wdl;
  UninitVector<uint16_t> raw_mate;
  UninitVector<uint16_t> raw_moves_left;
  UninitVector<uint16_t> plies_left;
  UninitVector<uint32_t> requested_visits;
  UninitVector<uint16_t> target_weight_milli;
  UninitVector<uint8_t> exploration_flags;
  UninitVector<uint8_t> has_mate;
  UninitVector<int16_t> mate;
  UninitVector<float> value_q;
  UninitVector<float> value_z;
  UninitVector<int64_t> policy_offsets{0};

  UninitVector<uint16_t> mv;
  UninitVector<uint16_t> prior;
  UninitVector<uint16_t> raw_prior;
  UninitVector<uint32_t> visits;
  UninitVector<uint8_t> lower;
  UninitVector<uint8_t> upper;

  size_t games() const { return game_result.size(); }
  size_t positions() const { return ply.size(); }
  size_t entries() const { return mv.size(); }
};

struct ColumnOptions {
  // Refuse a policy move that is not legal in its position (not only one
  // that is no move at all).
  bool check_policy_legality = true;
  // Threads replaying games; 0 is one per core (one per MiB of payload at
  // most). The columns are the same whatever the count.
  int threads = 0;
};

// Replays one decoded game and appends its rows. On error nothing of the
// game is kept; the message names the position ("position 17: ...").
Status append_columns(const SazGame& game, SazColumns& out, const ColumnOptions& options = {});

// Decodes and replays a whole chunk; errors start "game G, ". A first pass
// decodes every game to size the columns (and refuses what the codec
// refuses); then runs of games are decoded again and replayed on several
// threads, each writing its own rows. A replay refusal is the one of the
// lowest-numbered game, as a single thread would find it.
Result<SazColumns> decode_columns(std::span<const uint8_t> chunk, const ColumnOptions& options = {});

}  // namespace manaka::sazpack
