// prob's derivation, hand-computed (fold/policy.h).
#include "fold/policy.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace manaka::fold {
namespace {

stream::Header cp_header(uint16_t mate_scale, uint16_t mate_slack) {
  stream::Header h;
  h.policy_source = stream::PolicySource::Cp;
  h.mate_scale = mate_scale;
  h.mate_slack = mate_slack;
  return h;
}

TEST(Policy, NormalisedVisits) {
  std::vector<uint64_t> visits{4, 1, 4};
  std::vector<float> prob(3);
  normalise_visits(visits, prob);
  EXPECT_FLOAT_EQ(prob[0], 4.0f / 9);
  EXPECT_FLOAT_EQ(prob[1], 1.0f / 9);
  EXPECT_FLOAT_EQ(prob[2], 4.0f / 9);
}

TEST(Policy, VisitSumsBeyondU32) {
  std::vector<uint64_t> visits{uint64_t{3} << 32, uint64_t{1} << 32};
  std::vector<float> prob(2);
  normalise_visits(visits, prob);
  EXPECT_FLOAT_EQ(prob[0], 0.75f);
  EXPECT_FLOAT_EQ(prob[1], 0.25f);
}

TEST(Policy, SoftmaxByHand) {
  // exp(cp / 100): e^1, e^0, e^-1 over their sum.
  std::vector<int16_t> cp{100, 0, -100};
  std::vector<float> prob(3);
  softmax_cp(cp, 100.0, prob);
  const double e = std::exp(1.0), sum = e + 1 + 1 / e;
  EXPECT_FLOAT_EQ(prob[0], static_cast<float>(e / sum));
  EXPECT_FLOAT_EQ(prob[1], static_cast<float>(1 / sum));
  EXPECT_FLOAT_EQ(prob[2], static_cast<float>(1 / e / sum));
}

TEST(Policy, SoftmaxIsStableAtExtremeScores) {
  // exp(32000 / 1) overflows a double; the shifted form does not.
  std::vector<int16_t> cp{32000, 31999, -32000};
  std::vector<float> prob(3);
  softmax_cp(cp, 1.0, prob);
  EXPECT_FLOAT_EQ(prob[0], static_cast<float>(1 / (1 + std::exp(-1.0))));
  EXPECT_FLOAT_EQ(prob[1], static_cast<float>(std::exp(-1.0) / (1 + std::exp(-1.0))));
  EXPECT_EQ(prob[2], 0.0f);
}

TEST(Policy, TemperatureChangesTheDistribution) {
  std::vector<int16_t> cp{50, 0};
  std::vector<float> hot(2), cold(2);
  softmax_cp(cp, 200.0, hot);
  softmax_cp(cp, 25.0, cold);
  EXPECT_FLOAT_EQ(hot[0], static_cast<float>(1 / (1 + std::exp(-0.25))));
  EXPECT_FLOAT_EQ(cold[0], static_cast<float>(1 / (1 + std::exp(-2.0))));
}

TEST(Policy, EffectiveSlack) {
  EXPECT_EQ(effective_mate_slack(cp_header(32000, 100)), 100);
  EXPECT_EQ(effective_mate_slack(cp_header(30000, 0)), 320);
  EXPECT_EQ(effective_mate_slack(cp_header(0, 0)), 0);
  EXPECT_EQ(effective_mate_slack(cp_header(0, 100)), 0);  // no scale, no threshold
  EXPECT_EQ(mate_band(cp_header(32000, 100)).threshold, 31900);
  EXPECT_EQ(mate_band(cp_header(30000, 0)).threshold, 29680);
}

TEST(Policy, MateBand) {
  MateBand band = mate_band(cp_header(32000, 100));
  EXPECT_TRUE(band.is_mate(31900));
  EXPECT_TRUE(band.is_mate(-31900));
  EXPECT_FALSE(band.is_mate(31899));
  EXPECT_FALSE(mate_band(cp_header(0, 0)).is_mate(32767));
}

TEST(Policy, OneHotOnAMateLeader) {
  MateBand band = mate_band(cp_header(32000, 100));
  std::vector<int16_t> cp{300, 31950, 31940};
  std::vector<float> prob(3);
  cp_policy(cp, 100.0, band, prob);
  EXPECT_EQ(prob, (std::vector<float>{0.0f, 1.0f, 0.0f}));
}

TEST(Policy, LeaderBelowTheBandIsASoftmax) {
  MateBand band = mate_band(cp_header(32000, 100));
  std::vector<int16_t> cp{31899, 31799};
  std::vector<float> prob(2);
  cp_policy(cp, 100.0, band, prob);
  EXPECT_FLOAT_EQ(prob[0], static_cast<float>(1 / (1 + std::exp(-1.0))));
}

TEST(Policy, AllMovesMatedIsOneHotOnTheLeastBad) {
  // The highest-cp candidate is itself a (losing) mate score.
  MateBand band = mate_band(cp_header(30000, 0));
  std::vector<int16_t> cp{-29990, -29700};
  std::vector<float> prob(2);
  cp_policy(cp, 100.0, band, prob);
  EXPECT_EQ(prob, (std::vector<float>{0.0f, 1.0f}));
}

TEST(Policy, TiedMateLeadersPickTheFirst) {
  MateBand band = mate_band(cp_header(32000, 100));
  std::vector<int16_t> cp{31950, 31990, 31990};
  std::vector<float> prob(3);
  cp_policy(cp, 100.0, band, prob);
  EXPECT_EQ(prob, (std::vector<float>{0.0f, 1.0f, 0.0f}));
}

TEST(Policy, RoundedMeanHalvesAwayFromZero) {
  EXPECT_EQ(rounded_mean(301, 2), 151);    // 150.5
  EXPECT_EQ(rounded_mean(-301, 2), -151);  // -150.5
  EXPECT_EQ(rounded_mean(4, 3), 1);        // 1.33
  EXPECT_EQ(rounded_mean(5, 3), 2);        // 1.67
  EXPECT_EQ(rounded_mean(-4, 3), -1);
  EXPECT_EQ(rounded_mean(-5, 3), -2);
  EXPECT_EQ(rounded_mean(-1, 2), -1);      // -0.5
  EXPECT_EQ(rounded_mean(1, 2), 1);
  EXPECT_EQ(rounded_mean(0, 7), 0);
  EXPECT_EQ(rounded_mean(-32767 * 3, 3), -32767);
}

}  // namespace
}  // namespace manaka::fold
