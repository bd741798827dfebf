// The square numbering of YaneuraOu and Apery (and so of PackedSfen,
// HuffmanCodedPos and both engines' 16-bit moves): (file - 1) * 9 + rank - 1,
// 1a = 0, 1b = 1, ..., 9i = 80. MPK1 counts files the other way
// ((9 - file) * 9 + rank - 1, shogi/types.h).
#pragma once

#include <cstdint>

namespace manaka::shogi {

// YaneuraOu square <-> manaka (MPK1) square; the map is its own inverse.
constexpr uint8_t convert_square(int sq) { return uint8_t((8 - sq / 9) * 9 + sq % 9); }

}  // namespace manaka::shogi
