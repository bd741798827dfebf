#include "teacher/score.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include "core/text.h"
#include "stream/format.h"

namespace manaka::teacher {

Result<Conventions> Conventions::make(double eval_coef, int mate_scale, int mate_slack) {
  // The header's rule for eval_coef (stream/header.h, H4), said before a value
  // the f32 field cannot hold (1e40 -> inf) is rounded into it.
  if (!(eval_coef >= stream::kMinEvalCoef && eval_coef <= stream::kMaxEvalCoef)) {
    std::string msg = "eval_coef " + number_text(eval_coef) +
                      " is out of range: must be a finite number of centipawns from 1 to 100000";
    if (std::isfinite(eval_coef) && !std::isfinite(static_cast<float>(eval_coef)))
      msg += " (the header's f32 would hold inf)";
    return Status::usage(msg);
  }
  if (mate_scale < 1 || mate_scale > 32767)
    return Status::usage("mate_scale " + std::to_string(mate_scale) +
                           ": must be 1..32767 (mates must fit an i16 cp)");
  if (mate_slack < 0 || mate_slack > 65535)
    return Status::usage("mate_slack " + std::to_string(mate_slack) + ": must be 0..65535");
  int threshold = mate_threshold(mate_scale, mate_slack);
  if (threshold <= 0)
    return Status::invalid("mate_slack " + std::to_string(effective_slack(mate_slack)) +
                           " reaches mate_scale " + std::to_string(mate_scale) +
                           ": the mate threshold must stay above 0");
  Conventions c;
  c.eval_coef = static_cast<double>(static_cast<float>(eval_coef));
  c.mate_scale = mate_scale;
  c.mate_slack = mate_slack;
  c.threshold = threshold;
  return c;
}

double squash(double cp, double eval_coef) { return std::tanh(cp / (2.0 * eval_coef)); }

float Conventions::value_q(int64_t cp) const {
  if (is_mate(cp)) return cp > 0 ? 1.0f : -1.0f;
  return static_cast<float>(squash(static_cast<double>(cp), eval_coef));
}

int engine_score_to_cp(const engine::Score& score, int mate_scale) {
  if (score.is_mate()) {
    int n = score.mate_distance_known ? std::abs(score.value) : kMaxMateDistance;
    n = std::min(n, kMaxMateDistance);
    // "mate 0" (or "mate -0") means the side to move is mated.
    bool winning = score.value > 0;
    return winning ? mate_scale - n : -(mate_scale - n);
  }
  const int limit = mate_scale - kDefaultMateSlack - 1;
  return std::clamp(score.value, -limit, limit);
}

}  // namespace manaka::teacher
