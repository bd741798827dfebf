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
  EXPECT_TRUE(check_output_dir((dir / "new").string(), {in}, false).ok());
  auto exists = check_output_dir(old, {in}, false);
  ASSERT_FALSE(exists.ok());
  EXPECT_EQ(exists.message(), old + ": exists; pass --overwrite to replace it");
  EXPECT_TRUE(check_output_dir(old, {in}, true).ok());
  for (bool overwrite : {false, true}) {
    auto holds = check_output_dir(dir.string(), {in}, overwrite);
    ASSERT_FALSE(holds.ok());
    EXPECT_NE(holds.message().find("would contain the input " + in), std::string::npos) << holds.message();
    EXPECT_FALSE(check_output_dir(old, {old}, overwrite).ok());  // a part directory joined onto itself
  }
  auto file = check_output_dir(in + ".x", {}, true);
  EXPECT_TRUE(file.ok());
  std::ofstream(in + ".x") << "a file";
  EXPECT_EQ(check_output_dir(in + ".x", {}, true).message(), in + ".x: is a file, not a directory to replace");
  EXPECT_FALSE(check_output_dir("", {}, true).ok());
}

}  // namespace
}  // namespace manaka
