// The operating system's reason survives Arrow (issue 11, item 7): Arrow keeps
// errno apart from its message ("Failed to open local file", "Error writing
// bytes to file"), and the message we print must still say why.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "../fold/mpk_fixture.h"
#include "../shard/os_fixture.h"
#include "parquet/reader.h"
#include "parquet/writer.h"
#include "shard/shard_reader.h"
#include "teacher/corpus_parquet_reader.h"

namespace manaka::parquet {
namespace {

namespace fs = std::filesystem;

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A file no one but root may read.
fs::path unreadable_file(const fs::path& dir) {
  const fs::path p = dir / "locked.parquet";
  std::ofstream(p) << "PAR1 not really";
  fs::permissions(p, fs::perms::none);
  return p;
}

// Incompressible rows: `bytes` of random binary in one column of 1024-byte values.
struct RandomBlobs {
  static constexpr int kWidth = 1024;
  std::vector<uint8_t> bytes;

  explicit RandomBlobs(int64_t size) : bytes(static_cast<size_t>(size)) {
    std::mt19937_64 rng(1);
    for (auto& c : bytes) c = static_cast<uint8_t>(rng());
  }
  int64_t rows() const { return static_cast<int64_t>(bytes.size()) / kWidth; }
  Status write(const std::string& path) const {
    Column blob;
    blob.type = Type::FixedSizeBinary;
    blob.byte_width = kWidth;
    blob.length = rows();
    blob.values = bytes.data();
    const Column columns[] = {blob};
    return write_parquet(path, {fixed_size_binary("blob", kWidth)},
                                  rows(), columns, WriteOptions{});
  }
};

TEST(OsReason, UnreadableParquetSaysPermissionDenied) {
  const fs::path dir = testing::scratch_dir();
  testing::RemovedAtEnd cleanup{dir};
  const std::string path = unreadable_file(dir).string();
  testing::AsUnprivileged nobody;
  if (!nobody.ok()) GTEST_SKIP() << "cannot drop root";
  auto shard = shard::ShardReader::open(path);
  auto table = read_parquet(path);
  auto footer = read_parquet_footer(path);
  auto corpus = teacher::CorpusParquetReader::open(path, teacher::CorpusColumns{});
  for (const Status& st : {shard.status(), table.status(), footer.status(), corpus.status()}) {
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.kind(), ErrorKind::IO);
    EXPECT_EQ(st.message(), path + ": cannot open for reading: Permission denied");
  }
}

TEST(OsReason, DirectorySaysIsADirectory) {
  const fs::path dir = testing::scratch_dir();
  testing::RemovedAtEnd cleanup{dir};
  for (const Status& st : {shard::ShardReader::open(dir.string()).status(), read_parquet(dir.string()).status(),
                           teacher::CorpusParquetReader::open(dir.string(), teacher::CorpusColumns{}).status()}) {
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.message(), dir.string() + ": cannot open for reading: Is a directory");
  }
}

TEST(OsReason, WriteBeyondTheFileSizeLimitSaysFileTooLarge) {
  const fs::path dir = testing::scratch_dir();
  testing::RemovedAtEnd cleanup{dir};
  const std::string path = (dir / "big.parquet").string();
  const RandomBlobs blobs(512 << 10);
  Status st;
  {
    testing::FileSizeLimit limit(64 << 10);
    ASSERT_TRUE(limit.ok());
    st = blobs.write(path);
  }
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.kind(), ErrorKind::IO);
  EXPECT_TRUE(has(st.message(), path + ".tmp-")) << st.message();  // the file being written
  EXPECT_TRUE(has(st.message(), ": File too large")) << st.message();
  EXPECT_FALSE(fs::exists(path));
  EXPECT_FALSE(fs::exists(temporary_path(path)));
}

TEST(OsReason, FullFilesystemSaysNoSpaceLeft) {
  testing::RemovedAtEnd cleanup{testing::scratch_dir()};
  const fs::path dir = cleanup.dir / "tiny";
  testing::TinyFilesystem tiny(dir, "128k");
  if (!tiny.ok()) GTEST_SKIP() << "cannot mount a tmpfs here";
  const std::string path = (dir / "big.parquet").string();
  Status st = RandomBlobs(512 << 10).write(path);
  ASSERT_FALSE(st.ok());
  EXPECT_TRUE(has(st.message(), path + ".tmp-")) << st.message();
  EXPECT_TRUE(has(st.message(), ": No space left on device")) << st.message();
}

}  // namespace
}  // namespace manaka::parquet
