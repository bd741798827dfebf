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

Status check_options(const MatchOptions& o, bool engine) {
  if (o.games < 1 || o.games > kMaxGames) return Status::usage(range_error("games", o.games, 1, kMaxGames));
  if (o.opening_plies < 0 || o.opening_plies > kMaxOpeningPlies)
    return Status::usage(range_error("opening_plies", o.opening_plies, 0, kMaxOpeningPlies));
  if (!engine) return {};
  if (o.elo < kMinElo || o.elo > kMaxElo) return Status::usage(range_error("elo", o.elo, kMinElo, kMaxElo));
  if (o.limit.depth <= 0 && o.limit.nodes == 0 && o.limit.movetime_ms <= 0)
    return Status::usage("the engine's limit sets neither depth, nodes nor movetime");
  if (o.engine_path.empty()) return Status::usage("no engine path");
  return {};
}

double MatchGame::player_score() const {
  if (!outcome.winner) return 0.5;
  return *outcome.winner == player ? 1.0 : 0.0;
}

Opponent engine_opponent(engine::Engine& engine, const MatchOptions& options) {
  Opponent o;
  o.name = engine.name() + " (UCI_Elo " + std::to_string(options.elo) + ")";
  o.new_game = [&engine] { return engine.new_game(); };
  o.move = [&engine, limit = options.limit](const chess::Game& game) -> Result<chess::Move> {
    const chess::Position& pos = game.position();
    MANAKA_ASSIGN_OR_RETURN(auto found, engine.search(position_spec(game), limit));
    auto parsed = found.has_move() ? chess::Move::parse_uci(found.bestmove)
                                   : Result<chess::Move>(Status::engine("no move"));
    if (!parsed.ok() || !pos.is_legal(*parsed))
      return Status::engine("engine " + engine.name() + " (" + engine.path() + ") answered bestmove " +
                            found.bestmove + ", not a legal move in " + pos.fen());
    return *parsed;
  };
  return o;
}

Result<MatchGame> play_game(const Player& player, const Opponent& opponent, const MatchOptions& options, int index) {
  MatchGame g;
  g.index = index;
  g.player = index % 2 == 0 ? chess::WHITE : chess::BLACK;
  MANAKA_ASSIGN_OR_RETURN(auto opening, chess::random_opening(options.seed, uint64_t(g.pair()), options.opening_plies));
  g.opening_plies = int(opening.size());
  chess::Game game(g.start);
  for (chess::Move m : opening) game.push(m);
  if (opponent.new_game) MANAKA_RETURN_NOT_OK(opponent.new_game());
  for (;;) {
    if (auto outcome = game.outcome(true)) {
      g.outcome = *outcome;
      break;
    }
    const chess::Position& pos = game.position();
    const bool mine = pos.side_to_move() == g.player;
    const auto t = Clock::now();
    Result<chess::Move> r = (mine ? player : opponent.move)(game);
    (mine ? g.player_seconds : g.engine_seconds) += seconds_since(t);
    if (!r.ok()) return std::move(r).take_status().with_context(where(index, game));
    if (!pos.is_legal(*r))
      return Status::invalid(where(index, game) + (mine ? "the player's" : "the opponent's") + " move " +
                             r->to_uci() + " is illegal in " + pos.fen());
    game.push(*r);
  }
  g.moves = game.moves();
  return g;
}

std::string match_game_pgn(const MatchGame& g, const MatchOptions& options, const std::string& opponent_name) {
  const bool white = g.player == chess::WHITE;
  const chess::PgnTags tags = chess::random_opening_tags(options.event, g.index + 1,
                                                         white ? options.player_name : opponent_name,
                                                         white ? opponent_name : options.player_name, g.outcome,
                                                         g.opening_plies);
  return chess::game_pgn(g.start, g.moves, tags, g.outcome.result(), chess::opening_comment(g.opening_plies));
}

namespace {

// The PGN file, when one is asked for: refused when it exists (unless
// overwrite) or names an input; it appears when the match is complete.
Result<std::optional<AtomicFile>> open_pgn(const std::string& path, const std::vector<std::string>& inputs,
                                           bool overwrite) {
  std::optional<AtomicFile> pgn;
  if (path.empty()) return pgn;
  MANAKA_RETURN_NOT_OK(check_output(path, inputs, overwrite));
  MANAKA_ASSIGN_OR_RETURN(auto file, AtomicFile::create(path));
  pgn.emplace(std::move(file));
  return pgn;
}

Status play_all(const MatchOptions& options, const Player& player, const Opponent& opponent, const OnGame& on_game,
                std::optional<AtomicFile>& pgn, MatchReport& report) {
  for (int i = 0; i < options.games; ++i) {
    MANAKA_ASSIGN_OR_RETURN(auto g, play_game(player, opponent, options, i));
    const std::string text = match_game_pgn(g, options, opponent.name);
    if (pgn) MANAKA_RETURN_NOT_OK(pgn->write_all(text.data(), text.size()));
    if (on_game) MANAKA_RETURN_NOT_OK(on_game(g, text));
    report.games.push_back(std::move(g));
  }
  if (pgn) MANAKA_RETURN_NOT_OK(pgn->commit());
  return {};
}

}  // namespace

Result<MatchReport> play_match(const MatchOptions& options, const Player& player, const OnGame& on_game,
                               const std::string& pgn_path, bool overwrite) {
  MANAKA_RETURN_NOT_OK(check_options(options));
  MANAKA_ASSIGN_OR_RETURN(auto pgn, open_pgn(pgn_path, {options.engine_path}, overwrite));
  engine::EngineOptions eo;
  eo.path = options.engine_path;
  eo.protocol = engine::Protocol::Uci;
  eo.elo = options.elo;
  eo.options = options.engine_options;
  MANAKA_ASSIGN_OR_RETURN(auto eng, engine::Engine::start(eo));
  MatchReport report;
  report.engine_name = eng->name();
  MANAKA_RETURN_NOT_OK(play_all(options, player, engine_opponent(*eng, options), on_game, pgn, report));
  return report;
}

Result<MatchReport> play_head_to_head(const MatchOptions& options, const Player& player, const Opponent& opponent,
                                      const OnGame& on_game, const std::string& pgn_path, bool overwrite) {
  MANAKA_RETURN_NOT_OK(check_options(options, false));
  if (!opponent.move) return Status::usage("play_head_to_head: no opponent");
  MANAKA_ASSIGN_OR_RETURN(auto pgn, open_pgn(pgn_path, {}, overwrite));
  MatchReport report;
  report.engine_name = opponent.name;
  MANAKA_RETURN_NOT_OK(play_all(options, player, opponent, on_game, pgn, report));
  return report;
}

}  // namespace manaka::match
