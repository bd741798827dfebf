// The .npy header (numpy.lib.format): what precedes an array's bytes in
// every member of an npz archive.
//
//   0  magic 93 'N' 'U' 'M' 'P' 'Y'
//   6  major version u8 (1, 2 or 3) | 7 minor version u8 (0)
//   8  header length: u16 in version 1, u32 in versions 2 and 3
//   10 or 12  a Python dict literal, padded with spaces and ended by '\n':
//      {'descr': '<i4', 'fortran_order': False, 'shape': (10000,), }
//
// numpy pads so that the data starts at a multiple of 64 bytes, and adds
// spare spaces after the dict so the first axis can grow in place; it writes
// version 1.0 unless the header does not fit a u16, then 2.0 (3.0 only for
// field names that need UTF-8, which no supported dtype has). The data
// follows in C order, count(shape) * itemsize bytes, little-endian.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace manaka::npz {

// The element types an archive may hold, little-endian; the underlying
// value is not stored anywhere (the descr string is).
enum class DType : uint8_t { Bool, Int8, UInt8, Int16, UInt16, Int32, UInt32, Int64, UInt64, Float32, Float64 };

// numpy's descr as numpy writes it on a little-endian machine: "|b1", "|i1",
// "|u1", "<i2", "<u2", "<i4", "<u4", "<i8", "<u8", "<f4", "<f8".
std::string_view descr(DType t);
size_t itemsize(DType t);
// The dtype a descr names. Accepts '<' and '=' (this is a little-endian
// reader), and '|' for one-byte types; anything else is std::nullopt.
std::optional<DType> dtype_of_descr(std::string_view descr);

constexpr uint8_t NPY_MAGIC[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
constexpr size_t NPY_PREAMBLE_V1 = 10;  // magic, version, u16 length
constexpr size_t NPY_PREAMBLE_V2 = 12;  // magic, version, u32 length
// A header longer than this is refused before it is read (numpy's own
// reader stops at 10000 unless told otherwise).
constexpr uint64_t NPY_MAX_HEADER = 65536;
constexpr size_t NPY_MAX_DIMS = 32;  // numpy's NPY_MAXDIMS (64 since 2.0; 32 is plenty here)

struct NpyHeader {
  DType dtype = DType::UInt8;
  std::vector<uint64_t> shape;
  uint64_t header_size = 0;  // bytes from the magic to the '\n', where the data starts
  uint64_t data_size = 0;    // count * itemsize, checked not to overflow
  uint64_t count() const;    // the product of shape (1 for a scalar)
};

// The whole header's size from its first NPY_PREAMBLE_V2 bytes (fewer are
// enough for version 1): refuses a wrong magic, a version other than 1.0,
// 2.0 or 3.0, and a length above NPY_MAX_HEADER.
Result<uint64_t> npy_header_size(std::span<const uint8_t> first);

// Parses a whole header (npy_header_size bytes). Refuses a dict that is not
// exactly {'descr', 'fortran_order', 'shape'}, a dtype outside DType (named:
// big-endian, structured, other kinds), fortran_order True for more than one
// dimension, and a shape whose byte size overflows 64 bits.
Result<NpyHeader> parse_npy_header(std::span<const uint8_t> header);

// The header numpy's format.write_array writes for this dtype and shape,
// byte for byte (C order).
std::string format_npy_header(DType t, std::span<const uint64_t> shape);

// "(10000, 20, 8, 8)", "(3,)", "()": a shape as Python prints it.
std::string shape_text(std::span<const uint64_t> shape);

}  // namespace manaka::npz
