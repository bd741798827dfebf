// The squash check values and the mate band from the spec README, and the
// engine's mate scores folded to centipawns.
#include "teacher/score.h"

#include <gtest/gtest.h>

#include <cmath>

namespace manaka::teacher {
namespace {

double win_rate(double cp, double coef) { return 1.0 / (1.0 + std::exp(-cp / coef)); }

TEST(Squash, NinetyPercentAt1318CpForCoef600) {
  EXPECT_NEAR(win_rate(1318, 600), 0.90, 5e-4);
  EXPECT_NEAR(squash(1318, 600), 0.80, 1e-3);
  auto c = Conventions::make(600, 32000, 0);
  ASSERT_TRUE(c.ok());
  EXPECT_NEAR(c->value_q(1318), 0.80f, 1e-3);
  EXPECT_NEAR(c->value_q(-1318), -0.80f, 1e-3);
  EXPECT_EQ(c->value_q(0), 0.0f);
}

TEST(Squash, NinetyPercentAt1661CpForCoef756) {
  EXPECT_NEAR(win_rate(1661, 756.0865), 0.90, 5e-4);
  auto c = Conventions::make(756.0865, 30000, 0);
  ASSERT_TRUE(c.ok());
  EXPECT_NEAR(c->value_q(1661), 0.80f, 1e-3);
  // The same win rate is 1.26x apart in centipawns under the two coefficients.
  EXPECT_NEAR(1661.0 / 1318.0, 756.0865 / 600.0, 2e-3);
  // The header stores eval_coef as f32, and the squash uses that value.
  EXPECT_EQ(c->eval_coef, double(756.0865f));
}

TEST(Squash, IsTwiceTheWinRateMinusOne) {
  for (double cp : {-3000.0, -250.0, 0.0, 77.0, 900.0})
    EXPECT_NEAR(squash(cp, 600), 2 * win_rate(cp, 600) - 1, 1e-12) << cp;
}

TEST(MateBand, Scale30000WithSlack0UsesThe320Default) {
  EXPECT_EQ(effective_slack(0), 320);
  auto c = Conventions::make(600, 30000, 0);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->threshold, 29680);
  EXPECT_TRUE(c->is_mate(29680));
  EXPECT_TRUE(c->is_mate(29999));
  EXPECT_TRUE(c->is_mate(-29680));
  EXPECT_FALSE(c->is_mate(29679));
  EXPECT_FALSE(c->is_mate(-29679));
  EXPECT_EQ(c->value_q(29680), 1.0f);
  EXPECT_EQ(c->value_q(-29680), -1.0f);
  // Below the band the squash applies: visible with a wide coefficient.
  auto wide = Conventions::make(100000, 30000, 0);
  ASSERT_TRUE(wide.ok());
  EXPECT_NEAR(wide->value_q(29679), std::tanh(29679.0 / 200000.0), 1e-6);
  EXPECT_EQ(wide->value_q(29680), 1.0f);
}

TEST(MateBand, Scale32000WithSlack100) {
  EXPECT_EQ(effective_slack(100), 100);
  auto c = Conventions::make(600, 32000, 100);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->threshold, 31900);
  EXPECT_TRUE(c->is_mate(31900));
  EXPECT_TRUE(c->is_mate(-31971));
  EXPECT_FALSE(c->is_mate(31899));
  // V4's ordinary band tops out at 31753: not a mate under slack 100 ...
  EXPECT_FALSE(c->is_mate(31753));
  // ... but a mate under the default 320 (threshold 31680).
  auto loose = Conventions::make(600, 32000, 0);
  ASSERT_TRUE(loose.ok());
  EXPECT_EQ(loose->threshold, 31680);
  EXPECT_TRUE(loose->is_mate(31753));
  auto wide = Conventions::make(100000, 32000, 100);
  ASSERT_TRUE(wide.ok());
  EXPECT_NEAR(wide->value_q(-31899), -std::tanh(31899.0 / 200000.0), 1e-6);
  EXPECT_EQ(wide->value_q(-31900), -1.0f);
}

TEST(Conventions, RefusesWhatCannotBeRead) {
  EXPECT_FALSE(Conventions::make(0, 32000, 0).ok());
  EXPECT_FALSE(Conventions::make(-600, 32000, 0).ok());
  EXPECT_FALSE(Conventions::make(NAN, 32000, 0).ok());
  EXPECT_FALSE(Conventions::make(600, 0, 0).ok());
  EXPECT_FALSE(Conventions::make(600, 40000, 0).ok());
  auto too_wide = Conventions::make(600, 300, 0);
  ASSERT_FALSE(too_wide.ok());
  EXPECT_EQ(too_wide.status().message(),
            "mate_slack 320 reaches mate_scale 300: the mate threshold must stay above 0");
}

TEST(EngineScore, MatesFoldToTheScale) {
  using engine::Score;
  EXPECT_EQ(engine_score_to_cp(Score{Score::Kind::Mate, 3, true}, 32000), 31997);
  EXPECT_EQ(engine_score_to_cp(Score{Score::Kind::Mate, -3, true}, 32000), -31997);
  EXPECT_EQ(engine_score_to_cp(Score{Score::Kind::Mate, 5, true}, 30000), 29995);
  EXPECT_EQ(engine_score_to_cp(Score{Score::Kind::Mate, 0, true}, 32000), -32000);
  EXPECT_EQ(engine_score_to_cp(Score{Score::Kind::Mate, 1000, true}, 32000), 32000 - 319);
  EXPECT_EQ(engine_score_to_cp(Score{Score::Kind::Mate, 1, false}, 32000), 32000 - 319);
  EXPECT_EQ(engine_score_to_cp(Score{Score::Kind::Mate, -1, false}, 32000), -(32000 - 319));
}

TEST(EngineScore, OrdinaryScoresStayBelowTheDefaultBand) {
  using engine::Score;
  EXPECT_EQ(engine_score_to_cp(Score{Score::Kind::Cp, 123, true}, 32000), 123);
  EXPECT_EQ(engine_score_to_cp(Score{Score::Kind::Cp, 50000, true}, 32000), 31679);
  EXPECT_EQ(engine_score_to_cp(Score{Score::Kind::Cp, -50000, true}, 30000), -29679);
  auto c = Conventions::make(600, 32000, 0);
  ASSERT_TRUE(c.ok());
  EXPECT_FALSE(c->is_mate(engine_score_to_cp(Score{Score::Kind::Cp, 50000, true}, 32000)));
  EXPECT_TRUE(c->is_mate(engine_score_to_cp(Score{Score::Kind::Mate, 400, true}, 32000)));
}

}  // namespace
}  // namespace manaka::teacher
