#include "teacher/fit_coef.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include <nlohmann/json.hpp>

#include "core/text.h"
#include "teacher/corpus_input.h"
#include "teacher/score.h"

namespace manaka::teacher {

namespace {

constexpr int kMaxIterations = 100;
constexpr int kMaxHalvings = 60;
// Newton stops when a step moves a by less than this share of a.
constexpr double kRelativeTolerance = 1e-12;
// The start: the conventional 600 cp.
constexpr double kStartCoef = 600.0;

double sigmoid(double z) {
  return z >= 0 ? 1.0 / (1.0 + std::exp(-z)) : std::exp(z) / (1.0 + std::exp(z));
}

// log sigmoid(z), without overflow at either end.
double log_sigmoid(double z) { return z >= 0 ? -std::log1p(std::exp(-z)) : z - std::log1p(std::exp(z)); }

double log_likelihood(std::span<const int32_t> cp, std::span<const float> score, double a) {
  double ll = 0.0;
  for (size_t i = 0; i < cp.size(); ++i) {
    const double z = a * cp[i];
    ll += score[i] * log_sigmoid(z) + (1.0 - score[i]) * log_sigmoid(-z);
  }
  return ll;
}

// A bin's bound as the text lists it: "-inf" and "+inf" at the open ends.
std::string bound_text(double v) {
  if (std::isinf(v)) return v < 0 ? "-inf" : "+inf";
  std::string out;
  append_format(out, "%.0f", v);
  return out;
}

// JSON's null for an open end (a bin's, the interval's hi).
nlohmann::ordered_json bound_json(double v) { return std::isinf(v) ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(v); }

}  // namespace

Result<CoefFit> fit_eval_coef(std::span<const int32_t> cp, std::span<const float> score,
                              std::span<const uint32_t> game, double bin_cp, double calibration_cp) {
  if (cp.size() != score.size() || cp.size() != game.size())
    return Status::invalid("fit_eval_coef: cp, score and game differ in length");
  if (cp.size() < 2) return Status::invalid("fit-coef: " + std::to_string(cp.size()) + " usable rows; at least 2 are needed");
  if (!(bin_cp > 0) || !(calibration_cp >= bin_cp))
    return Status::usage("fit-coef: the bin width must be positive and at most the calibration range");
  CoefFit fit;
  fit.rows = static_cast<int64_t>(cp.size());
  double a = 1.0 / kStartCoef;
  double ll = log_likelihood(cp, score, a);
  for (fit.iterations = 1; fit.iterations <= kMaxIterations; ++fit.iterations) {
    double g = 0.0, h = 0.0;
    for (size_t i = 0; i < cp.size(); ++i) {
      const double x = cp[i], p = sigmoid(a * x);
      g += x * (score[i] - p);
      h += x * x * p * (1.0 - p);
    }
    if (!(h > 0)) return Status::invalid("fit-coef: every usable row has cp 0 (or the fit ran off to a = " + number_text(a) + "): the scale cannot be fitted");
    double step = g / h;
    double next = a + step, next_ll = log_likelihood(cp, score, next);
    for (int k = 0; k < kMaxHalvings && !(next_ll >= ll); ++k) {
      step /= 2;
      next = a + step;
      next_ll = log_likelihood(cp, score, next);
    }
    // No step that does not lower the likelihood: a is its maximum to
    // rounding.
    if (!(next_ll >= ll)) break;
    const bool done = std::abs(step) <= kRelativeTolerance * std::abs(a);
    a = next;
    ll = next_ll;
    if (done) break;
  }
  if (!(a > 0))
    return Status::invalid("fit-coef: the results do not rise with cp (the likelihood peaks at 1/C = " + number_text(a) +
                           "): no positive eval_coef fits; are cp and result from the same side's view?");
  // The sandwich over games at the fit.
  double info = 0.0, meat = 0.0, cluster = 0.0;
  for (size_t i = 0; i < cp.size(); ++i) {
    const double x = cp[i], p = sigmoid(a * x);
    info += x * x * p * (1.0 - p);
    if (i > 0 && game[i] != game[i - 1]) {
      meat += cluster * cluster;
      cluster = 0.0;
      ++fit.games;
    }
    cluster += x * (score[i] - p);
  }
  meat += cluster * cluster;
  ++fit.games;
  fit.a = a;
  fit.a_se = std::sqrt(meat) / info;
  fit.eval_coef = 1.0 / a;
  fit.log_likelihood = ll / static_cast<double>(fit.rows);
  const double a_hi = a + kInterval95 * fit.a_se, a_lo = a - kInterval95 * fit.a_se;
  fit.lo = 1.0 / a_hi;
  fit.hi = a_lo > 0 ? 1.0 / a_lo : std::numeric_limits<double>::infinity();

  // The calibration curve: bins of bin_cp over [-calibration_cp, calibration_cp).
  const int half = static_cast<int>(std::ceil(calibration_cp / bin_cp));
  fit.bins.resize(static_cast<size_t>(2 * half));
  for (int b = 0; b < 2 * half; ++b) {
    fit.bins[static_cast<size_t>(b)].lo = (b - half) * bin_cp;
    fit.bins[static_cast<size_t>(b)].hi = (b - half + 1) * bin_cp;
  }
  fit.bins.front().lo = -std::numeric_limits<double>::infinity();  // the outer bins take every cp beyond
  fit.bins.back().hi = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < cp.size(); ++i) {
    const int b = std::clamp(static_cast<int>(std::floor(cp[i] / bin_cp)) + half, 0, 2 * half - 1);
    CalibrationBin& bin = fit.bins[static_cast<size_t>(b)];
    ++bin.rows;
    bin.mean_cp += cp[i];
    bin.mean_score += score[i];
    bin.fitted += sigmoid(a * cp[i]);
  }
  std::erase_if(fit.bins, [](const CalibrationBin& b) { return b.rows == 0; });
  for (CalibrationBin& b : fit.bins) {
    b.mean_cp /= static_cast<double>(b.rows);
    b.mean_score /= static_cast<double>(b.rows);
    b.fitted /= static_cast<double>(b.rows);
  }
  return fit;
}

Result<FitCoefSummary> fit_coef(const FitCoefOptions& o) {
  MANAKA_ASSIGN_OR_RETURN(Conventions conv, Conventions::make(kStartCoef, o.mate_scale, o.mate_slack));
  MANAKA_ASSIGN_OR_RETURN(std::vector<std::string> files, parquet::expand_parquet_paths(o.inputs));
  FitCoefSummary s;
  std::vector<int32_t> cp;
  std::vector<float> score;
  std::vector<uint32_t> game;
  uint32_t game_id = 0;
  for (const std::string& path : files) {
    MANAKA_ASSIGN_OR_RETURN(std::unique_ptr<CorpusSource> source, open_corpus_file(path, o.columns));
    ++game_id;  // a game never spans two files
    int64_t last_ply = std::numeric_limits<int64_t>::max();
    CorpusBatch batch;
    while (true) {
      MANAKA_ASSIGN_OR_RETURN(bool more, source->next(batch));
      if (!more) break;
      for (size_t r = 0; r < batch.rows; ++r) {
        ++s.rows_read;
        if (batch.missing[r] >= 0 || (batch.side[r] != 0 && batch.side[r] != 1) || batch.result[r] < -1 ||
            batch.result[r] > 1) {
          ++s.rows_missing;
          continue;
        }
        if (batch.ply[r] <= last_ply) ++game_id;
        last_ply = batch.ply[r];
        if (conv.is_mate(batch.cp[r])) {
          ++s.rows_mate;
          continue;
        }
        const int64_t z = batch.side[r] == 0 ? batch.result[r] : -batch.result[r];
        if (z == 0) ++s.draws;
        cp.push_back(static_cast<int32_t>(batch.cp[r]));
        score.push_back(0.5f * static_cast<float>(1 + z));
        game.push_back(game_id);
      }
    }
  }
  auto fit = fit_eval_coef(cp, score, game, o.bin_cp, o.calibration_cp);
  if (!fit.ok()) return std::move(fit).take_status();
  s.fit = std::move(fit).value();
  return s;
}

std::string format_fit(const FitCoefSummary& s) {
  const CoefFit& f = s.fit;
  std::string out;
  append_format(out, "eval_coef %.1f (95%% interval %.1f .. %s) from %lld rows of %lld games\n", f.eval_coef, f.lo,
                std::isfinite(f.hi) ? number_text(std::round(f.hi * 10) / 10).c_str() : "inf",
                static_cast<long long>(f.rows), static_cast<long long>(f.games));
  append_format(out, "rows: %lld read, %lld mate scores and %lld incomplete left out, %lld draws among those used\n",
                static_cast<long long>(s.rows_read), static_cast<long long>(s.rows_mate),
                static_cast<long long>(s.rows_missing), static_cast<long long>(s.draws));
  append_format(out, "log-likelihood per row %.5f after %d Newton steps\n", f.log_likelihood, f.iterations);
  out += "calibration (cp bin: rows, mean cp, observed score, fitted score):\n";
  for (const CalibrationBin& b : f.bins)
    append_format(out, "  %c%6s, %6s) %9lld  %8.1f  %.4f  %.4f\n", std::isinf(b.lo) ? '(' : '[',
                  bound_text(b.lo).c_str(), bound_text(b.hi).c_str(), static_cast<long long>(b.rows), b.mean_cp,
                  b.mean_score, b.fitted);
  return out;
}

std::string fit_json(const FitCoefSummary& s) {
  const CoefFit& f = s.fit;
  nlohmann::ordered_json bins = nlohmann::ordered_json::array();
  for (const CalibrationBin& b : f.bins)
    bins.push_back({{"lo", bound_json(b.lo)}, {"hi", bound_json(b.hi)}, {"rows", b.rows}, {"mean_cp", b.mean_cp},
                    {"mean_score", b.mean_score}, {"fitted", b.fitted}});
  nlohmann::ordered_json j = {
      {"eval_coef", f.eval_coef}, {"lo", f.lo}, {"hi", bound_json(f.hi)},
      {"a", f.a}, {"a_se", f.a_se}, {"rows", f.rows}, {"games", f.games}, {"rows_read", s.rows_read},
      {"rows_mate", s.rows_mate}, {"rows_missing", s.rows_missing}, {"draws", s.draws},
      {"log_likelihood", f.log_likelihood}, {"iterations", f.iterations}, {"calibration", bins}};
  return json_text(j);
}

}  // namespace manaka::teacher
