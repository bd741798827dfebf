#include "match/match.h"

#include <chrono>
#include <string>
#include <utility>

#include "chess/movegen.h"
#include "chess/opening.h"
#include "chess/pgn_text.h"
#include "core/file.h"
#include "core/output.h"

namespace manaka::match {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::string range_error(const char* name, int64_t value, int64_t lo, int64_t hi) {
  return std::string(name) + ": " + std::to_string(value) + " is out of range " + std::to_string(lo) + ".." +
         std::to_string(hi);
}

// "startpos moves e2e4 e7e5 ..." for the engine.
std::string position_spec(const chess::Game& game) {
  std::string spec = "startpos";
  if (!game.moves().empty()) spec += " moves";
  for (chess::Move m : game.moves()) spec += ' ' + m.to_uci();
  return spec;
}

std::string where(int index, const chess::Game& game) {
  return "game " + std::to_string(index + 1) + ", ply " + std::to_string(game.ply() + 1) + ": ";
}

}  // namespace

Status check_options(const MatchOptions& o) {
  if (o.games < 1 || o.games > kMaxGames) return Status::usage(range_error("games", o.games, 1, kMaxGames));
  if (o.elo < kMinElo || o.elo > kMaxElo) return Status::usage(range_error("elo", o.elo, kMinElo, kMaxElo));
  if (o.opening_plies < 0 || o.opening_plies > kMaxOpeningPlies)
    return Status::usage(range_error("opening_plies", o.opening_plies, 0, kMaxOpeningPlies));
  if (o.limit.depth <= 0 && o.limit.nodes == 0 && o.limit.movetime_ms <= 0)
    return Status::usage("the engine's limit sets neither depth, nodes nor movetime");
  if (o.engine_path.empty()) return Status::usage("no engine path");
  return {};
}

double MatchGame::player_score() const {
  if (!outcome.winner) return 0.5;
  return *outcome.winner == player ? 1.0 : 0.0;
}

Result<MatchGame> play_game(engine::Engine& engine, const Player& player, const MatchOptions& options, int index) {
  MatchGame g;
  g.index = index;
  g.player = index % 2 == 0 ? chess::WHITE : chess::BLACK;
  MANAKA_ASSIGN_OR_RETURN(auto opening, chess::random_opening(options.seed, uint64_t(g.pair()), options.opening_plies));
  g.opening_plies = int(opening.size());
  chess::Game game(g.start);
  for (chess::Move m : opening) game.push(m);
  MANAKA_RETURN_NOT_OK(engine.new_game());
  for (;;) {
    if (auto outcome = game.outcome(true)) {
      g.outcome = *outcome;
      break;
    }
    const chess::Position& pos = game.position();
    chess::Move m;
    if (pos.side_to_move() == g.player) {
      const auto t = Clock::now();
      Result<chess::Move> r = player(game);
      g.player_seconds += seconds_since(t);
      if (!r.ok()) return std::move(r).take_status().with_context(where(index, game));
      m = *r;
      if (!pos.is_legal(m))
        return Status::invalid(where(index, game) + "the player's move " + m.to_uci() + " is illegal in " +
                               pos.fen());
    } else {
      MANAKA_ASSIGN_OR_RETURN(auto found, engine.search(position_spec(game), options.limit));
      g.engine_seconds += found.seconds;
      auto parsed = found.has_move() ? chess::Move::parse_uci(found.bestmove)
                                     : Result<chess::Move>(Status::engine("no move"));
      if (!parsed.ok() || !pos.is_legal(*parsed))
        return Status::engine(where(index, game) + "engine " + engine.name() + " (" + engine.path() +
                              ") answered bestmove " + found.bestmove + ", not a legal move in " + pos.fen());
      m = *parsed;
    }
    game.push(m);
  }
  g.moves = game.moves();
  return g;
}

std::string match_game_pgn(const MatchGame& g, const MatchOptions& options, const std::string& engine_name) {
  const std::string engine = engine_name + " (UCI_Elo " + std::to_string(options.elo) + ")";
  const bool white = g.player == chess::WHITE;
  const chess::PgnTags tags = chess::random_opening_tags(options.event, g.index + 1,
                                                         white ? options.player_name : engine,
                                                         white ? engine : options.player_name, g.outcome,
                                                         g.opening_plies);
  return chess::game_pgn(g.start, g.moves, tags, g.outcome.result(), chess::opening_comment(g.opening_plies));
}

Result<MatchReport> play_match(const MatchOptions& options, const Player& player,
                               const std::function<Status(const MatchGame&, const std::string& pgn)>& on_game,
                               const std::string& pgn_path, bool overwrite) {
  MANAKA_RETURN_NOT_OK(check_options(options));
  std::optional<AtomicFile> pgn;
  if (!pgn_path.empty()) {
    MANAKA_RETURN_NOT_OK(check_output(pgn_path, {options.engine_path}, overwrite));
    MANAKA_ASSIGN_OR_RETURN(auto file, AtomicFile::create(pgn_path));
    pgn.emplace(std::move(file));
  }
  engine::EngineOptions eo;
  eo.path = options.engine_path;
  eo.protocol = engine::Protocol::Uci;
  eo.elo = options.elo;
  eo.options = options.engine_options;
  MANAKA_ASSIGN_OR_RETURN(auto eng, engine::Engine::start(eo));

  MatchReport report;
  report.engine_name = eng->name();
  for (int i = 0; i < options.games; ++i) {
    MANAKA_ASSIGN_OR_RETURN(auto g, play_game(*eng, player, options, i));
    const std::string text = match_game_pgn(g, options, report.engine_name);
    if (pgn) MANAKA_RETURN_NOT_OK(pgn->write_all(text.data(), text.size()));
    if (on_game) MANAKA_RETURN_NOT_OK(on_game(g, text));
    report.games.push_back(std::move(g));
  }
  if (pgn) MANAKA_RETURN_NOT_OK(pgn->commit());
  return report;
}

}  // namespace manaka::match
