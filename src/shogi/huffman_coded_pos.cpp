#include "shogi/huffman_coded_pos.h"

#include "shogi/position_code.h"

namespace manaka::shogi {
namespace {

// Board piece codes by hand kind (P L N S G B R), without the colour and
// promotion bits: the value's bit 0 is written first.
constexpr PieceCode kBoardCode[HAND_KIND_NB] = {{0x01, 2}, {0x03, 4}, {0x07, 4}, {0x0b, 4},
                                                {0x0f, 5}, {0x1f, 6}, {0x3f, 6}};
// Hand codes by hand kind, without the colour bit that ends each: not the
// board codes shortened (bishop 11111 0, rook 11111 1), so a table of their own.
constexpr PieceCode kHandCode[HAND_KIND_NB] = {{0x00, 2}, {0x01, 4}, {0x03, 4}, {0x05, 4},
                                               {0x07, 4}, {0x1f, 6}, {0x3f, 6}};
// On the board kind code, colour bit, promotion bit; in hand the kind code
// and the colour bit; no box.
constexpr PositionCodeFormat kHuffmanCodedPos =
    make_position_code_format("huffman coded pos", kBoardCode, kHandCode, /*colour_first=*/true, /*boxed=*/false);

}  // namespace

const PositionCodeFormat& huffman_coded_pos_format() { return kHuffmanCodedPos; }

Result<HuffmanCodedPos> encode_huffman_coded_pos(const Position& pos) {
  return encode_position_code(kHuffmanCodedPos, pos);
}

Result<Position> decode_huffman_coded_pos(std::span<const uint8_t, HUFFMAN_CODED_POS_LEN> bytes) {
  return decode_position_code(kHuffmanCodedPos, bytes);
}

}  // namespace manaka::shogi
