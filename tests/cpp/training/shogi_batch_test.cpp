// encode_rows against the position-at-a-time encodings it must agree with:
// planes = encode_planes of the unpacked position, policy = prob at
// move_index(pos, m) for each legal candidate, the value blend and the
// weights; and its refusals, naming the row. (tests/python/test_shogi_training.py
// checks the same rows against cshogi, and the stream end to end.)
#include "training/shogi_batch.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "../shogi/random_positions.h"
#include "shogi/encode.h"
#include "shogi/move_index.h"
#include "shogi/movegen.h"

namespace manaka::training {
namespace {

// Rows of random-game positions, each with up to 5 legal candidates.
shard::ShardBatch random_rows(size_t n) {
  shard::ShardBatch b;
  const auto positions = testing::random_game_positions(n, 9);
  b.rows = int64_t(n);
  b.cand_offsets.push_back(0);
  for (size_t i = 0; i < n; ++i) {
    b.packed.insert(b.packed.end(), positions[i].begin(), positions[i].end());
    auto pos = shogi::unpack(positions[i]);
    shogi::MoveList list;
    shogi::generate_legal(*pos, list);
    const int k = std::min(5, list.size);
    for (int c = 0; c < k; ++c) {
      b.mv.push_back(list[c].raw);
      b.prob.push_back(float(c + 1) / float(k * (k + 1) / 2));
    }
    b.cand_offsets.push_back(int64_t(b.mv.size()));
    b.value_z.push_back(float(int(i % 3) - 1));
    b.value_q.push_back(0.01f * float(i % 100) - 0.5f);
    b.weight.push_back(uint32_t(1 + i % 4));
  }
  return b;
}

TEST(ShogiBatch, RowsAreThePositionAtATimeEncodings) {
  const shard::ShardBatch in = random_rows(400);
  ShogiBatch out;
  out.reset(410);
  TargetOptions o{0.25f, true};
  ASSERT_TRUE(encode_rows(in, 0, 400, o, out, 10, "test").ok());
  std::vector<int8_t> planes(shogi::PLANES_SIZE);
  for (int64_t i = 0; i < 400; ++i) {
    auto pos = shogi::unpack(std::span<const uint8_t>(&in.packed[size_t(i) * 96], 96));
    ASSERT_TRUE(pos.ok());
    shogi::encode_planes(*pos, false, planes.data());
    const int64_t at = i + 10;
    EXPECT_EQ(std::memcmp(planes.data(), &out.planes[size_t(at) * shogi::PLANES_SIZE], shogi::PLANES_SIZE), 0) << i;
    std::vector<float> policy(shogi::POLICY_SIZE, 0.0f);
    for (int64_t k = in.cand_offsets[size_t(i)]; k < in.cand_offsets[size_t(i) + 1]; ++k)
      policy[size_t(shogi::move_index(*pos, shogi::Move{in.mv[size_t(k)]}))] += in.prob[size_t(k)];
    EXPECT_EQ(std::memcmp(policy.data(), &out.policy[size_t(at) * shogi::POLICY_SIZE],
                          sizeof(float) * shogi::POLICY_SIZE), 0) << i;
    EXPECT_FLOAT_EQ(out.value[size_t(at)], 0.75f * in.value_z[size_t(i)] + 0.25f * in.value_q[size_t(i)]);
    EXPECT_EQ(out.weight[size_t(at)], float(in.weight[size_t(i)]));
  }
  // Rows before `at` are left as reset made them: a zero policy.
  for (size_t j = 0; j < 10 * size_t(shogi::POLICY_SIZE); ++j) ASSERT_EQ(out.policy[j], 0.0f);
  // Without row weights, every weight is 1; w = 0 is value_z alone.
  ASSERT_TRUE(encode_rows(in, 0, 400, TargetOptions{}, out, 0, "test").ok());
  for (int64_t i = 0; i < 400; ++i) {
    EXPECT_EQ(out.weight[size_t(i)], 1.0f);
    EXPECT_EQ(out.value[size_t(i)], in.value_z[size_t(i)]);
  }
}

TEST(ShogiBatch, ABadRowIsNamed) {
  shard::ShardBatch in = random_rows(20);
  ShogiBatch out;
  out.reset(20);
  in.packed[7 * 96 + 3] = 0x0e;  // no such piece byte
  Status s = encode_rows(in, 0, 20, TargetOptions{}, out, 0, "s.parquet row group 2");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("s.parquet row group 2, row 7: packed is not a position (byte 3: unknown board "
                             "byte 0x0e)"), std::string::npos) << s.message();
  in = random_rows(20);
  in.mv[size_t(in.cand_offsets[4])] = shogi::Move::normal(shogi::Square(0), shogi::Square(12), false).raw;
  s = encode_rows(in, 0, 20, TargetOptions{}, out, 0, "s.parquet row group 0");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("row 4: candidate 9a8d has no policy index"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace manaka::training
