#include "shogi/packed_sfen.h"

#include "shogi/position_code.h"

namespace manaka::shogi {
namespace {

// Board codes by hand kind (P L N S G B R): the value's bit 0 is written first.
constexpr PieceCode kBoardCode[HAND_KIND_NB] = {{0x01, 2}, {0x03, 4}, {0x0b, 4}, {0x07, 4},
                                                {0x0f, 5}, {0x1f, 6}, {0x3f, 6}};
// Hand (and box) codes: the board codes without their first bit.
constexpr PieceCode kHandCode[HAND_KIND_NB] = {
    {kBoardCode[0].value >> 1, 1}, {kBoardCode[1].value >> 1, 3}, {kBoardCode[2].value >> 1, 3},
    {kBoardCode[3].value >> 1, 3}, {kBoardCode[4].value >> 1, 4}, {kBoardCode[5].value >> 1, 5},
    {kBoardCode[6].value >> 1, 5}};
// Kind code, promotion bit, colour bit; in hand and box too (a boxed piece
// is a hand piece marked promoted).
constexpr PositionCodeFormat kPackedSfen =
    make_position_code_format("packed sfen", kBoardCode, kHandCode, /*colour_first=*/false, /*boxed=*/true);

}  // namespace

const PositionCodeFormat& packed_sfen_format() { return kPackedSfen; }

PackedSfen encode_packed_sfen(const Position& pos) {
  // A format with a box codes every position.
  return encode_position_code(kPackedSfen, pos).value();
}

Result<Position> decode_packed_sfen(std::span<const uint8_t, PACKED_SFEN_LEN> bytes) {
  return decode_position_code(kPackedSfen, bytes);
}

}  // namespace manaka::shogi
