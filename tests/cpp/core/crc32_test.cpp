// core/crc32 against the standard check values (zlib.crc32).
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <zlib.h>

#include "core/crc32.h"

namespace manaka {
namespace {

TEST(Crc32, KnownVectors) {
  EXPECT_EQ(crc32_hex(""), "00000000");
  EXPECT_EQ(crc32_hex("123456789"), "cbf43926");
  EXPECT_EQ(crc32_hex("abc"), "352441c2");
  EXPECT_EQ(crc32_text(0x0c291ca3), "0c291ca3");
  EXPECT_EQ(crc32_update(crc32("1234"), "56789", 5), crc32("123456789"));
  EXPECT_EQ(crc32_update(crc32("abc"), nullptr, 0), crc32("abc"));  // zlib alone would answer 0
  const std::string path = ::testing::TempDir() + "/crc_" + std::to_string(::getpid());
  std::ofstream(path) << "abc";
  auto h = crc32_file(path);
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(*h, "352441c2");
  std::filesystem::remove(path);
  EXPECT_FALSE(crc32_file(path).ok());
}

TEST(Crc32, EveryLengthAndAlignmentAsZlib) {
  // The folding path (64 bytes and more, where the CPU has PCLMULQDQ) and
  // zlib's own on the tail must together give zlib's CRC for any split.
  std::string bytes(70000, '\0');
  uint64_t x = 0x9E3779B97F4A7C15ull;
  for (char& c : bytes) c = static_cast<char>((x = x * 6364136223846793005ull + 1442695040888963407ull) >> 56);
  const auto* p = reinterpret_cast<const Bytef*>(bytes.data());
  for (size_t offset = 0; offset < 16; ++offset) {
    for (size_t n : {0, 1, 15, 16, 17, 63, 64, 65, 79, 80, 127, 128, 129, 200, 1000, 4096, 4099, 65536, 69984}) {
      for (uint32_t start : {0u, 0xFFFFFFFFu, 0x12345678u}) {
        const uint32_t want = n ? static_cast<uint32_t>(crc32_z(start, p + offset, n)) : start;
        ASSERT_EQ(crc32_update(start, p + offset, n), want) << "offset " << offset << " n " << n;
      }
    }
  }
  // Split anywhere, the same as in one piece.
  const uint32_t whole = crc32_update(0, p, 70000);
  for (size_t cut : {1, 63, 64, 100, 4095, 50001}) EXPECT_EQ(crc32_update(crc32_update(0, p, cut), p + cut, 70000 - cut), whole);
}

}  // namespace
}  // namespace manaka
