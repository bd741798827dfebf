// Shogi self-play into training data: games played through the search
// (search/selfplay.h over search/shogi_rules.h) written as an MPK1 stream
// through the self-play writer and, on request, as one SAZ2 chunk.
//
// The output is a directory, complete or absent: it is built under a
// temporary name and renamed when every file is written.
//   selfplay.mpk   every searched position: the 96-byte position, the ply,
//                  value_q (the root's mean value, side to move), the
//                  visited moves with their visits; value_z from the result
//   selfplay.saz   (with saz) the same games: the start position's
//                  PackedSfen, result and termination, and per position the
//                  move played, root WDL (from value_q), outcome WDL, raw
//                  WDL (the network's value of the root), the priors after
//                  and before root noise, visits, and bounds for moves that
//                  end the game
// A WDL here has no draw head behind it: win - loss = q, draw = 1 - |q|
// (sazpack/distribution.h).
//
// Results (saz_ending): a side with no legal move loses (NoLegalMoves);
// fourfold repetition is DrawByRepetition (RepetitionDraw); perpetual check
// is a win for the side that was checked, its reason named from the side to
// move in the final position (PerpetualCheckWin when that is the checked
// side, PerpetualCheckLoss when it is the checker: either can be, by where
// the cycle began); the ply limit is DrawByMaxPlies (MaxGamePlies).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/status.h"
#include "sazpack/format.h"
#include "search/evaluator.h"
#include "search/options.h"
#include "search/selfplay.h"
#include "shogi/game.h"

namespace manaka::selfplay {

struct ShogiSelfPlayOptions {
  search::SearchOptions search = [] {
    search::SearchOptions o;
    o.dirichlet_alpha = 0.15f;  // AlphaZero's for shogi
    return o;
  }();
  int games = 1;
  int max_plies = 320;          // then a draw (the teacher generator's default)
  std::string output;           // the directory
  bool saz = false;             // also selfplay.saz
  bool overwrite = false;       // replace an existing directory
  uint64_t first_game = 0;      // the games are first_game.. of a run (their seeds)
};

inline constexpr int kMaxGames = 1'000'000;
inline constexpr int kMaxPlies = 10'000;

Status check_options(const ShogiSelfPlayOptions& options);

// A game's SAZ2 result and termination reason, from how it ended (none: at
// the ply limit) and the side to move in its final position.
struct SazEnding {
  sazpack::GameResult result;
  sazpack::TerminationReason reason;
};
SazEnding saz_ending(const std::optional<shogi::Outcome>& outcome, shogi::Color to_move);

struct ShogiSelfPlaySummary {
  uint64_t games = 0, positions = 0;
  uint64_t black_wins = 0, white_wins = 0, draws = 0;
  uint64_t no_legal_move = 0, repetition = 0, perpetual_check = 0, ply_limit = 0;
  std::string mpk_path, saz_path;  // saz_path empty without saz
  search::EvaluatorStats stats;
  double seconds = 0;
};

Result<ShogiSelfPlaySummary> shogi_self_play(const ShogiSelfPlayOptions& options, const search::Network& network,
                                             const search::Poll& poll, search::SelfPlayCounters* counters = nullptr);

// "selfplay: 8 games, 1,234 positions (B 3, W 4, D 1) ... -> dir/"
std::string summary_text(const ShogiSelfPlaySummary& s);
std::string summary_json(const ShogiSelfPlaySummary& s);

}  // namespace manaka::selfplay
