#include "match/score.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace manaka::match {

double elo_of_score(double score) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  if (score <= 0.0) return -inf;
  if (score >= 1.0) return inf;
  return -400.0 * std::log10(1.0 / score - 1.0);
}

MatchScore score_match(int wins, int draws, int losses) {
  assert(wins >= 0 && draws >= 0 && losses >= 0 && wins + draws + losses > 0);
  MatchScore m;
  m.wins = wins;
  m.draws = draws;
  m.losses = losses;
  const double n = wins + draws + losses;
  const double s = (wins + 0.5 * draws) / n;
  m.score = s;
  m.win_rate = wins / n;
  m.elo = elo_of_score(s);
  // Wilson's interval: honest at 0 of 2 or 10 of 10, where s -/+ z se is 0 .. 0 or 1 .. 1.
  const double z2 = kZ95 * kZ95;
  const double centre = (s + z2 / (2 * n)) / (1 + z2 / n);
  const double half = kZ95 / (1 + z2 / n) * std::sqrt(s * (1 - s) / n + z2 / (4 * n * n));
  m.score_low = std::max(0.0, centre - half);
  m.score_high = std::min(1.0, centre + half);
  m.elo_low = elo_of_score(m.score_low);
  m.elo_high = elo_of_score(m.score_high);
  m.passed = m.win_rate >= kPassWinRate;
  return m;
}

}  // namespace manaka::match
