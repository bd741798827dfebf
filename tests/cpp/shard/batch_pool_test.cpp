// ShardBatchPool: buffers given back are handed out again, column by column,
// and no more than `keep` of a column wait.
#include "shard/batch_pool.h"

#include <gtest/gtest.h>

#include <utility>

namespace manaka::shard {
namespace {

TEST(ShardBatchPool, AGivenBackBufferIsTakenAgainWithItsCapacity) {
  ShardBatchPool pool(4);
  std::vector<uint16_t> mv(1000, 7);
  const uint16_t* at = mv.data();
  pool.give(&ShardBatch::mv, std::move(mv));
  ShardBatch b = pool.take(ShardColumns{});
  EXPECT_EQ(b.mv.data(), at);
  EXPECT_GE(b.mv.capacity(), 1000u);
  EXPECT_EQ(b.prob.capacity(), 0u);  // nothing of that column was given
  EXPECT_EQ(pool.take(ShardColumns{}).mv.capacity(), 0u);  // taken once only
}

TEST(ShardBatchPool, ColumnsNotAskedForAreNotTaken) {
  ShardBatchPool pool(4);
  pool.give(&ShardBatch::ply, std::vector<uint16_t>(10));
  pool.give(&ShardBatch::packed, std::vector<uint8_t>(960));
  ShardBatch b = pool.take(ShardColumns{true, false, false, false, false, false});  // packed only
  EXPECT_GE(b.packed.capacity(), 960u);
  EXPECT_EQ(b.ply.capacity(), 0u);
  EXPECT_GE(pool.take(ShardColumns{}).ply.capacity(), 10u);  // still there
}

TEST(ShardBatchPool, AtMostKeepBuffersOfAColumnWait) {
  ShardBatchPool pool(2);
  for (int i = 0; i < 5; ++i) pool.give(&ShardBatch::cp, std::vector<int16_t>(100));
  pool.give(&ShardBatch::weight, std::vector<uint32_t>(100));  // another column has room of its own
  int kept = 0;
  for (int i = 0; i < 5; ++i) kept += pool.take(ShardColumns{}).cp.capacity() > 0;
  EXPECT_EQ(kept, 2);
}

TEST(ShardBatchPool, AWholeBatchGoesBack) {
  ShardBatchPool pool(1);
  ShardBatch b;
  b.packed.resize(96);
  b.cand_offsets.resize(2);
  const void* packed = b.packed.data();
  const void* offsets = b.cand_offsets.data();
  pool.give(std::move(b));
  ShardBatch again = pool.take(ShardColumns{});
  EXPECT_EQ(static_cast<const void*>(again.packed.data()), packed);
  EXPECT_EQ(static_cast<const void*>(again.cand_offsets.data()), offsets);
}

}  // namespace
}  // namespace manaka::shard
