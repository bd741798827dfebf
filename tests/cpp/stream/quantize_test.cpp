#include "stream/quantize.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace manaka::stream {
namespace {

// 2^-16 is one quantum; 2^-17 is half of one.
constexpr float kQuantum = 1.0f / 65536.0f;
constexpr float kHalfQuantum = 1.0f / 131072.0f;

TEST(Quantize, ExamplesByHand) {
  EXPECT_EQ(quantize_probability(0.5f), 32768u);
  EXPECT_EQ(quantize_probability(1.0f), 65536u);
  EXPECT_EQ(quantize_probability(0.0f), 0u);
  EXPECT_EQ(quantize_probability(0.25f), 16384u);
  EXPECT_EQ(quantize_probability(kQuantum), 1u);
  // Below half a quantum rounds to 0 (dropped); half a quantum rounds up.
  EXPECT_EQ(quantize_probability(kHalfQuantum * 0.99f), 0u);
  EXPECT_EQ(quantize_probability(kHalfQuantum), 1u);
  EXPECT_EQ(quantize_probability(1.5f * kQuantum), 2u);  // halves away from zero
  EXPECT_EQ(quantize_probability(2.5f * kQuantum), 3u);
  EXPECT_EQ(quantize_probability(2.49f * kQuantum), 2u);
  // 0.1 * 65536 = 6553.6 -> 6554; 1/3 * 65536 = 21845.33 -> 21845.
  EXPECT_EQ(quantize_probability(0.1f), 6554u);
  EXPECT_EQ(quantize_probability(1.0f / 3.0f), 21845u);
}

TEST(Quantize, PolicyDropsMovesThatRoundToZero) {
  std::vector<uint16_t> mvs = {10, 20, 30, 40, 50};
  std::vector<float> probs = {0.5f, kHalfQuantum * 0.99f, 0.25f, kHalfQuantum, 0.0f};
  std::vector<VisitedMove> out = {{1, 1}};  // cleared first
  ASSERT_TRUE(quantize_policy(mvs, probs, out).ok());
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].mv, 10);
  EXPECT_EQ(out[0].visits, 32768u);
  EXPECT_EQ(out[1].mv, 30);
  EXPECT_EQ(out[1].visits, 16384u);
  EXPECT_EQ(out[2].mv, 40);
  EXPECT_EQ(out[2].visits, 1u);
}

TEST(Quantize, RefusesBadInput) {
  std::vector<uint16_t> mvs = {10, 20};
  std::vector<VisitedMove> out;
  std::vector<float> one = {1.0f};
  EXPECT_EQ(quantize_policy(mvs, one, out).message(), "quantize_policy: 2 moves but 1 probabilities");
  std::vector<float> neg = {0.5f, -0.1f};
  EXPECT_EQ(quantize_policy(mvs, neg, out).message(),
            "quantize_policy: probability 1 is -0.1, must be finite and within [0, 1]");
  std::vector<float> nan = {std::nanf(""), 0.5f};
  EXPECT_EQ(quantize_policy(mvs, nan, out).message(),
            "quantize_policy: probability 0 is nan, must be finite and within [0, 1]");
  std::vector<float> big = {1.5f, 0.0f};
  EXPECT_FALSE(quantize_policy(mvs, big, out).ok());
}

}  // namespace
}  // namespace manaka::stream
