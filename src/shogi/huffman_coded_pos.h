// Apery's HuffmanCodedPos (hcp): a position in 256 bits, the position of
// dlshogi's hcpe and hcpe3 records (stream/import_format.h). Bits are
// written least significant first within each byte, byte 0 first
// (shogi/bit_stream.h); a code "b0 b1 b2" lists its bits in written order.
//
//   1 bit    side to move: 0 Black, 1 White
//   7 bits   Black's king square, 7 bits White's (Apery squares = YaneuraOu's,
//            (file - 1) * 9 + rank - 1, shogi/yaneuraou_square.h)
//   board    every square 0 (1a), 1 (1b), ..., 80 (9i) but the kings':
//              empty 0; otherwise the piece code, then the colour bit
//              (1 White), then (not for gold) the promotion bit
//              pawn 10  lance 1100  knight 1110  silver 1101
//              gold 11110  bishop 111110  rook 111111
//   hands    Black's then White's, kinds in the order P L N S G B R, one code
//            per piece, then the colour bit:
//              pawn 00  lance 1000  knight 1100  silver 1010
//              gold 1110  bishop 111110  rook 111111
// Unlike PackedSfen (shogi/packed_sfen.h) the colour comes before the
// promotion bit on the board, knight and silver swap codes, and there is no
// box: only a position holding all 38 pieces that are not kings has a code,
// and it fills exactly 256 bits. The move number is not stored.
//
// Checked against cshogi 1.1.0 (Board.to_hcp / set_hcp) in
// tests/python/test_stream_import.py.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "core/status.h"
#include "shogi/position.h"

namespace manaka::shogi {

inline constexpr size_t HUFFMAN_CODED_POS_LEN = 32;  // 256 bits
using HuffmanCodedPos = std::array<uint8_t, HUFFMAN_CODED_POS_LEN>;

struct PositionCodeFormat;
// The layout as a format of the one codec (shogi/position_code.h).
const PositionCodeFormat& huffman_coded_pos_format();

// Refuses a position with pieces missing (a handicap): the code has no box.
Result<HuffmanCodedPos> encode_huffman_coded_pos(const Position& pos);

// Refuses, naming the bit offset and the rule: a king square over 80 or both
// kings on one square, a code matching no piece, pieces past bit 256, more or
// fewer pieces of a kind than a full set; then what Position::from_setup
// refuses. The position has move number 1.
Result<Position> decode_huffman_coded_pos(std::span<const uint8_t, HUFFMAN_CODED_POS_LEN> bytes);

}  // namespace manaka::shogi
