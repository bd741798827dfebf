// The 24-byte MPK1 header: encoding, decoding and its rules. The layout is in
// stream/format.h.
#pragma once

#include <cstdint>
#include <span>

#include "core/status.h"
#include "stream/format.h"

namespace manaka::stream {

// Writes the 24 header bytes, magic first. Does not validate.
void encode_header(const Header& header, std::span<uint8_t, kHeaderSize> out);

// Parses and validates 24 header bytes: the magic, then the rules of
// validate_header. The message names the rule only ("unsupported version
// 2 ..."); callers prefix the file.
Result<Header> decode_header(std::span<const uint8_t, kHeaderSize> bytes);

// A header this version can write and read, and whose numbers a consumer can
// use (the teacher conversion squashes against eval_coef; the fold tests
// mates against mate_scale - slack and folds only equal headers):
//   H1. version 1
//   H2. pov 0 or 1; H3. policy_source 0 or 1
//   H4. eval_coef 0 (not applicable), or a finite number of centipawns from
//       1 to 100000. Below 1 a single centipawn would move the win rate
//       sigmoid(cp / eval_coef) from 50% past 73%, so the scores are not
//       centipawns; above 100000 even the largest i16 score (32767) squashes
//       to a win rate under 58%, so value_q could never state a decided
//       position. Refused with them: inf, NaN, negative values and -0 (whose
//       bits differ from the absent 0, so the fold would refuse to fold it
//       with a stream that has eval_coef 0).
//   H5. mate_scale at most 32767: a mate folds to a cp, an i16
//   H6. mate_slack 0 when mate_scale is 0: there is no mate band to reach
//       into, and the fold would drop the value
//   H7. with a mate_scale, the slack (mate_slack, or 320 for 0) below it:
//       the mate threshold mate_scale - slack is at least 1, else every
//       score, 0 included, would be a mate
//   H8. no flag bit set (the message names every set bit)
// fv_scale (provenance only) and packed_len take any value; a record's
// position is checked against shogi::unpack only when packed_len is 96.
Status validate_header(const Header& header);

// A header for self-play streams: policy_source 0, pov 0, and every
// centipawn-scale field absent (mate_scale, fv_scale, mate_slack, eval_coef 0).
Header selfplay_header();

}  // namespace manaka::stream
