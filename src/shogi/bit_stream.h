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

}  // namespace manaka::shogi
