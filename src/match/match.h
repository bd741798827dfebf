// Games between a player (a network's policy, a search, a script) and a UCI
// engine at a limited strength, the evaluation of docs/match.md; or between
// two players (a network against another: play_head_to_head).
//
// Games are played in pairs, as engine-testing tools (cutechess, fastchess)
// do: both games of pair p start from the same random opening, drawn from
// (seed, p) alone, and the player has White in the first game of the pair
// (even index) and Black in the second (odd index). So a run's games are all
// different, yet each opening is played from both sides.
//
// A game: the opening plies (uniformly random legal moves, redrawn in the
// rare case that they end the game), then the player and the engine move in
// turn until chess::Game::outcome(claim_draw = true) decides it, exactly as
// python-chess's Board.outcome(claim_draw=True) and as the chess corpus ends
// its games. The engine gets ucinewgame before each game and the position as
// "startpos moves ..." before each move.
//
// The player is a callback given the game so far, with the player to move.
// A move it returns that is not legal there is refused (Status::invalid
// naming the move, the game, the ply and the FEN): it is a bug in the player,
// not a lost game. An error it returns ends the match with that error. The
// opponent is the same kind of callback; an engine is one (engine_opponent).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "chess/game.h"
#include "chess/move.h"
#include "chess/opening.h"
#include "chess/termination.h"
#include "core/status.h"
#include "engine/engine.h"

namespace manaka::match {

// The player's move in the game's current position (the player to move).
using Player = std::function<Result<chess::Move>(const chess::Game&)>;

// The range Debian's stockfish 15.1 advertises for UCI_Elo; the engine's own
// advertised range is checked too (engine::Engine::start).
inline constexpr int kMinElo = 1350, kMaxElo = 2850;
inline constexpr int kDefaultElo = 1500;           // the spec's evaluation
inline constexpr int kMaxOpeningPlies = chess::kMaxOpeningPlies;
inline constexpr int kDefaultOpeningPlies = 4;
inline constexpr int kMaxGames = 1'000'000;

struct MatchOptions {
  std::string engine_path = "/usr/games/stockfish";
  int elo = kDefaultElo;                    // UCI_LimitStrength true, UCI_Elo elo
  engine::SearchLimit limit{.movetime_ms = 100};
  // Further engine options in order ({"Threads", "1"}, {"Hash", "16"}).
  std::vector<std::pair<std::string, std::string>> engine_options;
  int opening_plies = kDefaultOpeningPlies;
  uint64_t seed = 0;
  int games = 100;
  std::string player_name = "manaka";
  std::string event = "manaka evaluation";
};

// Refuses what no match can be played with, naming the option and the range:
// games 1..kMaxGames, opening_plies 0..kMaxOpeningPlies; for an engine also
// elo kMinElo..kMaxElo and a limit with something set.
Status check_options(const MatchOptions& options, bool engine = true);

// The side the player meets: its moves, what it does before each game, and
// its name in the PGN.
struct Opponent {
  Player move;
  std::function<Status()> new_game;  // may be empty
  std::string name;
};

// The engine as an opponent: ucinewgame before each game, "startpos moves
// ..." and options.limit before each move; a bestmove that is not legal is an
// engine error. Named "<engine's name> (UCI_Elo N)".
Opponent engine_opponent(engine::Engine& engine, const MatchOptions& options);

struct MatchGame {
  int index = 0;                   // from 0; pair index / 2
  chess::Color player = chess::WHITE;  // the player's colour: White at even index
  chess::Position start = chess::Position::startpos();
  std::vector<chess::Move> moves;  // the opening plies first
  int opening_plies = 0;
  chess::Outcome outcome{};
  double engine_seconds = 0.0;     // waiting for the opponent's moves (the engine's)
  double player_seconds = 0.0;     // inside the player callback

  int pair() const { return index / 2; }
  // 1, 0.5 or 0: the game's score for the player.
  double player_score() const;
};

// The opening of pair p is chess::random_opening(seed, p, opening_plies).

// Plays game `index` (see the top of this file) against the opponent
// (options' engine_path, elo, engine_options are not looked at here).
Result<MatchGame> play_game(const Player& player, const Opponent& opponent, const MatchOptions& options, int index);

// The game's PGN (chess/pgn_text.h): Event, Site, Date, Round (index + 1),
// White and Black (the player's name; the opponent's), Result, Opening
// "random, N plies", ManakaTermination (python-chess's Termination name, as
// the chess corpus's PGN has it), and a comment where the random opening ends.
std::string match_game_pgn(const MatchGame& game, const MatchOptions& options, const std::string& opponent_name);

// Starts the engine (elo, options), plays options.games games in order and
// calls on_game after each (its error ends the match). When pgn_path is not
// empty, every game's PGN goes to it: the file appears when the match is
// complete (core/file.h's AtomicFile); an existing file is refused unless
// overwrite.
struct MatchReport {
  std::vector<MatchGame> games;
  std::string engine_name;  // the engine's own name; play_head_to_head: the opponent's
};
using OnGame = std::function<Status(const MatchGame&, const std::string& pgn)>;
Result<MatchReport> play_match(const MatchOptions& options, const Player& player, const OnGame& on_game,
                               const std::string& pgn_path = "", bool overwrite = false);

// The same games, pairs and PGN against a second player: a network against
// another. options' engine fields and limit are not looked at.
Result<MatchReport> play_head_to_head(const MatchOptions& options, const Player& player, const Opponent& opponent,
                                      const OnGame& on_game, const std::string& pgn_path = "",
                                      bool overwrite = false);

}  // namespace manaka::match
