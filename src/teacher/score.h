// The centipawn conventions of teacher data (spec README, "Win-rate squash"
// and "Mate band"; mpk1-training-data-formats, "The header states the
// conventions"):
//
//   win rate      p = sigmoid(cp / eval_coef)
//   value_q       tanh(cp / (2 * eval_coef))  (= 2p - 1), or the sign of cp
//                 when cp is a mate score
//   mate band     threshold = mate_scale - slack, slack = mate_slack or 320
//                 when mate_slack is 0; |cp| >= threshold is a mate score
//   engine mates  "score mate N" -> +-(mate_scale - |N|), N the engine::Score
//                 distance in plies (USI's N as sent)
//
// The generator writes ordinary scores clamped to +-(mate_scale - 321) and
// mate distances capped at 319, so its corpora split cleanly at the default
// slack of 320 (convert them with --mate-slack 0 or 320).
#pragma once

#include <cstdint>

#include "core/status.h"
#include "engine/protocol.h"

namespace manaka::teacher {

inline constexpr int kDefaultMateSlack = 320;
// The deepest mate distance the generator writes: mate_scale - 319 stays
// inside the default band.
inline constexpr int kMaxMateDistance = kDefaultMateSlack - 1;

// The slack a reader uses: mate_slack, or 320 when it is 0.
constexpr int effective_slack(int mate_slack) { return mate_slack == 0 ? kDefaultMateSlack : mate_slack; }
// mate_scale - effective_slack(mate_slack).
constexpr int mate_threshold(int mate_scale, int mate_slack) {
  return mate_scale - effective_slack(mate_slack);
}

// The conventions a converter squashes against, checked once.
struct Conventions {
  double eval_coef = 0.0;  // as the header stores it (f32), widened
  int mate_scale = 0;
  int mate_slack = 0;  // 0 means 320
  int threshold = 0;   // mate_scale - effective slack

  // eval_coef finite and within [1, 100000] (the MPK1 header's range,
  // stream/header.h); 1 <= mate_scale <= 32767; mate_slack <= 65535 and
  // below mate_scale (so the threshold is positive).
  static Result<Conventions> make(double eval_coef, int mate_scale, int mate_slack);

  bool is_mate(int64_t cp) const { return cp >= threshold || cp <= -threshold; }
  // value_q of a root score (side to move's view).
  float value_q(int64_t cp) const;
};

// tanh(cp / (2 * eval_coef)), i.e. 2 * sigmoid(cp / eval_coef) - 1.
double squash(double cp, double eval_coef);

// An engine score in the generator's centipawns: a mate folds to
// +-(mate_scale - min(|N|, 319)) (an unknown distance counts as 319, "mate 0"
// as being mated); an ordinary score is clamped to +-(mate_scale - 321).
int engine_score_to_cp(const engine::Score& score, int mate_scale);

}  // namespace manaka::teacher
