// core/bytes, core/file and core/progress.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>

#include "core/bytes.h"
#include "core/file.h"
#include "core/progress.h"

namespace manaka {
namespace {

namespace fs = std::filesystem;

TEST(Bytes, LittleEndian) {
  uint8_t b[8];
  store_u32(b, 0x314B504D);
  EXPECT_EQ(std::string(reinterpret_cast<char*>(b), 4), "MPK1");
  store_i16(b, -32768);
  EXPECT_EQ(b[0], 0x00);
  EXPECT_EQ(b[1], 0x80);
  EXPECT_EQ(load_i16(b), -32768);
  store_f32(b + 1, -0.5f);  // unaligned
  EXPECT_EQ(load_f32(b + 1), -0.5f);
  store_u64(b, 0x0102030405060708ULL);
  EXPECT_EQ(b[0], 0x08);
  EXPECT_EQ(load_u64(b), 0x0102030405060708ULL);
}

TEST(AtomicFile, CommitRenamesAbortRemoves) {
  std::string final_path = ::testing::TempDir() + "/atomic_" + std::to_string(::getpid());
  {
    auto f = AtomicFile::create(final_path);
    ASSERT_TRUE(f.ok()) << f.status().message();
    EXPECT_EQ(f->temp_path(), final_path + ".tmp-" + std::to_string(::getpid()));
    ASSERT_TRUE(f->write_all("abc", 3).ok());
    EXPECT_FALSE(fs::exists(final_path));
    EXPECT_TRUE(fs::exists(f->temp_path()));
    ASSERT_TRUE(f->commit().ok());
    EXPECT_FALSE(fs::exists(f->temp_path()));
  }
  EXPECT_EQ(fs::file_size(final_path), 3u);
  std::string temp;
  {
    auto f = AtomicFile::create(final_path);
    ASSERT_TRUE(f->write_all("abcdef", 6).ok());
    temp = f->temp_path();
    // destroyed uncommitted
  }
  EXPECT_FALSE(fs::exists(temp));
  EXPECT_EQ(fs::file_size(final_path), 3u);  // untouched
  fs::remove(final_path);
}

TEST(InputFile, ReadsToEnd) {
  std::string path = ::testing::TempDir() + "/input_" + std::to_string(::getpid());
  {
    auto f = OutputFile::create(path);
    ASSERT_TRUE(f.ok());
    ASSERT_TRUE(f->write_all("hello", 5).ok());
    ASSERT_TRUE(f->close().ok());
  }
  auto f = InputFile::open(path);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->size_at_open(), 5u);
  char buf[16];
  auto n = f->read(buf, sizeof buf);
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, 5u);
  EXPECT_EQ(*f->read(buf, sizeof buf), 0u);
  fs::remove(path);
  auto dir = InputFile::open(::testing::TempDir());
  ASSERT_FALSE(dir.ok());
  EXPECT_NE(dir.status().message().find("Is a directory"), std::string::npos);
}

TEST(Progress, Formats) {
  EXPECT_EQ(format_bytes(999), "999 B");
  EXPECT_EQ(format_bytes(512e6), "512.0 MB");
  EXPECT_EQ(format_bytes(2e9), "2.00 GB");
  EXPECT_EQ(format_count(1234), "1234");
  EXPECT_EQ(format_count(1.24e6), "1.24M");
  EXPECT_EQ(format_duration(5), "0:05");
  EXPECT_EQ(format_duration(3723), "1:02:03");
}

TEST(Progress, QuietForShortJobsAndSummarisesLongOnes) {
  std::FILE* out = std::tmpfile();
  ASSERT_NE(out, nullptr);
  {
    Progress p("a.mpk", 1000, out);
    p.set_live(false);
    p.update(1000, 10);
    p.finish();
  }
  EXPECT_EQ(std::ftell(out), 0);  // nothing for a fast job
  {
    Progress p("b.mpk", 4000000, out);
    p.set_live(true);
    // Rows advance past the check interval while time passes the first report.
    std::this_thread::sleep_for(std::chrono::milliseconds(600));
    p.update(2000000, 5000);
    p.finish();
  }
  std::fflush(out);
  std::rewind(out);
  char buf[512] = {};
  size_t n = std::fread(buf, 1, sizeof buf - 1, out);
  std::string text(buf, n);
  EXPECT_NE(text.find("\rb.mpk: 5000 rows  2.00 MB / 4.00 MB (50.0%)"), std::string::npos) << text;
  EXPECT_NE(text.find("ETA"), std::string::npos) << text;
  EXPECT_NE(text.find("b.mpk: 5000 rows  2.00 MB in "), std::string::npos) << text;
  EXPECT_EQ(text.back(), '\n');
  std::fclose(out);
}

// A later phase of a long job reports once the job has run 10 s, a second
// into the phase (a pack's phases each waited 10 s of their own, so a 20 s
// pack said nothing off a terminal); a phase of a young job stays quiet.
TEST(Progress, ALaterPhaseOfALongJobReportsAfterASecond) {
  std::FILE* out = std::tmpfile();
  ASSERT_NE(out, nullptr);
  const auto now = std::chrono::steady_clock::now();
  {
    Progress young("young", 100, out);
    young.set_live(false);
    young.set_job_start(now - std::chrono::seconds(2));
    Progress old("pack: writing", 100, out);
    old.set_units("rows", "");
    old.set_live(false);
    old.set_job_start(now - std::chrono::seconds(20));
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));
    young.poll(50, 50);
    old.poll(50, 50);
    young.set_enabled(false);  // no summaries at the end: only what poll printed is looked at
    old.set_enabled(false);
  }
  std::fflush(out);
  std::rewind(out);
  char buf[512] = {};
  const std::string text(buf, std::fread(buf, 1, sizeof buf - 1, out));
  EXPECT_NE(text.find("pack: writing: 50 rows / 100 rows (50.0%)"), std::string::npos) << text;
  EXPECT_EQ(text.find("young"), std::string::npos) << text;
  std::fclose(out);
}

}  // namespace
}  // namespace manaka
