// pack() when the disk refuses (issue 11, item 7): the message names the
// shard being written and the operating system's reason, not only Arrow's
// "Error writing bytes to file".
#include <gtest/gtest.h>

#include "../shard/os_fixture.h"
#include "fold/pack.h"
#include "mpk_fixture.h"

namespace manaka::fold {
namespace {

namespace fs = std::filesystem;

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string write_big_stream(const fs::path& dir) {
  const std::string s = (dir / "in.mpk").string();
  testing::write_stream(s, testing::selfplay_header(), testing::synthetic_records(40000, false));
  return s;
}

TEST(PackOs, FileSizeLimitIsNamedWithTheShard) {
  const fs::path dir = testing::scratch_dir();
  testing::RemovedAtEnd cleanup{dir};
  const std::string s = write_big_stream(dir);
  for (uint32_t buckets : {0u, 4u}) {
    PackOptions o;
    o.prefix = (dir / "out").string();
    o.progress = false;
    o.buckets = buckets;
    Result<PackSummary> res = Status::invalid("not run");
    {
      testing::FileSizeLimit limit(48 << 10);
      ASSERT_TRUE(limit.ok());
      res = pack({s}, o);
    }
    ASSERT_FALSE(res.ok()) << "buckets " << buckets;
    const std::string& msg = res.status().message();
    EXPECT_EQ(res.status().kind(), ErrorKind::IO) << msg;
    EXPECT_TRUE(has(msg, ": File too large")) << msg;
    if (buckets == 0) EXPECT_TRUE(has(msg, o.prefix + "-00000.parquet")) << msg;
  }
}

TEST(PackOs, FullDiskSaysNoSpaceLeft) {
  const fs::path dir = testing::scratch_dir();
  testing::RemovedAtEnd cleanup{dir};
  const std::string s = write_big_stream(dir);
  testing::TinyFilesystem tiny(dir / "tiny", "48k");
  if (!tiny.ok()) GTEST_SKIP() << "cannot mount a tmpfs here";
  PackOptions o;
  o.prefix = (dir / "tiny" / "out").string();
  o.progress = false;
  auto res = pack({s}, o);
  ASSERT_FALSE(res.ok());
  const std::string& msg = res.status().message();
  EXPECT_TRUE(has(msg, o.prefix + "-00000.parquet")) << msg;
  EXPECT_TRUE(has(msg, ": No space left on device")) << msg;
}

}  // namespace
}  // namespace manaka::fold
