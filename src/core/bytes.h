// Little-endian loads and stores over raw bytes. Every on-disk format in
// manaka is little-endian; these compile to plain moves on a little-endian
// host and to a byte swap elsewhere. The pointer need not be aligned.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

namespace manaka {

namespace detail {

template <typename U>
constexpr U byteswap_if_big(U v) {
  if constexpr (std::endian::native == std::endian::little || sizeof(U) == 1) {
    return v;
  } else if constexpr (sizeof(U) == 2) {
    return static_cast<U>(__builtin_bswap16(v));
  } else if constexpr (sizeof(U) == 4) {
    return static_cast<U>(__builtin_bswap32(v));
  } else {
    return static_cast<U>(__builtin_bswap64(v));
  }
}

template <typename U>
inline U load_unsigned(const uint8_t* p) {
  U v;
  std::memcpy(&v, p, sizeof(U));
  return byteswap_if_big(v);
}

template <typename U>
inline void store_unsigned(uint8_t* p, U v) {
  v = byteswap_if_big(v);
  std::memcpy(p, &v, sizeof(U));
}

}  // namespace detail

inline uint8_t load_u8(const uint8_t* p) { return *p; }
inline uint16_t load_u16(const uint8_t* p) { return detail::load_unsigned<uint16_t>(p); }
inline uint32_t load_u32(const uint8_t* p) { return detail::load_unsigned<uint32_t>(p); }
inline uint64_t load_u64(const uint8_t* p) { return detail::load_unsigned<uint64_t>(p); }
inline int16_t load_i16(const uint8_t* p) { return static_cast<int16_t>(load_u16(p)); }
inline int32_t load_i32(const uint8_t* p) { return static_cast<int32_t>(load_u32(p)); }
inline float load_f32(const uint8_t* p) { return std::bit_cast<float>(load_u32(p)); }
inline double load_f64(const uint8_t* p) { return std::bit_cast<double>(load_u64(p)); }

inline void store_u8(uint8_t* p, uint8_t v) { *p = v; }
inline void store_u16(uint8_t* p, uint16_t v) { detail::store_unsigned(p, v); }
inline void store_u32(uint8_t* p, uint32_t v) { detail::store_unsigned(p, v); }
inline void store_u64(uint8_t* p, uint64_t v) { detail::store_unsigned(p, v); }
inline void store_i16(uint8_t* p, int16_t v) { store_u16(p, static_cast<uint16_t>(v)); }
inline void store_i32(uint8_t* p, int32_t v) { store_u32(p, static_cast<uint32_t>(v)); }
inline void store_f32(uint8_t* p, float v) { store_u32(p, std::bit_cast<uint32_t>(v)); }
inline void store_f64(uint8_t* p, double v) { store_u64(p, std::bit_cast<uint64_t>(v)); }

}  // namespace manaka
