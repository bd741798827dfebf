#include "match/shogi_match.h"

#include <chrono>
#include <string>
#include <utility>

#include "core/file.h"
#include "core/output.h"
#include "core/temporary.h"
#include "shogi/csa.h"
#include "shogi/opening.h"

namespace manaka::match {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

Status out_of_range(const char* name, int64_t value, int64_t lo, int64_t hi) {
  return Status::usage(std::string(name) + ": " + std::to_string(value) + " is out of range " + std::to_string(lo) +
                       ".." + std::to_string(hi));
}

// "startpos moves 7g7f 3c3d ..." for the engine.
std::string position_spec(const shogi::Game& game) {
  std::string spec = "startpos";
  if (!game.moves().empty()) spec += " moves";
  for (shogi::Move m : game.moves()) spec += ' ' + m.to_usi();
  return spec;
}

std::string where(int index, const shogi::Game& game) {
  return "game " + std::to_string(index + 1) + ", ply " + std::to_string(game.ply() + 1) + ": ";
}

Result<ShogiMatchGame> play_game(engine::Engine& engine, const ShogiPlayer& player, const ShogiMatchOptions& o,
                                 int index, const std::string& engine_name) {
  ShogiMatchGame g;
  g.index = index;
  g.player = index % 2 == 0 ? shogi::BLACK : shogi::WHITE;
  MANAKA_ASSIGN_OR_RETURN(auto opening, shogi::random_opening(o.seed, uint64_t(g.pair()), o.opening_plies));
  g.opening_plies = int(opening.size());
  shogi::Game game;
  for (shogi::Move m : opening) game.push(m);
  MANAKA_RETURN_NOT_OK(engine.new_game());
  for (;;) {
    if (auto outcome = game.outcome(o.max_plies)) {
      g.outcome = *outcome;
      break;
    }
    const shogi::Position& pos = game.position();
    shogi::Move m;
    if (pos.side_to_move() == g.player) {
      const auto t = Clock::now();
      Result<shogi::Move> r = player(game);
      g.player_seconds += seconds_since(t);
      if (!r.ok()) return std::move(r).take_status().with_context(where(index, game));
      m = *r;
      if (!pos.is_legal(m))
        return Status::invalid(where(index, game) + "the player's move " + m.to_usi() + " is illegal in " +
                               pos.sfen());
    } else {
      MANAKA_ASSIGN_OR_RETURN(auto found, engine.search(position_spec(game), o.limit));
      g.engine_seconds += found.seconds;
      auto parsed = found.has_move() ? shogi::Move::parse_usi(found.bestmove)
                                     : Result<shogi::Move>(Status::engine("no move"));
      if (!parsed.ok() || !pos.is_legal(*parsed))
        return Status::engine(where(index, game) + "engine " + engine.name() + " (" + engine.path() +
                              ") answered bestmove " + found.bestmove + ", not a legal move in " + pos.sfen());
      m = *parsed;
    }
    game.push(m);
  }
  g.moves = game.moves();
  std::string engine_label = engine_name;
  if (o.elo) engine_label += " (UCI_Elo " + std::to_string(*o.elo) + ")";
  const bool black = g.player == shogi::BLACK;
  shogi::CsaRecord r{black ? o.player_name : engine_label, black ? engine_label : o.player_name, o.event,
                     {"game " + std::to_string(index + 1) + ", opening: " + std::to_string(g.opening_plies) +
                      " random plies (pair " + std::to_string(g.pair() + 1) + ")"},
                     shogi::Position::startpos(), g.moves, g.outcome};
  MANAKA_ASSIGN_OR_RETURN(g.csa, shogi::csa_text(r));
  return g;
}

}  // namespace

Status check_shogi_options(const ShogiMatchOptions& o) {
  if (o.games < 1 || o.games > 1'000'000) return out_of_range("games", o.games, 1, 1'000'000);
  if (o.opening_plies < 0 || o.opening_plies > shogi::kMaxOpeningPlies)
    return out_of_range("opening_plies", o.opening_plies, 0, shogi::kMaxOpeningPlies);
  if (o.max_plies < 1 || o.max_plies > 65535) return out_of_range("max_plies", o.max_plies, 1, 65535);
  if (o.limit.depth <= 0 && o.limit.nodes == 0 && o.limit.movetime_ms <= 0)
    return Status::usage("the engine's limit sets neither depth, nodes nor movetime");
  if (o.engine_path.empty()) return Status::usage("no engine path");
  return {};
}

double ShogiMatchGame::player_score() const {
  if (!outcome.winner) return 0.5;
  return *outcome.winner == player ? 1.0 : 0.0;
}

Result<ShogiMatchReport> play_shogi_match(const ShogiMatchOptions& options, const ShogiPlayer& player,
                                          const std::function<Status(const ShogiMatchGame&)>& on_game,
                                          const std::string& csa_dir, bool overwrite) {
  MANAKA_RETURN_NOT_OK(check_shogi_options(options));
  std::optional<TempDir> dir;
  if (!csa_dir.empty()) {
    MANAKA_RETURN_NOT_OK(check_output_dir(csa_dir, {options.engine_path}, overwrite, "1.csa"));
    MANAKA_ASSIGN_OR_RETURN(auto made, TempDir::for_output(csa_dir));
    dir.emplace(std::move(made));
  }
  engine::EngineOptions eo;
  eo.path = options.engine_path;
  eo.protocol = engine::Protocol::Usi;
  eo.elo = options.elo;
  eo.options = options.engine_options;
  MANAKA_ASSIGN_OR_RETURN(auto eng, engine::Engine::start(eo));

  ShogiMatchReport report;
  report.engine_name = eng->name();
  for (int i = 0; i < options.games; ++i) {
    MANAKA_ASSIGN_OR_RETURN(auto g, play_game(*eng, player, options, i, report.engine_name));
    if (dir) MANAKA_RETURN_NOT_OK(write_file(dir->path() + "/" + std::to_string(i + 1) + ".csa", g.csa));
    if (on_game) MANAKA_RETURN_NOT_OK(on_game(g));
    report.games.push_back(std::move(g));
  }
  if (dir) MANAKA_RETURN_NOT_OK(dir->commit(overwrite));
  return report;
}

}  // namespace manaka::match
