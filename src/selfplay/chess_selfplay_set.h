// Chess self-play games on disk, as the refinement keeps them: a directory
// of npz shards with visit counts (the chess corpus's shard format, cut at
// shard_positions positions) and selfplay.json, complete or absent (built
// under a temporary name and renamed).
//
// selfplay.json: the caller's meta fields first, then games, positions,
// visit_entries, results and terminations counted, per game its first
// position (game_offsets), result, termination and opening (UCI moves), and
// the shards with their positions.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "core/status.h"
#include "search/chess_selfplay.h"

namespace manaka::selfplay {

// Returns selfplay.json's content. An existing directory is refused.
Result<nlohmann::ordered_json> write_chess_selfplay(const std::string& dir, const search::ChessSelfPlayData& games,
                                                    uint64_t shard_positions, const nlohmann::ordered_json& meta);

}  // namespace manaka::selfplay
