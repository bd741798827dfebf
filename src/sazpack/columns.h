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

#include "core/status.h"
#include "sazpack/format.h"

namespace manaka::sazpack {

struct SazColumns {
  std::vector<uint8_t> stem;
  std::vector<uint8_t> game_result;
  std::vector<uint8_t> termination_reason;
  std::vector<uint8_t> entering_king_rule;
  std::vector<int64_t> game_offsets{0};

  std::vector<uint8_t> packed;
  std::vector<uint32_t> game;
  std::vector<uint32_t> ply;
  std::vector<uint16_t> played;
  std::vector<uint16_t> played_move16;
  std::vector<uint16_t> root_wdl;
  std::vector<uint16_t> outcome_wdl;
  std::vector<uint16_t> raw_wdl;
  std::vector<uint16_t> raw_mate;
  std::vector<uint16_t> raw_moves_left;
  std::vector<uint16_t> plies_left;
  std::vector<uint32_t> requested_visits;
  std::vector<uint16_t> target_weight_milli;
  std::vector<uint8_t> exploration_flags;
  std::vector<uint8_t> has_mate;
  std::vector<int16_t> mate;
  std::vector<float> value_q;
  std::vector<float> value_z;
  std::vector<int64_t> policy_offsets{0};

  std::vector<uint16_t> mv;
  std::vector<uint16_t> prior;
  std::vector<uint16_t> raw_prior;
  std::vector<uint32_t> visits;
  std::vector<uint8_t> lower;
  std::vector<uint8_t> upper;

  size_t games() const { return game_result.size(); }
  size_t positions() const { return ply.size(); }
  size_t entries() const { return mv.size(); }
};

struct ColumnOptions {
  // Refuse a policy move that is not legal in its position (not only one
  // that is no move at all).
  bool check_policy_legality = true;
};

// Replays one decoded game and appends its rows. On error nothing of the
// game is kept; the message names the position ("position 17: ...").
Status append_columns(const SazGame& game, SazColumns& out, const ColumnOptions& options = {});

// Decodes and replays a whole chunk; errors start "game G, ".
Result<SazColumns> decode_columns(std::span<const uint8_t> chunk, const ColumnOptions& options = {});

}  // namespace manaka::sazpack
