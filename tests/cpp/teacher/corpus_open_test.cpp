// Teacher corpus inputs that cannot be opened say why (issue 11, item 7):
// a JSON-lines file opened through an ifstream said only "cannot open", and
// a path below a directory without search permission "no such file".
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "../fold/mpk_fixture.h"
#include "../shard/os_fixture.h"
#include "teacher/corpus_input.h"

namespace manaka::teacher {
namespace {

namespace fs = std::filesystem;

TEST(CorpusOpen, UnreadableInputsSayPermissionDenied) {
  const fs::path dir = testing::scratch_dir();
  testing::RemovedAtEnd cleanup{dir};
  const fs::path jsonl = dir / "rows.jsonl";
  std::ofstream(jsonl) << "{}\n";
  fs::permissions(jsonl, fs::perms::none);
  const fs::path closed = dir / "closed";
  fs::create_directories(closed);
  std::ofstream(closed / "c.parquet") << "PAR1";
  fs::permissions(closed, fs::perms::owner_write);  // no search permission

  const std::string below = (closed / "c.parquet").string();
  Status source, paths;
  {
    testing::AsUnprivileged nobody;
    if (!nobody.ok()) GTEST_SKIP() << "cannot drop root";
    source = open_corpus_file(jsonl.string(), teacher::CorpusColumns{}).status();
    paths = expand_corpus_paths({below}).status();
  }
  fs::permissions(closed, fs::perms::owner_all);  // so the scratch directory can be removed
  ASSERT_FALSE(source.ok());
  EXPECT_EQ(source.message(), jsonl.string() + ": cannot open for reading: Permission denied");
  ASSERT_FALSE(paths.ok());
  EXPECT_EQ(paths.message(), below + ": cannot stat: Permission denied");
}

TEST(CorpusOpen, MissingInputSaysNoSuchFile) {
  const fs::path dir = testing::scratch_dir();
  testing::RemovedAtEnd cleanup{dir};
  const std::string missing = (dir / "missing.parquet").string();
  auto paths = expand_corpus_paths({missing});
  ASSERT_FALSE(paths.ok());
  EXPECT_EQ(paths.status().message(), missing + ": no such file or directory");
}

}  // namespace
}  // namespace manaka::teacher
