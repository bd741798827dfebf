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

// One step of the board decoder, from the next kBoardStepBits bits: a run of
// empty squares (each a 0 bit) and, when it fits in those bits, the piece
// after it. Every piece code starts with a 1 bit, so the run ends where the
// piece begins.
inline constexpr int kBoardStepBits = 11;
struct BoardStep {
  static constexpr uint8_t kRunOnly = 7, kNoCode = PieceMatch::kNoCode;
  uint8_t empty = 0;          // empty squares before the piece
  uint8_t bits = 0;           // bits the step reads: the run and the piece
  uint8_t kind = kNoCode;     // the piece's hand kind, kRunOnly (the piece begins past the window), kNoCode
  Piece piece = NO_PIECE;     // the piece, with its colour and promotion
};

constexpr std::array<BoardStep, 1 << kBoardStepBits> make_board_steps(const std::array<PieceMatch, 256>& board) {
  std::array<BoardStep, 1 << kBoardStepBits> t{};
  for (uint32_t w = 0; w < t.size(); ++w) {
    int empty = 0;
    while (empty < kBoardStepBits && !(w >> empty & 1)) ++empty;
    const int left = kBoardStepBits - empty;  // bits from the piece's first on
    const PieceMatch m = board[(w >> empty) & 0xFF];  // bits past the window read as 0
    if (m.kind != PieceMatch::kNoCode && m.bits <= left) {
      const Kind base = KIND_OF_HAND[m.kind];
      t[w] = {uint8_t(empty), uint8_t(empty + m.bits), m.kind,
              make_piece(Color(m.white), m.promoted ? PROMOTED[base] : base)};
    } else if (left < 8) {
      t[w] = {uint8_t(empty), uint8_t(empty), BoardStep::kRunOnly, NO_PIECE};  // the next step reads the piece
    } else {
      t[w] = {uint8_t(empty), 0, BoardStep::kNoCode, NO_PIECE};  // 8 bits that begin no piece
    }
  }
  return t;
}

struct PositionCodeFormat {
  const char* name;                  // in messages: "packed sfen bit 17: ..."
  PieceCode board[HAND_KIND_NB];     // board kind codes, P L N S G B R
  PieceCode hand[HAND_KIND_NB];      // hand kind codes
  bool colour_first;                 // board: the colour bit before the promotion bit
  bool boxed;                        // hand codes carry a promotion bit; 1 marks a boxed piece
  std::array<PieceMatch, 256> board_table, hand_table;
  std::array<BoardStep, 1 << kBoardStepBits> board_steps;  // from board_table
};

constexpr PositionCodeFormat make_position_code_format(const char* name, const PieceCode (&board)[HAND_KIND_NB],
                                                       const PieceCode (&hand)[HAND_KIND_NB], bool colour_first,
                                                       bool boxed) {
  PositionCodeFormat f{name, {}, {}, colour_first, boxed, {}, {}, {}};
  for (int hk = 0; hk < HAND_KIND_NB; ++hk) {
    f.board[hk] = board[hk];
    f.hand[hk] = hand[hk];
  }
  f.board_table = make_piece_table(board, true, true, colour_first);
  f.hand_table = make_piece_table(hand, false, boxed, false);
  f.board_steps = make_board_steps(f.board_table);
  return f;
}

using PositionCode = std::array<uint8_t, POSITION_CODE_LEN>;

// Refuses a position with pieces missing when the format cannot box them.
Result<PositionCode> encode_position_code(const PositionCodeFormat& f, const Position& pos);
// Refuses, naming the bit offset and the rule: a king square over 80 or both
// kings on one square, a code matching no piece, pieces past bit 256, more
// or fewer than a full set of pieces (board, hands and box together); then
// what Position::from_setup refuses. The position has move number 1.
// On the board, a run of empty squares and the piece after it a step (one
// lookup of the next 11 bits, held in a 64-bit register, in board_steps); in
// hand a piece a step (hand_table). A code it does not take at once (boxed
// pieces, or any refusal) is decoded again by decode_position_code_by_bits.
Result<Position> decode_position_code(const PositionCodeFormat& f, std::span<const uint8_t, POSITION_CODE_LEN> bytes);
// The same verdict a bit at a time, with the message of each refusal: the
// reference the fast path is tested against (tests/cpp/shogi/position_code_test.cpp).
Result<Position> decode_position_code_by_bits(const PositionCodeFormat& f,
                                              std::span<const uint8_t, POSITION_CODE_LEN> bytes);

}  // namespace manaka::shogi
