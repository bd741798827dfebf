// core/output: the output policy every command follows.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/output.h"

namespace manaka {
namespace {

namespace fs = std::filesystem;

TEST(Output, InputsExistingAndOverwrite) {
  const fs::path dir = fs::path(::testing::TempDir()) / ("output_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string in = (dir / "in.parquet").string(), out = (dir / "out.mpk").string();
  std::ofstream(in) << "input";
  EXPECT_TRUE(check_output(out, {in}, false).ok());
  std::ofstream(out) << "old";
  auto exists = check_output(out, {in}, false);
  ASSERT_FALSE(exists.ok());
  EXPECT_EQ(exists.message(), out + ": exists; pass --overwrite to replace it");
  EXPECT_TRUE(check_output(out, {in}, true).ok());
  for (bool overwrite : {false, true}) {
    auto same = check_output(in, {in}, overwrite);
    ASSERT_FALSE(same.ok());
    EXPECT_NE(same.message().find("is the input"), std::string::npos) << same.message();
  }
  fs::create_hard_link(in, dir / "alias");
  EXPECT_FALSE(check_output((dir / "alias").string(), {in}, true).ok());
  fs::create_symlink(in, dir / "link");
  EXPECT_FALSE(check_output((dir / "link").string(), {in}, true).ok());
  EXPECT_FALSE(check_output(dir.string(), {in}, true).ok());  // a directory is not a file to replace
  EXPECT_FALSE(check_output("", {in}, true).ok());
}

// Directory outputs (self-play, vpd to-parquet): an earlier one of the
// command's own is replaced with overwrite (shogi selfplay --overwrite once
// refused every existing directory); one that is or holds an input is not.
TEST(Output, DirectoriesAreReplacedWithOverwriteUnlessTheyHoldAnInput) {
  const fs::path dir = fs::path(::testing::TempDir()) / ("output_dir_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "old");
  const std::string in = (dir / "in.mpk").string(), old = (dir / "old").string();
  std::ofstream(in) << "input";
  EXPECT_TRUE(check_output_dir((dir / "new").string(), {in}, false, "m.json").ok());
  auto exists = check_output_dir(old, {in}, false, "m.json");
  ASSERT_FALSE(exists.ok());
  EXPECT_EQ(exists.message(), old + ": exists; pass --overwrite to replace it");
  EXPECT_TRUE(check_output_dir(old, {in}, true, "m.json").ok());
  for (bool overwrite : {false, true}) {
    auto holds = check_output_dir(dir.string(), {in}, overwrite, "m.json");
    ASSERT_FALSE(holds.ok());
    EXPECT_NE(holds.message().find("would contain the input " + in), std::string::npos) << holds.message();
    EXPECT_FALSE(check_output_dir(old, {old}, overwrite, "m.json").ok());  // a part directory joined onto itself
  }
  auto file = check_output_dir(in + ".x", {}, true, "m.json");
  EXPECT_TRUE(file.ok());
  std::ofstream(in + ".x") << "a file";
  EXPECT_EQ(check_output_dir(in + ".x", {}, true, "m.json").message(), in + ".x: is a file, not a directory to replace");
  EXPECT_FALSE(check_output_dir("", {}, true, "m.json").ok());
}

// An existing directory is replaced only when it is empty or holds the
// command's own manifest: `vpd to-parquet -o p --overwrite` once removed a
// directory p of someone else's files.
TEST(Output, OnlyADirectoryOfOursIsReplaced) {
  const fs::path dir = fs::path(::testing::TempDir()) / ("output_ours_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "theirs" / "sub");
  std::ofstream((dir / "theirs" / "t.txt").string()) << "not ours";
  auto theirs = check_output_dir((dir / "theirs").string(), {}, true, "m.json");
  ASSERT_FALSE(theirs.ok());
  EXPECT_EQ(theirs.kind(), ErrorKind::Usage);
  EXPECT_NE(theirs.message().find("is a directory without m.json"), std::string::npos) << theirs.message();
  std::ofstream((dir / "theirs" / "m.json").string()) << "{}";
  EXPECT_TRUE(check_output_dir((dir / "theirs").string(), {}, true, "m.json").ok());
  fs::remove_all(dir);
}

// The same file named twice, by another path, a hard link or a symbolic
// link, is refused: `saz to-mpk a.saz a.saz` once doubled every game.
TEST(Output, AnInputNamedTwiceIsRefused) {
  const fs::path dir = fs::path(::testing::TempDir()) / ("output_twice_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string a = (dir / "a").string(), b = (dir / "b").string();
  std::ofstream(a) << "a";
  std::ofstream(b) << "b";
  fs::create_hard_link(a, dir / "hard");
  fs::create_symlink(a, dir / "soft");
  EXPECT_TRUE(check_distinct_inputs({a, b, (dir / "missing").string()}).ok());
  for (const std::string& again : {a, (dir / "hard").string(), (dir / "soft").string(), (dir / "." / "a").string()}) {
    auto twice = check_distinct_inputs({a, b, again});
    ASSERT_FALSE(twice.ok()) << again;
    EXPECT_EQ(twice.message(), again + ": is given twice (also as " + a + "); its data would be counted twice");
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace manaka
