// The shard footer's key-value metadata (docs: "Key-value metadata"). Every
// pair is copied from the stream header or from the converter's constants;
// nothing can be added by hand, so the footer cannot disagree with the rows.
//
//   pov            "0" side to move, "1" Black
//   policy_source  "0" visits, "1" softmax over cp
//   mate_scale     the header's, "0" when not applicable
//   mate_slack     the slack the fold applied: the header's, or 320 when it
//                  says 0; "0" when mate_scale is 0
//   fv_scale       the header's, "0" when not stated
//   eval_coef      the header's, shortest round-trip float text ("756.0865")
//   temperature    the softmax temperature in cp ("100") for policy_source 1;
//                  "0" for policy_source 0, where no softmax was applied
//   packed_len     "96"
//   packed         what those 96 bytes are (the layout, in words)
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "stream/format.h"

namespace manaka::fold {

inline constexpr const char* kPackedMeaning =
    "manaka shogi position, 96 bytes: 0-80 board in square order 9a,9b..9i,8a..1i "
    "(bit 4 colour 0 Black/1 White, low nibble kind K R B G S N L P +R +B +S +N +L +P, "
    "0xFF empty); 81-87 Black's hand P L N S G B R; 88-94 White's hand; 95 side to move "
    "(0 Black, 1 White)";

std::vector<std::pair<std::string, std::string>> footer_metadata(const stream::Header& header,
                                                                 double temperature);

}  // namespace manaka::fold
