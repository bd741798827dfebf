// chess_corpus/batch_loader: every row exactly once per pass, in an order fixed
// by the seed; batch boundaries per window; windows mixing shards; the cast
// values; an error delivered after the batches before it; a loader dropped
// mid-pass stops cleanly.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>

#include "chess_corpus/batch_loader.h"
#include "corpus_fixture.h"

namespace manaka::chess_corpus {
namespace {

using testing::make_corpus;
using testing::row_of;
using testing::scratch;

struct Pass {
  std::vector<uint64_t> rows;   // in the order they came out
  std::vector<uint64_t> sizes;  // of the batches
  Status error;
};

Pass run(const std::vector<std::string>& shards, BatchLoaderOptions o) {
  Pass p;
  auto loader = BatchLoader::start(shards, o);
  EXPECT_TRUE(loader.ok()) << loader.status().message();
  for (;;) {
    auto b = (*loader)->next();
    if (!b.ok()) {
      p.error = b.status();
      break;
    }
    if (!*b) break;
    const ChessBatch& batch = **b;
    p.sizes.push_back(batch.rows);
    EXPECT_EQ(batch.move_indices.size(), batch.rows);
    EXPECT_EQ(batch.outcomes.size(), batch.rows);
    for (uint64_t k = 0; k < batch.rows; ++k) {
      int8_t planes[PLANES_PER_POSITION];
      if (o.states == StatesType::Float32) {
        EXPECT_EQ(batch.states_f32.size(), batch.rows * PLANES_PER_POSITION);
        const float* f = batch.states_f32.data() + k * PLANES_PER_POSITION;
        for (uint64_t i = 0; i < PLANES_PER_POSITION; ++i) planes[i] = int8_t(f[i]);
        EXPECT_EQ(f[4], 1.0f);
      } else {
        EXPECT_EQ(batch.states_i8.size(), batch.rows * PLANES_PER_POSITION);
        std::copy_n(batch.states_i8.data() + k * PLANES_PER_POSITION, PLANES_PER_POSITION, planes);
      }
      const uint64_t row = row_of(planes);
      EXPECT_EQ(batch.move_indices[k], int64_t(row % 4672));
      EXPECT_EQ(batch.outcomes[k], float(int(row % 3) - 1));
      p.rows.push_back(row);
    }
  }
  // After the end (or an error), the same again.
  auto again = (*loader)->next();
  if (p.error.ok()) EXPECT_TRUE(again.ok() && !*again);
  else EXPECT_EQ(again.status().message(), p.error.message());
  return p;
}

void expect_each_row_once(const Pass& p, uint64_t total) {
  std::vector<uint64_t> sorted = p.rows;
  std::sort(sorted.begin(), sorted.end());
  ASSERT_EQ(sorted.size(), total);
  for (uint64_t i = 0; i < total; ++i) ASSERT_EQ(sorted[i], i);
}

TEST(BatchLoader, EveryRowOnceSeedFixesTheOrder) {
  const auto dir = scratch("once");
  const auto shards = make_corpus(dir, {100, 37, 0, 250});
  BatchLoaderOptions o;
  o.batch_size = 32;
  o.seed = 7;
  const Pass a = run(shards, o);
  ASSERT_TRUE(a.error.ok()) << a.error.message();
  expect_each_row_once(a, 387);
  // Per shard, the spec's way: 100 = 3 x 32 + 4, 37 = 32 + 5, 250 = 7 x 32 + 26.
  EXPECT_EQ(a.sizes, (std::vector<uint64_t>{32, 32, 32, 4, 32, 5, 32, 32, 32, 32, 32, 32, 32, 26}));
  // Rows of a shard stay in its batches: shuffled within, not across.
  for (size_t i = 0; i < 100; ++i) EXPECT_LT(a.rows[i], 100u);
  for (size_t i = 100; i < 137; ++i) EXPECT_TRUE(a.rows[i] >= 100 && a.rows[i] < 137);
  EXPECT_EQ(run(shards, o).rows, a.rows);
  o.seed = 8;
  const Pass b = run(shards, o);
  expect_each_row_once(b, 387);
  EXPECT_NE(b.rows, a.rows);
  o.shuffle = false;
  const Pass c = run(shards, o);
  for (uint64_t i = 0; i < 387; ++i) ASSERT_EQ(c.rows[i], i);
}

TEST(BatchLoader, WindowShufflesShardsTogether) {
  const auto dir = scratch("window");
  const auto shards = make_corpus(dir, {50, 50, 50, 50, 50});
  BatchLoaderOptions o;
  o.batch_size = 64;
  o.window = 2;
  o.seed = 3;
  o.prefetch = 1;
  const Pass p = run(shards, o);
  expect_each_row_once(p, 250);
  // Windows of 100, 100 and 50 rows: 64 + 36, 64 + 36, 50.
  EXPECT_EQ(p.sizes, (std::vector<uint64_t>{64, 36, 64, 36, 50}));
  // The first batch mixes the first two shards, and nothing later.
  std::set<bool> from_first;
  for (size_t i = 0; i < 64; ++i) {
    EXPECT_LT(p.rows[i], 100u);
    from_first.insert(p.rows[i] < 50);
  }
  EXPECT_EQ(from_first.size(), 2u);
}

TEST(BatchLoader, Int8StatesAndOptions) {
  const auto dir = scratch("int8");
  const auto shards = make_corpus(dir, {70});
  BatchLoaderOptions o;
  o.batch_size = 1000;
  o.states = StatesType::Int8;
  const Pass p = run(shards, o);
  expect_each_row_once(p, 70);
  EXPECT_EQ(p.sizes, (std::vector<uint64_t>{70}));
  o.batch_size = 0;
  EXPECT_EQ(BatchLoader::start(shards, o).status().message(), "batch_size must be at least 1");
  o.batch_size = 1;
  o.window = 0;
  EXPECT_FALSE(BatchLoader::start(shards, o).ok());
  // No shards: an empty pass.
  EXPECT_TRUE(run({}, BatchLoaderOptions()).rows.empty());
}

TEST(BatchLoader, PolicyTargetsAreTheVisitDistributions) {
  const auto dir = scratch("policy");
  const auto shards = make_corpus(dir, {30, 0, 45}, /*visits=*/true);
  for (uint32_t window : {1, 3}) {
    BatchLoaderOptions o;
    o.batch_size = 16;
    o.window = window;
    o.seed = 5;
    o.policy_targets = true;
    auto loader = BatchLoader::start(shards, o);
    ASSERT_TRUE(loader.ok());
    const Pass without = run(shards, [&] { BatchLoaderOptions p = o; p.policy_targets = false; return p; }());
    std::vector<uint64_t> rows;
    for (;;) {
      auto b = (*loader)->next();
      ASSERT_TRUE(b.ok()) << b.status().message();
      if (!*b) break;
      const ChessBatch& batch = **b;
      ASSERT_EQ(batch.policy.size(), batch.rows * 4672);
      for (uint64_t k = 0; k < batch.rows; ++k) {
        const uint64_t row = uint64_t(batch.move_indices[k]);  // rows < 4672: the move index is the row
        rows.push_back(row);
        const float* p = batch.policy.data() + k * 4672;
        double total = 0;
        for (uint64_t j = 0; j < testing::visit_entries_of(row); ++j) total += testing::visit_count_of(row, j);
        std::vector<float> expected(4672, 0.0f);
        for (uint64_t j = 0; j < testing::visit_entries_of(row); ++j)
          expected[testing::visit_index_of(row, j)] = float(testing::visit_count_of(row, j) / total);
        ASSERT_TRUE(std::equal(expected.begin(), expected.end(), p)) << "row " << row;
      }
    }
    // The same rows in the same order as without policy targets.
    EXPECT_EQ(rows, without.rows);
  }
  // A shard without visits is refused when the loader reaches it, naming it.
  const auto plain = make_corpus(scratch("policy_plain"), {10});
  BatchLoaderOptions o;
  o.policy_targets = true;
  EXPECT_EQ(run(plain, o).error.message(),
            plain[0] + ": no visit counts (visit_offsets, visit_indices, visit_counts), which policy targets need: a "
                       "shard of self-play games has them, a corpus shard does not");
}

TEST(BatchLoader, BadShardEndsThePassAfterWhatCameBefore) {
  const auto dir = scratch("bad");
  auto shards = make_corpus(dir, {40, 40, 40});
  std::ofstream(shards[1], std::ios::trunc) << "damaged";
  BatchLoaderOptions o;
  o.batch_size = 16;
  const Pass p = run(shards, o);
  EXPECT_EQ(p.rows.size(), 40u);
  EXPECT_EQ(p.error.message(), shards[1] + ": 7 bytes, too short for a zip archive (its end record alone is 22)");
  shards.push_back((dir / "missing.npz").string());
  std::vector<std::string> only_missing = {shards.back()};
  EXPECT_EQ(run(only_missing, o).error.kind(), ErrorKind::IO);
}

TEST(BatchLoader, DroppedMidPass) {
  const auto dir = scratch("drop");
  const auto shards = make_corpus(dir, {500, 500, 500, 500});
  for (int taken : {0, 1, 5}) {
    BatchLoaderOptions o;
    o.batch_size = 8;
    o.prefetch = 2;
    auto loader = BatchLoader::start(shards, o);
    ASSERT_TRUE(loader.ok());
    for (int i = 0; i < taken; ++i) ASSERT_TRUE((*loader)->next().ok());
    // The destructor stops both threads while they wait on full queues.
  }
}

}  // namespace
}  // namespace manaka::chess_corpus
