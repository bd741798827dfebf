// Every SQLite open of a VPD1 file says why the operating system refused
// (issue 11, item 7): SQLite itself says "disk I/O error" for a directory and
// "unable to open database file" for a missing or unreadable file.
#include <gtest/gtest.h>

#include <filesystem>

#include "../shard/os_fixture.h"
#include "fixture.h"
#include "vpd/build.h"
#include "vpd/database.h"
#include "vpd/parquet_export.h"
#include "vpd/variance.h"

namespace manaka::vpd {
namespace {

namespace fs = std::filesystem;

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

constexpr const char* PGN =
    "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 1-0\n\n"
    "[Event \"b\"]\n[Result \"0-1\"]\n\n1. d4 d5 2. c4 e6 3. Nc3 Nf6 0-1\n\n";

// Every path that opens an existing VPD1 file, as a status.
std::vector<Status> open_everywhere(const std::string& path, const fs::path& scratch) {
  ParquetExportOptions e;
  e.input = path;
  e.output_dir = (scratch / "exported").string();
  e.progress = false;
  return {VpdFile::open(path).status(), variance_report(path).status(), export_parquet(e).status(),
          write_variance_metadata(path, VarianceReport{})};
}

TEST(VpdOpen, DirectorySaysIsADirectory) {
  testing::TempDir dir("vpd_open_dir");
  const fs::path d = dir.path / "data.vpd";
  fs::create_directories(d);
  for (const Status& st : open_everywhere(d.string(), dir.path)) {
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.kind(), ErrorKind::IO);
    EXPECT_EQ(st.message(), d.string() + ": cannot open: Is a directory");
  }
}

TEST(VpdOpen, MissingFileSaysNoSuchFile) {
  testing::TempDir dir("vpd_open_missing");
  const std::string p = (dir.path / "missing.vpd").string();
  for (const Status& st : open_everywhere(p, dir.path)) {
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.message(), p + ": cannot open: No such file or directory");
  }
}

TEST(VpdOpen, UnreadableAndUnwritableSayPermissionDenied) {
  testing::TempDir dir("vpd_open_perm");
  testing::write_file(dir.path / "g.pgn", PGN);
  BuildOptions o;
  o.inputs = {(dir.path / "g.pgn").string()};
  o.output = (dir.path / "ok.vpd").string();
  o.target = 10;
  ASSERT_TRUE(build(o).ok());
  auto report = variance_report(o.output);
  ASSERT_TRUE(report.ok()) << report.status().message();
  const fs::path locked = dir.path / "locked.vpd";
  fs::copy_file(o.output, locked);
  fs::permissions(locked, fs::perms::none);
  fs::permissions(o.output, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);

  manaka::testing::AsUnprivileged nobody;
  if (!nobody.ok()) GTEST_SKIP() << "cannot drop root";
  for (const Status& st : open_everywhere(locked.string(), dir.path)) {
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.message(), locked.string() + ": cannot open: Permission denied");
  }
  // Readable, not writable: --write says so before SQLite's "attempt to
  // write a readonly database".
  Status st = write_variance_metadata(o.output, *report);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(), o.output + ": cannot open: Permission denied");
}

// A missing output directory is made (as pack makes its prefix's); one that
// cannot be, under a file, is an error naming the output and the reason.
TEST(VpdOpen, BuildMakesAMissingDirectoryAndNamesOneItCannot) {
  testing::TempDir dir("vpd_open_build");
  testing::write_file(dir.path / "g.pgn", PGN);
  BuildOptions o;
  o.inputs = {(dir.path / "g.pgn").string()};
  o.output = (dir.path / "no" / "dir" / "out.vpd").string();
  o.target = 10;
  auto made = build(o);
  ASSERT_TRUE(made.ok()) << made.status().message();
  EXPECT_TRUE(std::filesystem::exists(o.output));
  o.output = (dir.path / "g.pgn" / "out.vpd").string();
  auto res = build(o);
  ASSERT_FALSE(res.ok());
  EXPECT_TRUE(has(res.status().message(), "out.vpd")) << res.status().message();
  EXPECT_TRUE(has(res.status().message(), "Not a directory")) << res.status().message();
}

}  // namespace
}  // namespace manaka::vpd
