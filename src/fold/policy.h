// Deriving prob, the one division of the pipeline. It runs once per folded
// row, on the merged candidate list, and never earlier (docs: "Folding, and
// where the division happens"):
//
//   policy_source 0 (visits)  prob_i = visits_i / sum_j visits_j, the visit
//                             sums held in u64.
//   policy_source 1 (cp)      when the highest-cp candidate's score is a mate
//                             score, prob is one-hot on it (the first such
//                             candidate in row order on a tie); otherwise
//                             prob_i = exp(cp_i / T) / sum_j exp(cp_j / T),
//                             computed as exp((cp_i - max) / T) in double.
//
// The mate band: threshold = mate_scale - slack, slack = mate_slack or 320
// when the header says 0. A score is a mate score when |cp| >= threshold,
// and only when mate_scale != 0 (a stream off the centipawn scale has no
// mates). prob and the mate test read the cp values as stored in the row
// (the rounded means), so a reader can re-derive prob from the row alone.
//
// The softmax and the leader are the side to move's: a pov-1 stream's cp
// are Black's view, so where White moves they are negated first (the row
// keeps them as the stream wrote them; the footer's pov says so). Read
// raw, White's worst move would get White's policy.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "stream/format.h"

namespace manaka::fold {

// The card's slack, used when a header states none.
inline constexpr uint16_t kDefaultMateSlack = stream::kDefaultMateSlack;
// The default softmax temperature, in centipawns.
inline constexpr double kDefaultTemperature = 100.0;

struct MateBand {
  bool enabled = false;   // mate_scale != 0
  int32_t threshold = 0;  // mate_scale - effective slack

  bool is_mate(int32_t cp) const { return enabled && (cp < 0 ? -cp : cp) >= threshold; }
};

// The slack the fold applies and the footer states: mate_slack, or 320 when
// it is 0; 0 when the stream has no mate scale.
uint16_t effective_mate_slack(const stream::Header& header);
MateBand mate_band(const stream::Header& header);

// Everything prob's derivation reads, fixed for a whole conversion.
struct PolicyRule {
  stream::PolicySource source = stream::PolicySource::Visits;
  double temperature = kDefaultTemperature;  // cp-sourced only
  MateBand band;                             // cp-sourced only
  stream::Pov pov = stream::Pov::SideToMove;  // cp-sourced only: whose view cp is

  static PolicyRule from(const stream::Header& header, double temperature) {
    return {header.policy_source, temperature, mate_band(header), header.pov};
  }

  // cp_policy for a position whose side to move is `side` (packed byte 95:
  // 0 Black, 1 White), cp in the stream's view; `turned` holds the negated
  // scores when they are Black's and White moves.
  void cp_prob(std::span<const int16_t> cp, uint8_t side, std::vector<int16_t>& turned, std::span<float> prob) const;
};

// prob[i] = visits[i] / sum(visits); spans of equal length, sum > 0.
void normalise_visits(std::span<const uint64_t> visits, std::span<float> prob);
// The same for counts below 65535 as the fold table keeps them (the same bits).
void normalise_visits(std::span<const uint16_t> visits, std::span<float> prob);

// The softmax over cp at temperature t (> 0); spans of equal length >= 1.
void softmax_cp(std::span<const int16_t> cp, double temperature, std::span<float> prob);

// policy_source 1 as above: one-hot on the leader when it is a mate score,
// the softmax otherwise.
void cp_policy(std::span<const int16_t> cp, double temperature, const MateBand& band,
               std::span<float> prob);

// The mean of sum over n records, rounded to the nearest integer with halves
// away from zero (n > 0). Exact in integers: no float is involved.
int64_t rounded_mean(int64_t sum, int64_t n);

}  // namespace manaka::fold
