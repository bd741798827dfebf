// The 256-bit streams of the 32-byte position codes (shogi/packed_sfen.h,
// shogi/huffman_coded_pos.h): bits least significant first within each byte,
// byte 0 first. A value of n bits is written and read bit 0 first.
#pragma once

#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <span>

namespace manaka::shogi {

inline constexpr size_t POSITION_CODE_LEN = 32;
inline constexpr int POSITION_CODE_BITS = int(POSITION_CODE_LEN) * 8;  // 256

class BitWriter {
 public:
  void put(uint32_t value, int bits) {
    for (int i = 0; i < bits; ++i, ++cursor_) {
      assert(cursor_ < POSITION_CODE_BITS);
      if (value >> i & 1) out_[cursor_ / 8] |= uint8_t(1u << (cursor_ % 8));
    }
  }
  int cursor() const { return cursor_; }
  const std::array<uint8_t, POSITION_CODE_LEN>& bytes() const { return out_; }

 private:
  std::array<uint8_t, POSITION_CODE_LEN> out_{};
  int cursor_ = 0;
};

class BitReader {
 public:
  explicit BitReader(std::span<const uint8_t, POSITION_CODE_LEN> in) : in_(in) {}
  bool exhausted() const { return cursor_ >= POSITION_CODE_BITS; }
  int cursor() const { return cursor_; }
  // false past bit 256.
  bool get(uint32_t& bit) {
    if (cursor_ >= POSITION_CODE_BITS) return false;
    bit = in_[cursor_ / 8] >> (cursor_ % 8) & 1;
    ++cursor_;
    return true;
  }
  bool get_n(int bits, uint32_t& value) {
    value = 0;
    for (int i = 0; i < bits; ++i) {
      uint32_t b;
      if (!get(b)) return false;
      value |= b << i;
    }
    return true;
  }

 private:
  std::span<const uint8_t, POSITION_CODE_LEN> in_;
  int cursor_ = 0;
};

// A prefix code of up to 8 bits: value's bit 0 is written first.
struct PieceCode {
  uint8_t value;
  uint8_t bits;
};

// A whole piece read from the next 8 bits: its kind code, then (where it
// has one) the promotion bit and the colour bit, in the order the format
// writes them. Every piece code of both formats, with its one or two flag
// bits, fits 8 bits, so one lookup reads a piece (shogi/position_code.cpp).
struct PieceMatch {
  static constexpr uint8_t kEmpty = 7, kNoCode = 0xFF;
  uint8_t kind = kNoCode;  // hand kind P L N S G B R = 0..6, kEmpty, or kNoCode
  uint8_t bits = 0;        // the whole piece's length
  uint8_t promoted = 0, white = 0;
};
// codes: the kind codes by hand kind; board: a lone 0 bit is an empty
// square; promotion_bit: non-gold kinds carry a promotion bit;
// colour_first: the colour bit comes before the promotion bit.
constexpr std::array<PieceMatch, 256> make_piece_table(const PieceCode (&codes)[7], bool board, bool promotion_bit,
                                                       bool colour_first) {
  constexpr uint8_t kGold = 4;
  std::array<PieceMatch, 256> t{};
  for (uint32_t w = 0; w < 256; ++w) {
    if (board && (w & 1) == 0) {
      t[w] = {PieceMatch::kEmpty, 1, 0, 0};
      continue;
    }
    for (uint8_t k = 0; k < 7; ++k) {
      const bool has_promotion = promotion_bit && k != kGold;
      for (uint8_t promoted = 0; promoted <= uint8_t(has_promotion); ++promoted) {
        for (uint8_t white = 0; white <= 1; ++white) {
          uint32_t code = codes[k].value;
          int bits = codes[k].bits;
          if (has_promotion && !colour_first) code |= uint32_t(promoted) << bits++;
          code |= uint32_t(white) << bits++;
          if (has_promotion && colour_first) code |= uint32_t(promoted) << bits++;
          if ((w & ((1u << bits) - 1)) == code) t[w] = {k, uint8_t(bits), promoted, white};
        }
      }
    }
  }
  return t;
}

}  // namespace manaka::shogi
