// core/crc32 against the standard check values (zlib.crc32).
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

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

}  // namespace
}  // namespace manaka
