// A self-play run cut into parts (python -m manaka.ray selfplay): each part
// is the whole output of one range of game indices (first_game..), written
// complete or absent by its own run; a join makes of the parts, given in
// game order, the output of one run over every game. The parts are read,
// never changed, so a join that fails can be run again.
//
// join_shogi_selfplay: parts are shogi_self_play directories.
//   selfplay.mpk  the header once (every part's must be the same 24 bytes),
//                 then each part's records back to back: the bytes one run
//                 writes, since the self-play writer writes whole games and
//                 no footer. Records are copied, not decoded again: each
//                 was validated by the writer that wrote its part.
//   selfplay.saz  (when the parts have it: all or none) one SAZ2 chunk, the
//                 header with the summed payload_len and the parts'
//                 payloads back to back: again one run's bytes (a chunk is
//                 games back to back). A payload over u32 is refused.
//
// join_chess_selfplay: parts are chess self-play sets (chess_selfplay_set.h).
// The output's shards are the parts' shards in order, renumbered (hard
// links where the filesystem allows, else copies); selfplay.json is the one
// run's (meta first; counts summed, game_offsets shifted, the per-game lists
// appended) except that a shard boundary falls at each part's end: the
// positions are one run's, their cut into shards the parts'.
//
// Either output directory appears when complete (TempDir); an existing one
// is refused unless overwrite.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"

namespace manaka::selfplay {

Status join_shogi_selfplay(const std::vector<std::string>& parts, const std::string& output, bool overwrite);

// Returns selfplay.json's content.
Result<nlohmann::ordered_json> join_chess_selfplay(const std::vector<std::string>& parts, const std::string& output,
                                                   const nlohmann::ordered_json& meta, bool overwrite);

}  // namespace manaka::selfplay
