// YaneuraOu PackedSfen: a position in 256 bits, the stem of a SAZ2 game and
// the position of a PackedSfenValue (stream/import_format.h).
// Bits are written least significant first within each byte, byte 0 first;
// a code "b0 b1 b2" below lists its bits in the order they are written.
//
//   1 bit    side to move: 0 Black, 1 White
//   7 bits   Black's king square, 7 bits White's (YaneuraOu squares,
//            (file - 1) * 9 + rank - 1, value least significant bit first)
//   board    every square 0 (1a), 1 (1b), ..., 80 (9i) but the kings':
//              empty 0; otherwise the piece code, then (not for gold) a
//              promotion bit, then the colour bit (1 White)
//              pawn 10  lance 1100  knight 1101  silver 1110
//              gold 11110  bishop 111110  rook 111111
//   hands    Black's then White's, kinds in the order P L N S G B R, one code
//            per piece: the board code without its first bit (pawn 0, lance
//            100, knight 101, silver 110, gold 1110, bishop 11110, rook
//            11111), then a 0 promotion bit (not for gold), then the colour bit
//   box      pieces on neither board nor hand (handicaps), kinds P L N S G B
//            R: the hand code with promotion bit 1 and colour bit 0; gold,
//            having no promotion bit, is 11011 (silver's prefix, 1, 1)
// A full set (the 38 pieces that are not kings) always fills exactly 256
// bits, so nothing pads the end. The move number is not stored.
//
// Checked against cshogi 1.1.0 (Board.to_psfen / set_psfen) and rsshogi 1.7.0
// (tests/python/test_sazpack_psfen.py).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "core/status.h"
#include "shogi/position.h"

namespace manaka::shogi {

inline constexpr size_t PACKED_SFEN_LEN = 32;  // 256 bits
using PackedSfen = std::array<uint8_t, PACKED_SFEN_LEN>;

struct PositionCodeFormat;
// The layout as a format of the one codec (shogi/position_code.h).
const PositionCodeFormat& packed_sfen_format();

PackedSfen encode_packed_sfen(const Position& pos);

// Refuses, naming the bit offset and the rule: a king square over 80 or both
// kings on one square, a code matching no piece, pieces past bit 256 or bits
// left over, more or fewer than a full set of pieces (board, hands and box
// together); then what shogi::Position::from_setup refuses (two pawns on a
// file, a piece that can never move, ...). The position has move number 1.
Result<Position> decode_packed_sfen(std::span<const uint8_t, PACKED_SFEN_LEN> bytes);

}  // namespace manaka::shogi
