// shard_overlap: validation boards found in training, counted on sets built
// with a known number of shared boards.
#include <gtest/gtest.h>

#include "../fold/mpk_fixture.h"
#include "shard/overlap.h"
#include "shard/shard_writer.h"
#include "shogi/pack.h"

namespace manaka::shard {
namespace {

namespace fs = std::filesystem;

// Writes one shard set of the fixture boards `ids` (weight 1 + id % 3) under
// dir/name-NNNNN.parquet.
void write_set(const fs::path& dir, const std::string& name, const std::vector<uint32_t>& ids,
               uint64_t rows_per_shard) {
  ShardWriterOptions o;
  o.prefix = (dir / name).string();
  o.rows_per_shard = rows_per_shard;
  o.set_id = 0x1234 + ids.size();
  o.set_rows = ids.size();
  auto w = ShardWriter::create(o);
  ASSERT_TRUE(w.ok()) << w.status().message();
  for (uint32_t id : ids) {
    Row r;
    r.packed = testing::board(id);
    r.ply = 1;
    r.weight = 1 + id % 3;
    r.mv = {testing::mv(20, 29)};
    r.prob = {1.0f};
    r.cp = {kNullCp};
    ASSERT_TRUE((*w)->append(r).ok());
  }
  ASSERT_TRUE((*w)->finish().ok());
}

TEST(ShardOverlap, CountsKnownSharedBoards) {
  auto dir = testing::scratch_dir();
  // Training: boards 0..999, board 5 twice, in two shards.
  std::vector<uint32_t> train;
  for (uint32_t i = 0; i < 1000; ++i) train.push_back(i);
  train.push_back(5);
  write_set(dir / "train", "t", train, 600);
  // Validation: boards 900..1199 (100 of them in training), then 950 again.
  std::vector<uint32_t> valid;
  for (uint32_t i = 900; i < 1200; ++i) valid.push_back(i);
  valid.push_back(950);
  write_set(dir / "valid", "v", valid, 1000);

  auto r = shard_overlap({(dir / "train").string()}, {(dir / "valid").string()}, 3);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->train_files.size(), 2u);
  EXPECT_EQ(r->train_rows, 1001);
  EXPECT_EQ(r->train_boards, 1000);
  EXPECT_EQ(r->valid_rows, 301);
  EXPECT_EQ(r->valid_boards, 300);
  EXPECT_EQ(r->shared_rows, 101);
  EXPECT_EQ(r->shared_boards, 100);
  EXPECT_DOUBLE_EQ(r->share(), 101.0 / 301.0);
  uint64_t shared_weight = 1 + 950 % 3, valid_weight = 1 + 950 % 3;
  for (uint32_t i = 900; i < 1200; ++i) {
    valid_weight += 1 + i % 3;
    if (i < 1000) shared_weight += 1 + i % 3;
  }
  EXPECT_EQ(r->valid_weight, valid_weight);
  EXPECT_EQ(r->shared_weight, shared_weight);

  // The first shared rows, each naming where both sides hold the board.
  ASSERT_EQ(r->examples.size(), 3u);
  for (int k = 0; k < 3; ++k) {
    const OverlapExample& e = r->examples[static_cast<size_t>(k)];
    EXPECT_EQ(e.valid_row, k);
    EXPECT_EQ(e.train_path, (dir / "train" / "t-00001.parquet").string());
    EXPECT_EQ(e.train_row, 900 + k - 600);
    EXPECT_EQ(e.packed, testing::board(900 + static_cast<uint32_t>(k)));
    auto pos = shogi::unpack(testing::board(900 + static_cast<uint32_t>(k)));
    ASSERT_TRUE(pos.ok());
    EXPECT_EQ(e.sfen, pos->sfen());
  }
  EXPECT_NE(format_overlap(*r).find("shared: 101 valid rows"), std::string::npos) << format_overlap(*r);
}

TEST(ShardOverlap, DisjointSetsShareNothing) {
  auto dir = testing::scratch_dir();
  write_set(dir / "a", "a", {1, 2, 3}, 10);
  write_set(dir / "b", "b", {4, 5}, 10);
  auto r = shard_overlap({(dir / "a").string()}, {(dir / "b" / "b-00000.parquet").string()});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->shared_rows, 0);
  EXPECT_EQ(r->share(), 0.0);
  EXPECT_TRUE(r->examples.empty());
}

TEST(ShardOverlap, MissingPathIsNamed) {
  auto dir = testing::scratch_dir();
  write_set(dir / "a", "a", {1}, 10);
  auto r = shard_overlap({(dir / "a").string()}, {(dir / "nowhere").string()});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), (dir / "nowhere").string() + ": no such file or directory");
  fs::create_directories(dir / "empty");
  r = shard_overlap({(dir / "empty").string()}, {(dir / "a").string()});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), (dir / "empty").string() + ": a directory without *.parquet files, at any depth");
}

}  // namespace
}  // namespace manaka::shard
