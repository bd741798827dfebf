// The conventions a shard's footer states, checked when a shard is opened:
// a reader takes the rows' meaning from them (pov decides whose view value_z
// is), so a value out of its range is refused, naming the file and the key,
// rather than read as something else. Keys that are absent (shards of other
// tools) are not required.
//
//   pov, policy_source        "0" or "1"
//   packed_len                "96": the packed column's width
//   mate_scale, mate_slack,
//   fv_scale, seed            an unsigned integer
//   eval_coef, temperature    a finite number >= 0 (temperature > 0 when
//                             policy_source is 1)
//   manaka.set.*              shard/shard_set.h (check_shard_sets)
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/status.h"

namespace manaka::shard {

Status check_footer(const std::string& path, const std::vector<std::pair<std::string, std::string>>& footer);

}  // namespace manaka::shard
