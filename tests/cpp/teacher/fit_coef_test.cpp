// fit_eval_coef recovers the coefficient results were simulated with, inside
// its interval; the interval widens when a game's rows share one result; the
// corpus reader turns results to the side to move and leaves mates out; the
// outer calibration bins are labelled open-ended.
#include "teacher/fit_coef.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

#include <nlohmann/json.hpp>
#include <unistd.h>

namespace manaka::teacher {
namespace {

namespace fs = std::filesystem;

struct Sample {
  std::vector<int32_t> cp;
  std::vector<float> score;
  std::vector<uint32_t> game;
};

// n games of `rows_per_game` rows at one cp (uniform in +-2500) sharing one
// score drawn with mean sigmoid(cp / coef): two half-games, so draws (0.5)
// occur with probability 2p(1 - p).
Sample simulate(double coef, int games, int rows_per_game, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int32_t> cp_of(-2500, 2500);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Sample s;
  for (int g = 0; g < games; ++g) {
    const int32_t cp = cp_of(rng);
    const double p = 1.0 / (1.0 + std::exp(-cp / coef));
    const float y = 0.5f * static_cast<float>((u(rng) < p) + (u(rng) < p));
    for (int r = 0; r < rows_per_game; ++r) {
      s.cp.push_back(cp);
      s.score.push_back(y);
      s.game.push_back(static_cast<uint32_t>(g));
    }
  }
  return s;
}

TEST(FitCoef, RecoversTheSimulatedCoefficientWithinItsInterval) {
  auto s = simulate(756.0, 20000, 1, 1);
  auto fit = fit_eval_coef(s.cp, s.score, s.game);
  ASSERT_TRUE(fit.ok()) << fit.status().message();
  EXPECT_LT(fit->lo, 756.0);
  EXPECT_GT(fit->hi, 756.0);
  EXPECT_NEAR(fit->eval_coef, 756.0, 40.0);
  EXPECT_LT(fit->hi - fit->lo, 100.0);  // 20,000 rows pin it to a few percent
  EXPECT_EQ(fit->games, 20000);
  // At the maximum the score equation holds: sum cp (y - p) = 0.
  double g = 0.0;
  for (size_t i = 0; i < s.cp.size(); ++i) g += s.cp[i] * (s.score[i] - 1.0 / (1.0 + std::exp(-fit->a * s.cp[i])));
  EXPECT_NEAR(g / s.cp.size(), 0.0, 1e-6);
}

TEST(FitCoef, NinetyFivePercentIntervalsCoverTheTruthAboutThatOften) {
  int covered = 0;
  const int trials = 40;
  for (int t = 0; t < trials; ++t) {
    auto s = simulate(600.0, 2000, 1, 100 + static_cast<uint32_t>(t));
    auto fit = fit_eval_coef(s.cp, s.score, s.game);
    ASSERT_TRUE(fit.ok()) << fit.status().message();
    covered += fit->lo < 600.0 && 600.0 < fit->hi;
  }
  // Binomial(40, 0.95): 34 or more with probability 0.998.
  EXPECT_GE(covered, 34);
}

TEST(FitCoef, RowsOfOneGameCountAsOneObservation) {
  auto s = simulate(600.0, 3000, 10, 7);
  auto clustered = fit_eval_coef(s.cp, s.score, s.game);
  std::vector<uint32_t> each(s.cp.size());
  for (size_t i = 0; i < each.size(); ++i) each[i] = static_cast<uint32_t>(i);
  auto naive = fit_eval_coef(s.cp, s.score, each);
  ASSERT_TRUE(clustered.ok() && naive.ok());
  EXPECT_EQ(clustered->games, 3000);
  EXPECT_DOUBLE_EQ(clustered->a, naive->a);
  // Ten identical rows per game: the standard error is sqrt(10) times wider.
  EXPECT_NEAR(clustered->a_se / naive->a_se, std::sqrt(10.0), 1e-6);
}

TEST(FitCoef, CalibrationBinsCountTheRows) {
  std::vector<int32_t> cp = {-2500, -150, -50, 0, 50, 99, 100, 2500};
  std::vector<float> score = {0, 0, 0.5f, 1, 1, 0, 1, 1};
  std::vector<uint32_t> game = {0, 1, 2, 3, 4, 5, 6, 7};
  auto fit = fit_eval_coef(cp, score, game, 100.0, 200.0);
  ASSERT_TRUE(fit.ok()) << fit.status().message();
  // Bins [-200,-100) (with -2500), [-100,0), [0,100), [100,200) (with 2500).
  ASSERT_EQ(fit->bins.size(), 4u);
  EXPECT_EQ(fit->bins[0].rows, 2);
  EXPECT_DOUBLE_EQ(fit->bins[0].mean_cp, -1325.0);
  EXPECT_EQ(fit->bins[1].rows, 1);
  EXPECT_EQ(fit->bins[2].rows, 3);
  EXPECT_DOUBLE_EQ(fit->bins[2].mean_score, 2.0 / 3.0);
  EXPECT_EQ(fit->bins[3].rows, 2);
  EXPECT_DOUBLE_EQ(fit->bins[3].lo, 100.0);
  // The outer bins are open-ended: they hold -2500 and 2500.
  EXPECT_TRUE(std::isinf(fit->bins[0].lo) && fit->bins[0].lo < 0);
  EXPECT_TRUE(std::isinf(fit->bins[3].hi) && fit->bins[3].hi > 0);
  EXPECT_DOUBLE_EQ(fit->bins[1].lo, -100.0);
  FitCoefSummary s;
  s.fit = *fit;
  const std::string text = format_fit(s);
  EXPECT_NE(text.find("\n  (  -inf,   -100)         2 "), std::string::npos) << text;
  EXPECT_NE(text.find("\n  [  -100,      0)         1 "), std::string::npos) << text;
  EXPECT_NE(text.find("\n  [   100,   +inf)         2 "), std::string::npos) << text;
  const auto bins = nlohmann::json::parse(fit_json(s))["calibration"];
  EXPECT_TRUE(bins[0]["lo"].is_null());
  EXPECT_EQ(bins[0]["hi"], -100.0);
  EXPECT_EQ(bins[3]["lo"], 100.0);
  EXPECT_TRUE(bins[3]["hi"].is_null());
}

TEST(FitCoef, RefusesResultsThatFallWithCp) {
  std::vector<int32_t> cp = {-300, -100, 100, 300};
  std::vector<float> score = {1, 1, 0, 0};
  std::vector<uint32_t> game = {0, 1, 2, 3};
  auto fit = fit_eval_coef(cp, score, game);
  ASSERT_FALSE(fit.ok());
  EXPECT_NE(fit.status().message().find("the results do not rise with cp"), std::string::npos)
      << fit.status().message();
}

TEST(FitCoef, CorpusResultsTurnToTheSideToMoveAndMatesAreLeftOut) {
  fs::path dir = fs::temp_directory_path() / ("manaka_fit_coef_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string path = (dir / "corpus.jsonl").string();
  {
    std::ofstream out(path);
    auto line = [&](int ply, int side, int cp, int result) {
      out << R"({"sfen": "x", "ply": )" << ply << R"(, "side": )" << side << R"(, "cp": )" << cp
          << R"(, "cand_moves": [], "cand_cp": [], "move": "7g7f", "result": )" << result << "}\n";
    };
    // Game 1, Black wins: Black's rows score 1 at cp > 0, White's 0 at cp < 0.
    line(0, 0, 300, 1);
    line(1, 1, -400, 1);
    line(2, 0, 31900, 1);  // a mate score: left out
    // Game 2 (ply restarts), a draw; game 3, White wins.
    line(0, 0, 50, 0);
    line(1, 1, -20, 0);
    line(0, 0, -500, -1);
    line(1, 1, 600, -1);
    out << R"({"sfen": "x", "ply": 2})" << "\n";  // incomplete
  }
  FitCoefOptions o;
  o.inputs = {path};
  auto s = fit_coef(o);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->rows_read, 8);
  EXPECT_EQ(s->rows_mate, 1);
  EXPECT_EQ(s->rows_missing, 1);
  EXPECT_EQ(s->draws, 2);
  EXPECT_EQ(s->fit.rows, 6);
  EXPECT_EQ(s->fit.games, 3);
  EXPECT_GT(s->fit.eval_coef, 0.0);
  // Every used row agrees with its cp's sign or is a draw: the fit is a steep
  // (small) coefficient, and the text names it with its interval.
  EXPECT_NE(format_fit(*s).find("eval_coef "), std::string::npos);
  EXPECT_NE(fit_json(*s).find("\"calibration\""), std::string::npos);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace manaka::teacher
