#include "vpd/database.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "core/file.h"
#include "fixture.h"
#include "vpd/build.h"

namespace manaka::vpd {
namespace {

namespace fs = std::filesystem;

using testing::write_file;
// One scratch directory per test.
struct TempDir : testing::TempDir {
  TempDir() : testing::TempDir("vpd_test") {}
};

constexpr const char* PGN =
    "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 1-0\n\n"
    "[Event \"bad\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n\n"
    "[Event \"b\"]\n[Result \"0-1\"]\n\n1. d4 d5 2. c4 e6 3. Nc3 Nf6 0-1\n\n";

TEST(SourceNames, SplitFromNearestDirectory) {
  EXPECT_EQ(source_split("/data/train/a.pgn"), "train");
  EXPECT_EQ(source_split("test/x/a.pgn.zst"), "test");
  EXPECT_EQ(source_split("/data/train/test/a.pgn"), "test");
  EXPECT_EQ(source_split("/data/training/a.pgn"), "");
  EXPECT_EQ(source_split("train.pgn"), "");
  EXPECT_EQ(source_member("/data/train/a.pgn.zst"), "a.pgn.zst");
}

TEST(Build, WritesARandomlyAccessibleFile) {
  TempDir dir;
  const fs::path pgn = dir.path / "train" / "games.pgn";
  write_file(pgn, PGN);
  BuildOptions o;
  o.inputs = {pgn.string()};
  o.output = (dir.path / "out.vpd").string();
  o.target = 100;
  o.seed = 5;
  auto s = build(o);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->info.games_read, 2u);
  EXPECT_EQ(s->info.games_skipped, 1u);
  ASSERT_EQ(s->first_errors.size(), 1u);
  EXPECT_NE(s->first_errors[0].find("game 2"), std::string::npos) << s->first_errors[0];
  EXPECT_EQ(s->info.counts.positions_considered, 10u + 6u);
  EXPECT_EQ(s->rows, 2u);  // both games are openings throughout
  EXPECT_FALSE(fs::exists(temporary_path(o.output)));

  auto file = VpdFile::open(o.output);
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_EQ(*file->rows(), 2u);
  EXPECT_EQ(*file->metadata("format"), "VPD1");
  EXPECT_EQ(*file->metadata("games_skipped"), "1");
  EXPECT_EQ(*file->metadata("quota_opening"), "15");
  std::set<std::string> fens;
  for (uint64_t key : {uint64_t{0}, uint64_t{1} << 62, (uint64_t{1} << 63) - 1}) fens.insert(*file->fen_at_key(key));
  EXPECT_GE(fens.size(), 1u);
  for (const auto& f : fens) EXPECT_TRUE(chess::Position::from_fen(f).ok()) << f;
  // Above the largest key wraps to the smallest.
  EXPECT_EQ(*file->fen_at_key((uint64_t{1} << 63) - 1), *file->fen_at_key(0));
}

TEST(Build, SameSeedSameBytes) {
  TempDir dir;
  const fs::path pgn = dir.path / "games.pgn";
  write_file(pgn, PGN);
  setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
  auto bytes = [&](const std::string& name) {
    BuildOptions o;
    o.inputs = {pgn.string()};
    o.output = (dir.path / name).string();
    o.target = 50;
    o.seed = 9;
    EXPECT_TRUE(build(o).ok());
    std::ifstream in(o.output, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  const std::string a = bytes("a.vpd"), b = bytes("b.vpd");
  unsetenv("SOURCE_DATE_EPOCH");
  EXPECT_FALSE(a.empty());
  EXPECT_EQ(a, b);
}

TEST(Build, ErrorsNameTheFile) {
  TempDir dir;
  BuildOptions o;
  o.inputs = {(dir.path / "missing.pgn").string()};
  o.output = (dir.path / "out.vpd").string();
  auto missing = build(o);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("missing.pgn"), std::string::npos) << missing.status().message();

  write_file(dir.path / "g.pgn", PGN);
  o.inputs = {(dir.path / "g.pgn").string()};
  o.output = (dir.path / "g.pgn" / "out.vpd").string();  // under a file: no directory can be made there
  auto unwritable = build(o);
  ASSERT_FALSE(unwritable.ok());
  EXPECT_NE(unwritable.status().message().find("out.vpd"), std::string::npos) << unwritable.status().message();

  o.output = o.inputs[0];
  auto onto_input = build(o);
  ASSERT_FALSE(onto_input.ok());
  EXPECT_NE(onto_input.status().message().find("is the input"), std::string::npos);

  write_file(dir.path / "not.vpd", "plain text, not SQLite\n");
  auto bad = VpdFile::open((dir.path / "not.vpd").string());
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("not.vpd"), std::string::npos) << bad.status().message();
}

TEST(Build, NoPositionIsAnErrorAndNoFile) {
  TempDir dir;
  std::string binary;
  for (int i = 0; i < 4096; ++i) binary += char((i * 131 + 7) & 0xFF);
  write_file(dir.path / "random.bin", binary);
  write_file(dir.path / "refused.pgn", "[Event \"bad\"]\n\n1. e4 e5 2. Ke3 *\n\n[Event \"worse\"]\n\n1. Nf6 *\n");
  write_file(dir.path / "empty.pgn", "");
  for (const char* input : {"random.bin", "refused.pgn", "empty.pgn"}) {
    BuildOptions o;
    o.inputs = {(dir.path / input).string()};
    o.output = (dir.path / "out.vpd").string();
    auto s = build(o);
    ASSERT_FALSE(s.ok()) << input;
    EXPECT_EQ(s.status().kind(), ErrorKind::Invalid) << s.status().message();
    EXPECT_NE(s.status().message().find(input), std::string::npos) << s.status().message();
    EXPECT_NE(s.status().message().find("no position"), std::string::npos) << s.status().message();
    EXPECT_FALSE(fs::exists(o.output)) << input;
    EXPECT_FALSE(fs::exists(temporary_path(o.output))) << input;
  }
}

}  // namespace
}  // namespace manaka::vpd
