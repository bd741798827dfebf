// A match's score and the Elo difference it implies, with a 95% interval, as
// engine-testing tools report them (cutechess-cli, fastchess):
//
//   score s   = (W + D/2) / N, the player's mean points per game
//   Elo       = -400 log10(1/s - 1)
//   interval  = Wilson's score interval of s over N games (z = 1.959964),
//               draws counted as half a win: (s + z^2/2N) / (1 + z^2/N)
//               -/+ z / (1 + z^2/N) sqrt(s (1-s) / N + z^2 / 4N^2); the Elo
//               interval is the Elo of its ends. Unlike s -/+ z se, it does
//               not shrink to nothing at 0 of 2 or 10 of 10 (0 .. 0.658 at 0
//               of 2), and treating draws as coin flips makes it, if
//               anything, wider than the trinomial spread.
//
// A score of 0 or 1 has an infinite Elo, and so has a bound at 0 or 1 (-inf
// and +inf as doubles; the Python layer prints them as n/a and writes JSON
// null). The spec's pass criterion is the win rate
// W / N (draws count nothing) of at least 0.50.
#pragma once

namespace manaka::match {

inline constexpr double kPassWinRate = 0.50;
inline constexpr double kZ95 = 1.959963984540054;  // the normal's 97.5% quantile

struct MatchScore {
  int wins = 0, draws = 0, losses = 0;
  double score = 0.0;     // (W + D/2) / N
  double win_rate = 0.0;  // W / N
  double elo = 0.0;       // -400 log10(1/score - 1)
  double score_low = 0.0, score_high = 0.0;  // the score's 95% interval, within [0, 1]
  double elo_low = 0.0, elo_high = 0.0;  // the 95% interval: the Elo of the score's
  bool passed = false;    // win_rate >= kPassWinRate

  int games() const { return wins + draws + losses; }
};

// The Elo difference a score in [0, 1] implies (+-inf at 1 and 0).
double elo_of_score(double score);
// wins, draws and losses are counts of at least 0, and at least one game.
MatchScore score_match(int wins, int draws, int losses);

}  // namespace manaka::match
