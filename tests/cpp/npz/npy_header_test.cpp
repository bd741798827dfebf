// npz/npy_header: numpy's header bytes, and the refusals of the parser.
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "npz/npy_header.h"

namespace manaka::npz {
namespace {

std::span<const uint8_t> bytes(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

// A header with this dict, version 1.0, as numpy would pad it.
std::string with_dict(const std::string& dict, uint8_t major = 1) {
  std::string h = "\x93NUMPY";
  h += char(major);
  h += '\0';
  const size_t preamble = major == 1 ? 10 : 12;
  size_t len = dict.size() + 1;
  len += 64 - (preamble + len) % 64;
  h += char(len & 0xFF);
  h += char(len >> 8);
  if (major != 1) h += std::string(2, '\0');
  h += dict;
  h.append(len - dict.size() - 1, ' ');
  h += '\n';
  return h;
}

Status parse_error(const std::string& header) {
  auto r = parse_npy_header(bytes(header));
  EXPECT_FALSE(r.ok()) << header;
  return r.ok() ? Status() : r.status();
}

TEST(NpyHeader, NumpysBytes) {
  // np.savez_compressed(states=np.zeros((3, 20, 8, 8), np.int8)): the member starts with these 128 bytes.
  const std::array<uint64_t, 4> shape = {3, 20, 8, 8};
  std::string expect = std::string("\x93NUMPY\x01\x00v\x00", 10) +
                       "{'descr': '|i1', 'fortran_order': False, 'shape': (3, 20, 8, 8), }";
  expect.append(128 - 1 - expect.size(), ' ');
  expect += '\n';
  EXPECT_EQ(format_npy_header(DType::Int8, shape), expect);

  const std::array<uint64_t, 1> one = {10000};
  const std::string h = format_npy_header(DType::Int32, one);
  EXPECT_EQ(h.size(), 128u);
  EXPECT_NE(h.find("{'descr': '<i4', 'fortran_order': False, 'shape': (10000,), }"), std::string::npos);
  EXPECT_EQ(format_npy_header(DType::Float64, std::span<const uint64_t>()).size() % 64, 0u);
  const std::string scalar = format_npy_header(DType::Bool, std::span<const uint64_t>());
  EXPECT_NE(scalar.find("{'descr': '|b1', 'fortran_order': False, 'shape': (), }   "), std::string::npos);
  EXPECT_EQ(scalar.back(), '\n');
}

TEST(NpyHeader, RoundTrip) {
  const std::vector<std::vector<uint64_t>> shapes = {{}, {0}, {7}, {3, 20, 8, 8}, {1, 1, 1, 1, 1, 2}};
  for (int t = 0; t <= int(DType::Float64); ++t) {
    for (const auto& shape : shapes) {
      const std::string h = format_npy_header(DType(t), shape);
      EXPECT_EQ(h.size() % 64, 0u);
      auto size = npy_header_size(bytes(h));
      ASSERT_TRUE(size.ok()) << size.status().message();
      EXPECT_EQ(*size, h.size());
      auto p = parse_npy_header(bytes(h));
      ASSERT_TRUE(p.ok()) << p.status().message();
      EXPECT_EQ(p->dtype, DType(t));
      EXPECT_EQ(p->shape, shape);
      EXPECT_EQ(p->header_size, h.size());
      uint64_t count = 1;
      for (uint64_t d : shape) count *= d;
      EXPECT_EQ(p->count(), count);
      EXPECT_EQ(p->data_size, count * itemsize(DType(t)));
    }
  }
}

TEST(NpyHeader, ReadsWhatOtherWritersWrite) {
  // Key order, quotes, spacing, no trailing comma, Python 2 longs, version 2.0 and 3.0.
  for (const std::string& dict : {"{'shape': (2, 3), 'fortran_order': False, 'descr': '<f4'}",
                                  "{\"descr\":\"<f4\",\"fortran_order\":False,\"shape\":(2,3)}",
                                  "{'descr': '<f4', 'fortran_order': False, 'shape': (2L, 3L), }"}) {
    for (uint8_t major : {1, 2, 3}) {
      auto p = parse_npy_header(bytes(with_dict(dict, major)));
      ASSERT_TRUE(p.ok()) << dict << ": " << p.status().message();
      EXPECT_EQ(p->dtype, DType::Float32);
      EXPECT_EQ(p->shape, (std::vector<uint64_t>{2, 3}));
    }
  }
  // One dimension: Fortran order is the same layout.
  EXPECT_TRUE(parse_npy_header(bytes(with_dict("{'descr': '|u1', 'fortran_order': True, 'shape': (5,), }"))).ok());
  EXPECT_EQ(*dtype_of_descr("<i1"), DType::Int8);
  EXPECT_EQ(*dtype_of_descr("=i4"), DType::Int32);
  EXPECT_FALSE(dtype_of_descr("|i4").has_value());
}

TEST(NpyHeader, Refusals) {
  auto message = [](const std::string& h) { return parse_error(h).message(); };
  EXPECT_EQ(message(std::string("\x93NUMPX\x01\x00\x00\x00", 10)),
            ".npy header: no magic (93 4E 55 4D 50 59, \"\\x93NUMPY\"): not a .npy array");
  EXPECT_EQ(message(std::string("\x93NUMPY\x04\x00\x40\x00", 10) + std::string(64, ' ')),
            ".npy header: version 4.0 (1.0, 2.0 and 3.0 are known)");
  EXPECT_EQ(parse_error("\x93NUMPY").kind(), ErrorKind::Truncated);
  EXPECT_EQ(message(std::string("\x93NUMPY\x02\x00\xff\xff\xff\x00", 12)),
            ".npy header: a dict of 16777215 bytes, above the limit of 65536");
  EXPECT_EQ(parse_error(with_dict("{'descr': '|i1', 'fortran_order': False, 'shape': (3,), }").substr(0, 40)).kind(),
            ErrorKind::Truncated);
  EXPECT_EQ(message(with_dict("{'descr': '>i4', 'fortran_order': False, 'shape': (3,), }")),
            ".npy header: dtype '>i4' is not supported (big-endian) (bool, int8-64, uint8-64, float32, float64, "
            "little-endian)");
  EXPECT_EQ(message(with_dict("{'descr': '<U8', 'fortran_order': False, 'shape': (3,), }")),
            ".npy header: dtype '<U8' is not supported (bool, int8-64, uint8-64, float32, float64, little-endian)");
  EXPECT_EQ(message(with_dict("{'descr': [('a', '<i4')], 'fortran_order': False, 'shape': (3,), }")),
            ".npy header: a structured dtype (a list of fields) is not supported at byte 10 of the dict");
  EXPECT_EQ(message(with_dict("{'descr': '<i4', 'fortran_order': True, 'shape': (3, 2), }")),
            ".npy header: fortran_order True (column-major) is not supported for shape (3, 2)");
  EXPECT_EQ(message(with_dict("{'descr': '<i4', 'fortran_order': False, 'shape': (3,), 'x': 1}")),
            ".npy header: unexpected key 'x' (a .npy header holds descr, fortran_order, shape) at byte 61 of the "
            "dict");
  EXPECT_EQ(message(with_dict("{'descr': '<i4', 'shape': (3,), }")), ".npy header: no 'fortran_order' key");
  EXPECT_EQ(message(with_dict("{'descr': '<i4', 'descr': '<i4', 'fortran_order': False, 'shape': (3,)}")),
            ".npy header: 'descr' given twice at byte 26 of the dict");
  EXPECT_EQ(message(with_dict("{'descr': '<i8', 'fortran_order': False, 'shape': (4611686018427387904, 4), }")),
            ".npy header: shape (4611686018427387904, 4) of <i8 overflows 64 bits");
  EXPECT_EQ(message(with_dict("{'descr': '<i8', 'fortran_order': False, 'shape': (99999999999999999999,), }")),
            ".npy header: a dimension above 2^64 at byte 70 of the dict");
  EXPECT_EQ(message(with_dict("{'descr': '<i8', 'fortran_order': False, 'shape': (-1,), }")),
            ".npy header: expected a non-negative integer at byte 51 of the dict");
  EXPECT_EQ(message(with_dict("{'descr': '<i8', 'fortran_order': False, 'shape': (3), }")),
            ".npy header: a one-dimensional shape without its comma at byte 52 of the dict");
  EXPECT_EQ(message(with_dict("{'descr': '<i8', 'fortran_order': 0, 'shape': (3,), }")),
            ".npy header: expected True or False at byte 34 of the dict");
  EXPECT_EQ(message(with_dict("{'descr': '<i8', 'fortran_order': False, 'shape': (3,), } x")),
            ".npy header: text after the dict at byte 58 of the dict");
}

}  // namespace
}  // namespace manaka::npz
