// Unsigned LEB128 bounded to u32, as SAZ2 stores counts and visits: seven
// bits a byte, least significant group first, bit 7 set on every byte but
// the last. At most 5 bytes, and the fifth may carry only the top 4 bits.
// A non-minimal encoding (0x80 0x00 for 0) is read as its value; the writer
// always emits the minimal one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace manaka::sazpack {

enum class VarintStatus : uint8_t { Ok, Truncated, TooLong, Overflow };

// Reads a value starting at data[pos], stopping at end; advances pos past it.
inline VarintStatus read_uleb128_u32(const uint8_t* data, size_t& pos, size_t end, uint32_t& out) {
  uint32_t value = 0;
  for (int i = 0; i < 5; ++i) {
    if (pos >= end) return VarintStatus::Truncated;
    uint8_t byte = data[pos++];
    if (i == 4 && (byte & 0x70)) return VarintStatus::Overflow;
    value |= uint32_t(byte & 0x7F) << (7 * i);
    if (!(byte & 0x80)) {
      out = value;
      return VarintStatus::Ok;
    }
  }
  return VarintStatus::TooLong;
}

inline void append_uleb128_u32(std::vector<uint8_t>& out, uint32_t value) {
  while (value >= 0x80) {
    out.push_back(uint8_t(value | 0x80));
    value >>= 7;
  }
  out.push_back(uint8_t(value));
}

}  // namespace manaka::sazpack
