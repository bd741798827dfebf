// manaka._core.match (re-exported by manaka.chess): games between a Python
// player and a UCI engine, or another player (match/match.h), and their score
// (match/score.h).
//
// play_match runs the whole match with the GIL released; the player and the
// progress callback take it only while they run. An exception either raises
// ends the match and propagates unchanged (KeyboardInterrupt included); the
// PGN file is then not written.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "chess/move_index.h"
#include "match/match.h"
#include "match/shogi_match.h"
#include "shogi/opening.h"
#include "match/score.h"
#include "python/bindings.h"
#include "python/call_python.h"
#include "python/checks.h"
#include "python/errors.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace manaka::python {
namespace {

// The longest movetime play_match takes, in seconds (an hour a move).
constexpr double kMaxMovetimeSeconds = 3600.0;

nb::dict score_dict(const match::MatchScore& s) {
  nb::dict d;
  d["wins"] = s.wins;
  d["draws"] = s.draws;
  d["losses"] = s.losses;
  d["num_games"] = s.games();
  d["score"] = s.score;
  d["win_rate"] = s.win_rate;
  d["score_low"] = s.score_low;
  d["score_high"] = s.score_high;
  d["elo_diff"] = s.elo;
  d["elo_diff_low"] = s.elo_low;
  d["elo_diff_high"] = s.elo_high;
  d["passed"] = s.passed;
  return d;
}

nb::dict game_dict(const match::MatchGame& g, const std::string& pgn) {
  nb::dict d;
  d["index"] = g.index;
  d["pair"] = g.pair();
  d["player_color"] = g.player == chess::WHITE ? "white" : "black";
  d["result"] = std::string(g.outcome.result());
  d["termination"] = std::string(chess::termination_name(g.outcome.termination));
  d["player_score"] = g.player_score();
  d["plies"] = int(g.moves.size());
  d["opening_plies"] = g.opening_plies;
  std::vector<std::string> moves;
  for (chess::Move m : g.moves) moves.push_back(m.to_uci());
  d["moves"] = moves;
  d["engine_seconds"] = g.engine_seconds;
  d["player_seconds"] = g.player_seconds;
  d["pgn"] = pgn;
  return d;
}

// The player's answer as a move: a Move, UCI text, or a policy index (an int,
// numpy ints too) naming a legal move. Legality of a Move or UCI text is the
// runner's check.
Result<chess::Move> move_of(const chess::Game& game, nb::handle answer) {
  const chess::Position& pos = game.position();
  if (nb::isinstance<chess::Move>(answer)) return nb::cast<chess::Move>(answer);
  if (nb::isinstance<nb::str>(answer)) {
    const std::string uci = nb::cast<std::string>(answer);
    auto m = chess::Move::parse_uci(uci);
    if (!m.ok())
      return Status::invalid("the player's move '" + uci + "' is not UCI in " + pos.fen() + ": " +
                             m.status().message());
    return *m;
  }
  if (nb::isinstance<nb::bool_>(answer) || !PyIndex_Check(answer.ptr()))
    return Status::usage("the player returned " + nb::cast<std::string>(nb::repr(answer)) +
                         "; expected a Move, a UCI move (str) or a policy index (int)");
  const int64_t index = int_arg(answer, "the player's policy index", 0, chess::POLICY_SIZE - 1);
  chess::Move m = chess::move_from_index(pos, int(index));
  if (m == chess::MOVE_NONE)
    return Status::invalid("the player's policy index " + std::to_string(index) + " names no legal move in " +
                           pos.fen());
  return m;
}

// A Python callable as a match::Player (Board -> Move, UCI text or policy index).
match::Player chess_player(nb::object player, const char* who, std::optional<nb::python_error>& raised) {
  if (!PyCallable_Check(player.ptr()))
    throw nb::type_error((std::string(who) + ": must be callable (Board -> Move, UCI str or policy index)").c_str());
  return [player, &raised](const chess::Game& game) -> Result<chess::Move> {
    return call_python(raised, [&]() -> Result<chess::Move> {
      nb::object answer = player(chess::Game(game));
      return move_of(game, answer);
    });
  };
}

// Runs `play` (one of match::play_match, play_head_to_head) with the GIL
// released, counting each game and calling progress(game, score); the score
// dict with every game, or the player's exception raised again.
template <class Play>
nb::dict run_chess_match(nb::object progress, std::optional<nb::python_error>& raised, Play&& play) {
  int wins = 0, draws = 0, losses = 0;
  nb::list games;  // touched only with the GIL held
  auto on_game = [&](const match::MatchGame& g, const std::string& text) -> Status {
    return call_python(raised, [&]() -> Status {
      const double points = g.player_score();
      (points == 1.0 ? wins : points == 0.0 ? losses : draws) += 1;
      nb::dict d = game_dict(g, text);
      games.append(d);
      if (progress.is_valid() && !progress.is_none()) progress(d, score_dict(match::score_match(wins, draws, losses)));
      return {};
    });
  };
  Result<match::MatchReport> report = Status::invalid("not played");
  {
    nb::gil_scoped_release release;
    report = play(match::OnGame(on_game));
  }
  if (raised) throw std::move(*raised);
  match::MatchReport r = unwrap(std::move(report));
  nb::dict d = score_dict(match::score_match(wins, draws, losses));
  d["engine"] = r.engine_name;
  d["games"] = games;
  return d;
}

void common_options(match::MatchOptions& o, nb::handle num_games, nb::handle seed, nb::handle opening_plies,
                    const std::string& player_name) {
  o.games = int(int_arg(num_games, "num_games", 1, match::kMaxGames));
  o.seed = seed_arg(seed);
  o.opening_plies = int(int_arg(opening_plies, "opening_plies", 0, match::kMaxOpeningPlies));
  o.player_name = player_name;
}

nb::dict play_match(nb::object player, const std::string& engine, nb::handle num_games, nb::handle elo,
                    nb::handle movetime, nb::handle seed, nb::handle opening_plies, std::optional<std::string> pgn,
                    bool overwrite, nb::object progress, const std::string& player_name) {
  match::MatchOptions o;
  o.engine_path = engine;
  common_options(o, num_games, seed, opening_plies, player_name);
  o.elo = int(int_arg(elo, "elo", match::kMinElo, match::kMaxElo));
  const double seconds = number_arg(movetime, "movetime", 0.0, kMaxMovetimeSeconds, true, "a number of seconds");
  o.limit = engine::SearchLimit{.movetime_ms = std::max(1, int(std::lround(seconds * 1000.0)))};
  std::optional<nb::python_error> raised;
  match::Player call_player = chess_player(player, "player", raised);
  nb::dict d = run_chess_match(progress, raised, [&](const match::OnGame& on_game) {
    return match::play_match(o, call_player, on_game, pgn.value_or(""), overwrite);
  });
  d["engine_elo"] = o.elo;
  d["movetime"] = seconds;
  d["seed"] = o.seed;
  d["opening_plies"] = o.opening_plies;
  d["pgn"] = pgn ? nb::cast(*pgn) : nb::none();
  return d;
}

// Two players, a network against another (match::play_head_to_head).
nb::dict play_head_to_head(nb::object player, nb::object opponent, nb::handle num_games, nb::handle seed,
                           nb::handle opening_plies, std::optional<std::string> pgn, bool overwrite,
                           nb::object progress, const std::string& player_name, const std::string& opponent_name) {
  match::MatchOptions o;
  common_options(o, num_games, seed, opening_plies, player_name);
  o.event = "manaka head-to-head";
  std::optional<nb::python_error> raised;
  match::Player call_player = chess_player(player, "player", raised);
  match::Opponent other{chess_player(opponent, "opponent", raised), nullptr, opponent_name};
  nb::dict d = run_chess_match(progress, raised, [&](const match::OnGame& on_game) {
    return match::play_head_to_head(o, call_player, other, on_game, pgn.value_or(""), overwrite);
  });
  d["opponent"] = opponent_name;
  d["seed"] = o.seed;
  d["opening_plies"] = o.opening_plies;
  d["pgn"] = pgn ? nb::cast(*pgn) : nb::none();
  return d;
}

nb::dict shogi_game_dict(const match::ShogiMatchGame& g) {
  nb::dict d;
  d["index"] = g.index;
  d["pair"] = g.pair();
  d["player_color"] = g.player == shogi::BLACK ? "black" : "white";
  d["termination"] = std::string(shogi::termination_name(g.outcome.termination));
  d["winner"] = g.outcome.winner ? nb::cast(std::string(*g.outcome.winner == shogi::BLACK ? "black" : "white"))
                                 : nb::none();
  d["player_score"] = g.player_score();
  d["plies"] = int(g.moves.size());
  d["opening_plies"] = g.opening_plies;
  std::vector<std::string> moves;
  for (shogi::Move m : g.moves) moves.push_back(m.to_usi());
  d["moves"] = moves;
  d["engine_seconds"] = g.engine_seconds;
  d["player_seconds"] = g.player_seconds;
  d["csa"] = g.csa;
  return d;
}

// The shogi match (match/shogi_match.h): the player is called with the game's
// moves so far (USI, from the initial position) and answers a USI move.
nb::dict play_shogi_match(nb::object player, const std::string& engine, nb::handle num_games, nb::handle elo,
                          nb::handle movetime, nb::handle seed, nb::handle opening_plies, nb::handle max_plies,
                          const std::vector<std::pair<std::string, std::string>>& engine_options,
                          std::optional<std::string> csa, bool overwrite, nb::object progress,
                          const std::string& player_name) {
  match::ShogiMatchOptions o;
  o.engine_path = engine;
  o.games = int(int_arg(num_games, "num_games", 1, match::kMaxGames));
  if (!elo.is_none()) o.elo = int(int_arg(elo, "elo", 1, 100000));  // the engine checks its own range
  const double seconds = number_arg(movetime, "movetime", 0.0, kMaxMovetimeSeconds, true, "a number of seconds");
  o.limit = engine::SearchLimit{.movetime_ms = std::max(1, int(std::lround(seconds * 1000.0)))};
  o.seed = seed_arg(seed);
  o.opening_plies = int(int_arg(opening_plies, "opening_plies", 0, shogi::kMaxOpeningPlies));
  o.max_plies = int(int_arg(max_plies, "max_plies", 1, 65535));
  o.engine_options = engine_options;
  o.player_name = player_name;
  if (!PyCallable_Check(player.ptr())) throw nb::type_error("player: must be callable (USI moves so far -> USI move)");
  std::optional<nb::python_error> raised;
  int wins = 0, draws = 0, losses = 0;
  nb::list games;
  match::ShogiPlayer call_player = [&](const shogi::Game& game) -> Result<shogi::Move> {
    return call_python(raised, [&]() -> Result<shogi::Move> {
      std::vector<std::string> moves;
      for (shogi::Move m : game.moves()) moves.push_back(m.to_usi());
      nb::object answer = player(moves);
      if (!nb::isinstance<nb::str>(answer))
        return Status::usage("the player returned " + nb::cast<std::string>(nb::repr(answer)) +
                             "; expected a USI move (str)");
      const std::string usi = nb::cast<std::string>(answer);
      auto m = shogi::Move::parse_usi(usi);
      if (!m.ok()) return Status::invalid("the player's move '" + usi + "' is not USI: " + m.status().message());
      return *m;
    });
  };
  auto on_game = [&](const match::ShogiMatchGame& g) -> Status {
    return call_python(raised, [&]() -> Status {
      const double points = g.player_score();
      (points == 1.0 ? wins : points == 0.0 ? losses : draws) += 1;
      nb::dict d = shogi_game_dict(g);
      games.append(d);
      if (progress.is_valid() && !progress.is_none()) progress(d, score_dict(match::score_match(wins, draws, losses)));
      return {};
    });
  };
  Result<match::ShogiMatchReport> report = Status::invalid("not played");
  {
    nb::gil_scoped_release release;
    report = match::play_shogi_match(o, call_player, on_game, csa.value_or(""), overwrite);
  }
  if (raised) throw std::move(*raised);
  match::ShogiMatchReport r = unwrap(std::move(report));
  nb::dict d = score_dict(match::score_match(wins, draws, losses));
  d["engine"] = r.engine_name;
  d["engine_elo"] = o.elo ? nb::cast(*o.elo) : nb::none();
  d["movetime"] = seconds;
  d["seed"] = o.seed;
  d["opening_plies"] = o.opening_plies;
  d["max_plies"] = o.max_plies;
  d["csa"] = csa ? nb::cast(*csa) : nb::none();
  d["games"] = games;
  return d;
}

}  // namespace

void bind_match(nb::module_ m) {
  m.def("play_shogi_match", &play_shogi_match, "player"_a, "engine"_a = "/usr/games/fairy-stockfish",
        "num_games"_a.none() = 100, nb::kw_only(), "elo"_a.none() = nb::none(), "movetime"_a.none() = 0.05,
        "seed"_a.none() = 0, "opening_plies"_a.none() = 4, "max_plies"_a.none() = 320,
        "engine_options"_a = std::vector<std::pair<std::string, std::string>>{}, "csa"_a = nb::none(),
        "overwrite"_a = false, "progress"_a = nb::none(), "player_name"_a = "manaka",
        "Plays num_games shogi games between player (a callable: USI moves so far -> USI move) and the USI engine "
        "(UCI_Elo elo when given, movetime seconds a move), in pairs from random openings with colours swapped, "
        "ended by manaka's shogi rules; each game's CSA record goes to csa/<n>.csa (the directory appears when the "
        "match is complete). Returns the score dict with every game.");
  m.attr("MIN_ELO") = match::kMinElo;
  m.attr("MAX_ELO") = match::kMaxElo;
  m.attr("PASS_WIN_RATE") = match::kPassWinRate;
  m.def("play_match", &play_match, "player"_a, "engine"_a = "/usr/games/stockfish", "num_games"_a.none() = 100,
        nb::kw_only(), "elo"_a.none() = match::kDefaultElo, "movetime"_a.none() = 0.1, "seed"_a.none() = 0,
        "opening_plies"_a.none() = match::kDefaultOpeningPlies, "pgn"_a = nb::none(), "overwrite"_a = false,
        "progress"_a = nb::none(), "player_name"_a = "manaka",
        "Plays num_games games between player (a callable: Board -> Move, UCI str or policy index) and the UCI engine "
        "at UCI_Elo elo, movetime seconds a move, in pairs from random openings with colours swapped; returns "
        "the score (wins, draws, losses, score and win_rate, score_low/score_high and elo_diff with their 95% "
        "intervals, passed) with every game. progress(game, score) is called after each game; pgn is written when the match is complete.");
  m.def("play_head_to_head", &play_head_to_head, "player"_a, "opponent"_a, "num_games"_a.none() = 100,
        nb::kw_only(), "seed"_a.none() = 0, "opening_plies"_a.none() = match::kDefaultOpeningPlies,
        "pgn"_a = nb::none(), "overwrite"_a = false, "progress"_a = nb::none(), "player_name"_a = "manaka",
        "opponent_name"_a = "opponent",
        "Plays num_games games between player and opponent (callables: Board -> Move, UCI str or policy index), "
        "with play_match's pairs, openings and rules: player has White in even games. Returns the score "
        "(player's view) with every game; pgn is written when the match is complete.");
  m.def("match_score", [](nb::handle wins, nb::handle draws, nb::handle losses) {
        const int w = int(int_arg(wins, "wins", 0, match::kMaxGames));
        const int d = int(int_arg(draws, "draws", 0, match::kMaxGames));
        const int l = int(int_arg(losses, "losses", 0, match::kMaxGames));
        if (w + d + l == 0) raise_if_error(Status::usage("match_score: no games (wins + draws + losses is 0)"));
        return score_dict(match::score_match(w, d, l));
      }, "wins"_a, "draws"_a, "losses"_a,
      "The score and the Elo difference with their 95% intervals (Wilson's, over games), the win rate and the pass criterion "
      "(win_rate >= 0.50) of a match's wins, draws and losses.");
}

}  // namespace manaka::python
