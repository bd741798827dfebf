// The block statistic and the inspect report (shard/inspect.h).
#include "shard/inspect.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "../fold/mpk_fixture.h"
#include "fold/rng.h"
#include "shard/shard_writer.h"

namespace manaka::shard {
namespace {

std::vector<uint16_t> rising(size_t n) {
  std::vector<uint16_t> ply(n);
  for (size_t i = 0; i < n; ++i) ply[i] = static_cast<uint16_t>(i * 300 / n);
  return ply;
}

TEST(BlockStatistic, SortedRowsReadFarAboveOne) {
  auto s = block_statistic(rising(24000));
  EXPECT_EQ(s.blocks, 24);
  EXPECT_EQ(s.block_rows, 1000);
  EXPECT_GT(s.ratio, 20.0);
  EXPECT_NEAR(s.noise, 1 / std::sqrt(46.0), 1e-12);
}

TEST(BlockStatistic, ShuffledRowsReadNearOne) {
  double sum = 0;
  for (uint64_t seed = 0; seed < 20; ++seed) {
    auto ply = rising(24000);
    fold::Xoshiro256ss(seed).shuffle(std::span<uint16_t>(ply));
    sum += block_statistic(ply).ratio;
  }
  EXPECT_NEAR(sum / 20, 1.0, 0.1);
}

TEST(BlockStatistic, ByHand) {
  // 48 rows, blocks of 2: block b holds {b, b} -> block means 0..23; all
  // rows: ply uniform over 0..23 twice, population std sqrt((24^2 - 1) / 12).
  std::vector<uint16_t> ply;
  for (uint16_t b = 0; b < 24; ++b) ply.insert(ply.end(), {b, b});
  auto s = block_statistic(ply);
  const double sigma = std::sqrt((24.0 * 24 - 1) / 12);
  EXPECT_NEAR(s.ply_std, sigma, 1e-9);
  EXPECT_NEAR(s.ratio, sigma / (sigma / std::sqrt(2.0)), 1e-9);  // sqrt(2)
  EXPECT_EQ(block_statistic(rising(23)).blocks, 0);  // fewer rows than blocks
}

TEST(Inspect, Report) {
  auto dir = testing::scratch_dir();
  ShardWriterOptions o;
  o.prefix = (dir / "x").string();
  o.rows_per_shard = 600;
  o.footer = {{"pov", "0"}, {"temperature", "100"}};
  o.set_rows = 1000;
  auto w = ShardWriter::create(o);
  ASSERT_TRUE(w.ok());
  for (uint32_t i = 0; i < 1000; ++i) {
    Row r;
    r.packed = testing::board(i);
    r.ply = static_cast<uint16_t>(i % 97);
    r.weight = i < 10 ? 5 : (i < 100 ? 2 : 1);
    for (uint32_t c = 0; c < (i < 500 ? 2u : 4u); ++c) {
      r.mv.push_back(static_cast<uint16_t>(c));
      r.prob.push_back(0.25f);
      r.cp.push_back(kNullCp);
    }
    ASSERT_TRUE((*w)->append(r).ok());
  }
  ASSERT_TRUE((*w)->finish().ok());
  auto rep = inspect_shards((*w)->shards());
  ASSERT_TRUE(rep.ok()) << rep.status().message();
  EXPECT_EQ(rep->rows, 1000);
  ASSERT_EQ(rep->files.size(), 2u);
  EXPECT_EQ(rep->files[0].rows, 600);
  EXPECT_EQ(rep->weight_min, 1u);
  EXPECT_EQ(rep->weight_max, 5u);
  EXPECT_EQ(rep->weight_sum, 10u * 5 + 90 * 2 + 900);
  ASSERT_EQ(rep->weight_bands.size(), 4u);  // 1, 2, 3-4, 5-8
  EXPECT_EQ(rep->weight_bands[0], 900u);
  EXPECT_EQ(rep->weight_bands[1], 90u);
  EXPECT_EQ(rep->weight_bands[3], 10u);
  EXPECT_EQ(rep->cands_min, 2);
  EXPECT_EQ(rep->cands_max, 4);
  EXPECT_EQ(rep->cands_p50, 2);
  EXPECT_EQ(rep->cands_p99, 4);
  EXPECT_DOUBLE_EQ(rep->cands_mean, 3.0);
  std::string text = format_report(*rep);
  EXPECT_NE(text.find("footer:\n  pov = 0\n  temperature = 100\n"), std::string::npos) << text;
  EXPECT_NE(text.find("weight 5-8: 10 rows (1.00%)"), std::string::npos) << text;
  EXPECT_NE(text.find("x independent sampling"), std::string::npos) << text;
}

}  // namespace
}  // namespace manaka::shard
