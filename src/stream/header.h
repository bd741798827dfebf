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

// A header this version can write and read: version 1, pov 0 or 1,
// policy_source 0 or 1, no flag bit set (the message names every set bit).
Status validate_header(const Header& header);

// A header for self-play streams: policy_source 0, pov 0, and every
// centipawn-scale field absent (mate_scale, fv_scale, mate_slack, eval_coef 0).
Header selfplay_header();

}  // namespace manaka::stream
