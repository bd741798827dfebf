// The 256-bit position codes of YaneuraOu (PackedSfen, shogi/packed_sfen.h)
// and Apery (HuffmanCodedPos, shogi/huffman_coded_pos.h) share one layout:
// side to move, the two kings' squares, every other square of the board
// as a Huffman piece code with its flag bits, then the hands. They differ
// only where a PositionCodeFormat says: the kind codes, the order of the
// colour and promotion bits on the board, and whether hand pieces carry a
// promotion bit, which PackedSfen uses to box the pieces of a handicap
// (without it, only a full set of 38 pieces has a code). One encoder and
// one decoder serve both.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "core/status.h"
#include "shogi/bit_stream.h"
#include "shogi/position.h"

namespace manaka::shogi {

struct PositionCodeFormat {
  const char* name;                  // in messages: "packed sfen bit 17: ..."
  PieceCode board[HAND_KIND_NB];     // board kind codes, P L N S G B R
  PieceCode hand[HAND_KIND_NB];      // hand kind codes
  bool colour_first;                 // board: the colour bit before the promotion bit
  bool boxed;                        // hand codes carry a promotion bit; 1 marks a boxed piece
  std::array<PieceMatch, 256> board_table, hand_table;
};

constexpr PositionCodeFormat make_position_code_format(const char* name, const PieceCode (&board)[HAND_KIND_NB],
                                                       const PieceCode (&hand)[HAND_KIND_NB], bool colour_first,
                                                       bool boxed) {
  PositionCodeFormat f{name, {}, {}, colour_first, boxed, {}, {}};
  for (int hk = 0; hk < HAND_KIND_NB; ++hk) {
    f.board[hk] = board[hk];
    f.hand[hk] = hand[hk];
  }
  f.board_table = make_piece_table(board, true, true, colour_first);
  f.hand_table = make_piece_table(hand, false, boxed, false);
  return f;
}

using PositionCode = std::array<uint8_t, POSITION_CODE_LEN>;

// Refuses a position with pieces missing when the format cannot box them.
Result<PositionCode> encode_position_code(const PositionCodeFormat& f, const Position& pos);
// Refuses, naming the bit offset and the rule: a king square over 80 or both
// kings on one square, a code matching no piece, pieces past bit 256, more
// or fewer than a full set of pieces (board, hands and box together); then
// what Position::from_setup refuses. The position has move number 1.
Result<Position> decode_position_code(const PositionCodeFormat& f, std::span<const uint8_t, POSITION_CODE_LEN> bytes);

}  // namespace manaka::shogi
