#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "stream/header.h"
#include "stream/reader.h"
#include "stream/writer.h"

namespace manaka::stream {
namespace {

std::vector<uint8_t> encoded(const Header& h) {
  std::vector<uint8_t> b(kHeaderSize);
  encode_header(h, std::span<uint8_t, kHeaderSize>(b.data(), kHeaderSize));
  return b;
}

Result<Header> decoded(const std::vector<uint8_t>& b) {
  return decode_header(std::span<const uint8_t, kHeaderSize>(b.data(), kHeaderSize));
}

TEST(Header, LayoutIsLittleEndianAtTheDocumentedOffsets) {
  Header h;
  h.packed_len = 0x0160;
  h.pov = Pov::Black;
  h.policy_source = PolicySource::Cp;
  h.mate_scale = 32000;
  h.fv_scale = 16;
  h.mate_slack = 100;
  h.eval_coef = 600.0f;  // 0x44160000
  std::vector<uint8_t> b = encoded(h);
  std::vector<uint8_t> expect = {'M',  'P',  'K',  '1',  0x01, 0x00, 0x60, 0x01, 0x01, 0x01, 0x00, 0x7D,
                                 0x10, 0x00, 0x64, 0x00, 0x00, 0x00, 0x16, 0x44, 0x00, 0x00, 0x00, 0x00};
  EXPECT_EQ(b, expect);
  auto back = decoded(b);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(*back, h);
}

TEST(Header, RefusesBadMagic) {
  std::vector<uint8_t> b = encoded(Header{});
  b[3] = '2';
  auto r = decoded(b);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().kind(), ErrorKind::Invalid);
  EXPECT_EQ(r.status().message(),
            "bad magic 4D 50 4B 32, expected 4D 50 4B 31 (\"MPK1\"); psv and hcpe files have no magic: manaka "
            "stream import --from psv|hcpe|hcpe3 reads them");
}

// A file of another format says what it is and which command takes it.
TEST(Header, NamesTheFormatOfAForeignFile) {
  const std::pair<const char*, const char*> cases[] = {
      {"PAR1", "a parquet file: a teacher corpus (manaka teacher convert"},
      {"SAZ2", "manaka saz to-mpk"},
      {"SQLite format 3", "VPD1"},
      {"\x28\xB5\x2F\xFD", "zstd -d"},
  };
  for (auto [head, hint] : cases) {
    std::vector<uint8_t> b = encoded(Header{});
    std::copy(head, head + std::min<size_t>(std::strlen(head), b.size()), b.begin());
    auto r = decoded(b);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.status().message().find(hint), std::string::npos) << r.status().message();
  }
}

TEST(Header, RefusesUnknownVersions) {
  for (uint16_t v : {0, 2, 65535}) {
    std::vector<uint8_t> b = encoded(Header{});
    b[4] = static_cast<uint8_t>(v);
    b[5] = static_cast<uint8_t>(v >> 8);
    auto r = decoded(b);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().message(),
              "unsupported version " + std::to_string(v) + " (this build reads MPK1 version 1)");
  }
}

TEST(Header, RefusesPovAndPolicySourceOutOfRange) {
  std::vector<uint8_t> b = encoded(Header{});
  b[8] = 2;
  EXPECT_EQ(decoded(b).status().message(), "pov is 2, must be 0 (side to move) or 1 (Black)");
  b = encoded(Header{});
  b[9] = 255;
  EXPECT_EQ(decoded(b).status().message(), "policy_source is 255, must be 0 (visits) or 1 (cp)");
}

TEST(Header, RefusesEveryFlagBitNamingIt) {
  for (int bit = 0; bit < 32; ++bit) {
    Header h;
    h.flags = uint32_t{1} << bit;
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%08X", h.flags);
    auto r = decoded(encoded(h));
    ASSERT_FALSE(r.ok()) << bit;
    EXPECT_EQ(r.status().message(),
              std::string("flags ") + hex + " has bit " + std::to_string(bit) + " set; version 1 defines no flags");
  }
  Header h;
  h.flags = 0x80000005;
  EXPECT_EQ(decoded(encoded(h)).status().message(),
            "flags 0x80000005 has bits 0, 2, 31 set; version 1 defines no flags");
}

// The numeric fields a consumer reads: eval_coef (the teacher squash),
// mate_scale and mate_slack (the fold's mate band). Each refusal by itself,
// through decode_header, the reader and the writer alike.
struct NumberCase {
  const char* name;
  void (*set)(Header&);
  std::string message;  // "" when the header is fine
};

std::vector<NumberCase> number_cases() {
  return {
      {"EvalCoefInf", [](Header& h) { h.eval_coef = std::numeric_limits<float>::infinity(); },
       "eval_coef is inf, must be 0 (not applicable) or a finite number of centipawns from 1 to 100000"},
      {"EvalCoef1e40AsFloat", [](Header& h) { h.eval_coef = static_cast<float>(1e40); },
       "eval_coef is inf, must be 0 (not applicable) or a finite number of centipawns from 1 to 100000"},
      {"EvalCoefNan", [](Header& h) { h.eval_coef = std::nanf(""); },
       "eval_coef is nan, must be 0 (not applicable) or a finite number of centipawns from 1 to 100000"},
      {"EvalCoefNegative", [](Header& h) { h.eval_coef = -600.0f; },
       "eval_coef is -600, must be 0 (not applicable) or a finite number of centipawns from 1 to 100000"},
      {"EvalCoefNegativeZero", [](Header& h) { h.eval_coef = -0.0f; },
       "eval_coef is -0, must be 0 (not applicable) or a finite number of centipawns from 1 to 100000"},
      {"EvalCoefBelowOne", [](Header& h) { h.eval_coef = std::nextafter(1.0f, 0.0f); },
       "eval_coef is 0.99999994, must be 0 (not applicable) or a finite number of centipawns from 1 to 100000"},
      {"EvalCoefAboveRange", [](Header& h) { h.eval_coef = std::nextafter(100000.0f, 1e9f); },
       "eval_coef is 100000.01, must be 0 (not applicable) or a finite number of centipawns from 1 to "
       "100000"},
      {"EvalCoefDenormal", [](Header& h) { h.eval_coef = std::numeric_limits<float>::denorm_min(); },
       "eval_coef is 1e-45, must be 0 (not applicable) or a finite number of centipawns from 1 to "
       "100000"},
      {"EvalCoefEdges", [](Header& h) { h.eval_coef = 1.0f; }, ""},
      {"EvalCoefTop", [](Header& h) { h.eval_coef = 100000.0f; }, ""},
      {"MateScaleAboveI16", [](Header& h) { h.mate_scale = 32768; },
       "mate_scale is 32768, must be at most 32767 (a mate is stored as an i16 cp)"},
      {"MateScaleTop", [](Header& h) { h.mate_scale = 32767; }, ""},
      {"SlackWithoutScale", [](Header& h) { h.mate_slack = 100; },
       "mate_slack is 100 but mate_scale is 0 (no mates); a slack needs a mate_scale"},
      {"SlackReachesScale", [](Header& h) { h.mate_scale = 100, h.mate_slack = 100; },
       "mate_slack 100 reaches mate_scale 100: the mate threshold mate_scale - slack must be at least 1"},
      {"SlackJustBelowScale", [](Header& h) { h.mate_scale = 101, h.mate_slack = 100; }, ""},
      {"DefaultSlackReachesScale", [](Header& h) { h.mate_scale = 320; },
       "mate_slack 0 (the default 320) reaches mate_scale 320: the mate threshold mate_scale - slack must be "
       "at least 1"},
      {"DefaultSlackBelowScale", [](Header& h) { h.mate_scale = 321; }, ""},
  };
}

TEST(Header, NumbersAConsumerCannotUseAreRefused) {
  for (const NumberCase& c : number_cases()) {
    SCOPED_TRACE(c.name);
    Header h;
    c.set(h);
    Status st = validate_header(h);
    if (c.message.empty()) {
      EXPECT_TRUE(st.ok()) << st.message();
    } else {
      ASSERT_FALSE(st.ok());
      EXPECT_EQ(st.message(), c.message);
    }
    // The reader refuses the same bytes, naming the file.
    std::vector<uint8_t> b = encoded(h);
    auto r = Reader::from_memory(b, "teacher.mpk");
    EXPECT_EQ(r.ok(), c.message.empty());
    if (!r.ok()) {
      EXPECT_EQ(r.status().message(), "teacher.mpk: header: " + c.message);
    }
    // The writer refuses to write it, before the file exists.
    std::string path = ::testing::TempDir() + "/mpk_num_" + std::to_string(::getpid());
    std::filesystem::remove(path);
    auto w = Writer::create(path, h);
    EXPECT_EQ(w.ok(), c.message.empty());
    if (!w.ok()) {
      EXPECT_EQ(w.status().message(), path + ": header: " + c.message);
      EXPECT_FALSE(std::filesystem::exists(path));
    } else {
      ASSERT_TRUE(w->close().ok());
      std::filesystem::remove(path);
    }
  }
}

TEST(Header, ReaderAndWriterPrefixThePath) {
  std::vector<uint8_t> b = encoded(Header{});
  b[20] = 0x08;
  auto r = Reader::from_memory(b, "games.mpk");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "games.mpk: header: flags 0x00000008 has bit 3 set; version 1 defines no flags");

  std::string path = ::testing::TempDir() + "/mpk_hdr_" + std::to_string(::getpid());
  Header bad;
  bad.version = 2;
  auto w = Writer::create(path, bad);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status().message(), path + ": header: unsupported version 2 (this build reads MPK1 version 1)");
  EXPECT_FALSE(std::filesystem::exists(path));  // refused before the file is created
}

TEST(Header, SelfPlayHeaderDeclaresNoCentipawnScale) {
  Header h = selfplay_header();
  EXPECT_EQ(h.policy_source, PolicySource::Visits);
  EXPECT_EQ(h.pov, Pov::SideToMove);
  EXPECT_EQ(h.packed_len, 96);
  EXPECT_EQ(h.mate_scale, 0);
  EXPECT_EQ(h.fv_scale, 0);
  EXPECT_EQ(h.mate_slack, 0);
  EXPECT_EQ(h.eval_coef, 0.0f);
  EXPECT_EQ(h.flags, 0u);
}

TEST(Header, OpenReportsMissingFileWithReason) {
  auto r = Reader::open("/nonexistent/dir/games.mpk");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().kind(), ErrorKind::IO);
  EXPECT_EQ(r.status().message(), "/nonexistent/dir/games.mpk: cannot open for reading: No such file or directory");
}

}  // namespace
}  // namespace manaka::stream
