// The 96-byte packed position of MPK1 (spec: mpk1-training-data-formats,
// "What packed holds"). Every byte is used:
//
//   bytes  0..80  the board by square index: color << 4 | kind, 0xFF empty
//   bytes 81..87  Black's hand counts, P L N S G B R
//   bytes 88..94  White's hand counts, same order
//   byte      95  side to move, 0 Black / 1 White
//
// The move number is not stored.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "core/status.h"
#include "shogi/position.h"

namespace manaka::shogi {

constexpr size_t PACKED_LEN = 96;
constexpr size_t PACKED_HAND = 81;   // offset of Black's hand; White's follows
constexpr size_t PACKED_SIDE = 95;
using Packed = std::array<uint8_t, PACKED_LEN>;

Packed pack(const Position& pos);
// The position the bytes hold, with move number 1. Refusals name the byte
// offset where there is one ("byte 17: unknown board byte 0x0e") and the rule
// broken (see Position::from_setup).
Result<Position> unpack(std::span<const uint8_t> bytes);
// unpack(bytes).ok(), without building the Position or a message: the same
// rules over the 96 bytes as vectors (shogi/packed_valid.cpp), cheap enough
// for every record a stream reader returns. tests/cpp/shogi/pack_test.cpp
// checks that the verdict is unpack's.
bool packed_is_valid(std::span<const uint8_t, PACKED_LEN> bytes);

}  // namespace manaka::shogi
