// Shogi games between a player (a network through the search) and a USI
// engine (fairy-stockfish) at a limited strength: match.h's rules over
// shogi's. Games come in pairs from one random opening (shogi/opening.h,
// drawn from (seed, pair)), the player Black (sente) in the even game and
// White in the odd one. A game ends as shogi::Game::outcome(max_plies) says:
// no legal move (the side to move loses), a fourfold repetition (a draw, or
// a loss for the perpetual checker), max_plies (a draw). Each game is a CSA
// record (shogi/csa.h), written to `<csa_dir>/<n>.csa` (n from 1) when a
// directory is given: each file appears complete, and the directory only
// when the match is (a set of records is whole or absent).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/status.h"
#include "engine/engine.h"
#include "shogi/game.h"
#include "shogi/move.h"

namespace manaka::match {

using ShogiPlayer = std::function<Result<shogi::Move>(const shogi::Game&)>;

struct ShogiMatchOptions {
  std::string engine_path = "/usr/games/fairy-stockfish";
  std::optional<int> elo;          // UCI_LimitStrength and UCI_Elo, when set
  engine::SearchLimit limit{.movetime_ms = 50};
  std::vector<std::pair<std::string, std::string>> engine_options;  // Skill Level, Threads, ...
  int opening_plies = 4;
  uint64_t seed = 0;
  int games = 100;
  int max_plies = 320;             // a draw at this ply
  std::string player_name = "manaka";
  std::string event = "manaka evaluation";
};

Status check_shogi_options(const ShogiMatchOptions& options);

struct ShogiMatchGame {
  int index = 0;                    // from 0
  shogi::Color player = shogi::BLACK;  // Black at even index
  std::vector<shogi::Move> moves;   // the opening's first
  int opening_plies = 0;
  shogi::Outcome outcome{};
  double engine_seconds = 0.0, player_seconds = 0.0;
  std::string csa;                  // the record

  int pair() const { return index / 2; }
  double player_score() const;      // 1, 0.5 or 0
};

struct ShogiMatchReport {
  std::vector<ShogiMatchGame> games;
  std::string engine_name;
};

// Starts the engine, plays the games in order, calls on_game after each (its
// error ends the match). csa_dir: see the top of this file; an existing
// directory is refused unless overwrite.
Result<ShogiMatchReport> play_shogi_match(const ShogiMatchOptions& options, const ShogiPlayer& player,
                                          const std::function<Status(const ShogiMatchGame&)>& on_game,
                                          const std::string& csa_dir = "", bool overwrite = false);

}  // namespace manaka::match
