// Which streams may be folded together (docs: "What must not be folded
// together"). Addition is only meaningful between records that mean the same
// thing by their numbers, so every header field that changes a number's
// meaning must agree: policy_source, pov, mate_scale, mate_slack, fv_scale,
// eval_coef (compared bit for bit) and packed_len. mate_slack is compared as
// the slack the fold applies (fold/policy.h): a header's 0 means the card's
// 320, so 0 and 320 agree, and with no mate scale there is no slack at all. version and flags are the
// reader's business (it refuses what it cannot read). Nothing else is
// compared: self-play streams of different generations fold.
#pragma once

#include <string>

#include "core/status.h"
#include "stream/format.h"

namespace manaka::fold {

// Ok when b may be folded with a; otherwise an Invalid status naming both
// files, the first differing field and both values:
//   cannot fold b.mpk with a.mpk: mate_scale differs (a.mpk has 30000,
//   b.mpk has 32000)
Status check_foldable(const std::string& path_a, const stream::Header& a,
                      const std::string& path_b, const stream::Header& b);


}  // namespace manaka::fold
