// The operating system's reason survives Arrow (issue 11, item 7): Arrow keeps
// errno apart from its message ("Failed to open local file", "Error writing
// bytes to file"), and the message we print must still say why.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "../fold/mpk_fixture.h"
#include "os_fixture.h"
#include "shard/corpus_table.h"
#include "shard/parquet_file.h"
#include "shard/shard_reader.h"

namespace manaka::shard {
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

// Incompressible rows: `bytes` of random binary in one column.
std::shared_ptr<arrow::Table> random_table(int64_t bytes) {
  constexpr int kWidth = 1024;
  arrow::FixedSizeBinaryBuilder b(arrow::fixed_size_binary(kWidth));
  std::mt19937_64 rng(1);
  std::vector<uint8_t> row(kWidth);
  for (int64_t done = 0; done < bytes; done += kWidth) {
    for (auto& c : row) c = static_cast<uint8_t>(rng());
    EXPECT_TRUE(b.Append(row.data()).ok());
  }
  std::shared_ptr<arrow::Array> a;
  EXPECT_TRUE(b.Finish(&a).ok());
  return arrow::Table::Make(arrow::schema({arrow::field("blob", a->type())}), {a});
}

TEST(OsReason, UnreadableParquetSaysPermissionDenied) {
  const fs::path dir = testing::scratch_dir();
  testing::RemovedAtEnd cleanup{dir};
  const std::string path = unreadable_file(dir).string();
  testing::AsUnprivileged nobody;
  if (!nobody.ok()) GTEST_SKIP() << "cannot drop root";
  auto shard = ShardReader::open(path);
  auto table = read_parquet(path);
  auto footer = read_parquet_footer(path);
  auto corpus = CorpusTableReader::open(path, CorpusColumns{});
  for (const Status& st : {shard.status(), table.status(), footer.status(), corpus.status()}) {
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.kind(), ErrorKind::IO);
    EXPECT_EQ(st.message(), path + ": cannot open for reading: Permission denied");
  }
}

TEST(OsReason, DirectorySaysIsADirectory) {
  const fs::path dir = testing::scratch_dir();
  testing::RemovedAtEnd cleanup{dir};
  for (const Status& st : {ShardReader::open(dir.string()).status(), read_parquet(dir.string()).status(),
                           CorpusTableReader::open(dir.string(), CorpusColumns{}).status()}) {
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.message(), dir.string() + ": cannot open for reading: Is a directory");
  }
}

TEST(OsReason, WriteBeyondTheFileSizeLimitSaysFileTooLarge) {
  const fs::path dir = testing::scratch_dir();
  testing::RemovedAtEnd cleanup{dir};
  const std::string path = (dir / "big.parquet").string();
  auto table = random_table(512 << 10);
  Status st;
  {
    testing::FileSizeLimit limit(64 << 10);
    ASSERT_TRUE(limit.ok());
    st = write_parquet(*table, path, ParquetOptions{});
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
  auto table = random_table(512 << 10);
  Status st = write_parquet(*table, path, ParquetOptions{});
  ASSERT_FALSE(st.ok());
  EXPECT_TRUE(has(st.message(), path + ".tmp-")) << st.message();
  EXPECT_TRUE(has(st.message(), ": No space left on device")) << st.message();
}

}  // namespace
}  // namespace manaka::shard
