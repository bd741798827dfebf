// `manaka teacher fit-coef CORPUS`: the eval_coef a corpus's own game results
// say its engine's centipawns are worth, by maximum likelihood.
//
// Model (the squash `teacher convert` uses, teacher/score.h): a position
// scored cp (side to move's view) is won by the side to move with expected
// score p = sigmoid(cp / C) = (1 + tanh(cp / 2C)) / 2. The observed score y
// is 1 for a win, 1/2 for a draw and 0 for a loss (the row's result turned to
// the side to move). With a = 1 / C the log-likelihood
//   L(a) = sum y log p + (1 - y) log(1 - p)
// is concave in a (a one-feature logistic regression without intercept;
// draws count half a win, half a loss), so Newton's method from any start
// with step halving finds its maximum.
//
// The interval: rows of one game share its result, so they are not
// independent and the Fisher information overstates what a corpus knows.
// The standard error of a is the cluster-robust (sandwich) one over games,
//   se(a)^2 = sum_g (sum_{i in g} cp_i (y_i - p_i))^2 / I(a)^2,
//   I(a) = sum cp_i^2 p_i (1 - p_i),
// and the 95% interval a +- 1.96 se is carried to C = 1 / a (so it is not
// symmetric around C). A game is a run of consecutive rows of one file whose
// ply keeps increasing, as `teacher generate` writes them; with one row per
// game the sandwich is the ordinary robust one.
//
// Rows with a mate score (|cp| at or past mate_scale - slack) say nothing of
// the scale and are left out, and so are rows with a missing field.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/status.h"
#include "teacher/corpus_batch.h"

namespace manaka::teacher {

inline constexpr double kDefaultBinCp = 100.0;
inline constexpr double kDefaultCalibrationCp = 2000.0;
inline constexpr double kInterval95 = 1.959963984540054;

// One row of the calibration curve: rows whose cp falls in [lo, hi). The two
// outer bins take every cp beyond them, so the first's lo is -inf and the
// last's hi +inf (printed "(-inf, -1900)" and "[1900, +inf)", null in JSON).
struct CalibrationBin {
  double lo = 0.0, hi = 0.0;
  int64_t rows = 0;
  double mean_cp = 0.0;
  double mean_score = 0.0;  // observed: wins + draws / 2 over rows
  double fitted = 0.0;      // mean of sigmoid(cp / C) over the same rows
};

struct CoefFit {
  int64_t rows = 0, games = 0;
  double eval_coef = 0.0;
  double lo = 0.0, hi = 0.0;  // 95% interval of eval_coef; hi is inf when a - 1.96 se <= 0
  double a = 0.0, a_se = 0.0;  // 1 / eval_coef and its standard error
  double log_likelihood = 0.0;  // per row, at the fit
  int iterations = 0;
  std::vector<CalibrationBin> bins;
};

// The fit over plain columns: cp (side to move), score (0, 0.5, 1), game
// (rows of one game share an id). Refuses fewer than two rows, rows all at
// cp 0, and results that do not rise with cp (the likelihood's maximum at
// a <= 0, no finite positive C).
Result<CoefFit> fit_eval_coef(std::span<const int32_t> cp, std::span<const float> score,
                              std::span<const uint32_t> game, double bin_cp = kDefaultBinCp,
                              double calibration_cp = kDefaultCalibrationCp);

struct FitCoefOptions {
  std::vector<std::string> inputs;  // corpus files or directories (teacher/corpus_input.h)
  CorpusColumns columns;
  int mate_scale = 32000;
  int mate_slack = 0;  // 0 means 320
  double bin_cp = kDefaultBinCp;
  double calibration_cp = kDefaultCalibrationCp;
};

struct FitCoefSummary {
  int64_t rows_read = 0, rows_mate = 0, rows_missing = 0;
  int64_t draws = 0;  // among the rows used
  CoefFit fit;
};

Result<FitCoefSummary> fit_coef(const FitCoefOptions& options);

std::string format_fit(const FitCoefSummary& s);
std::string fit_json(const FitCoefSummary& s);

}  // namespace manaka::teacher
