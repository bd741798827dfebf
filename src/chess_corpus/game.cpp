#include "chess_corpus/game.h"

#include <algorithm>

#include "chess/encode.h"
#include "chess_shard/chess_shard.h"
#include "chess/move_index.h"
#include "chess/movegen.h"
#include "core/splitmix64.h"
#include "core/uniform.h"

namespace manaka::chess_corpus {

namespace {

constexpr uint64_t kGameStream = 0xC0FFEE5EED5ull;

std::string position_command(const chess::Game& game) {
  std::string cmd = "startpos";
  if (!game.moves().empty()) {
    cmd += " moves";
    for (chess::Move m : game.moves()) cmd += " " + m.to_uci();
  }
  return cmd;
}

}  // namespace

int16_t shard_score(const engine::Score& score) {
  if (!score.is_mate()) return int16_t(std::clamp<int>(score.value, -SCORE_CP_LIMIT, SCORE_CP_LIMIT));
  const int sign = score.value < 0 ? -1 : 1;
  const int plies = std::abs(score.value);
  const int magnitude =
      score.mate_distance_known ? std::max<int>(SCORE_MATE - plies, SCORE_MATE_BOUND) : SCORE_MATE_BOUND;
  return int16_t(sign * magnitude);
}

uint64_t game_seed(uint64_t run_seed, uint64_t index) {
  SplitMix64 mix(run_seed ^ kGameStream);
  return SplitMix64(mix.next() + index).next();
}

Result<PlayedGame> play_game(engine::Engine& engine, const engine::SearchLimit& limit, int opening_plies,
                             uint64_t run_seed, uint64_t index) {
  PlayedGame g;
  g.index = index;
  g.start = chess::Position::startpos();
  chess::Game game(g.start);
  SplitMix64 rng(game_seed(run_seed, index));
  std::vector<chess::Color> movers;
  chess::MoveList legal;
  std::optional<chess::Outcome> outcome;
  // The random opening: uniform over the legal moves; a game it ends is played again from the next draw.
  while (game.ply() < opening_plies) {
    legal.size = 0;
    chess::generate_legal(game.position(), legal);
    game.push(legal.moves[uniform_below(rng, uint64_t(legal.size))]);
    if (game.outcome(true)) {
      game = chess::Game(g.start);  // a 4-ply mate (fool's mate) is no opening
    }
  }
  g.opening_plies = game.ply();
  MANAKA_RETURN_NOT_OK(engine.new_game());
  while (!(outcome = game.outcome(true))) {
    const chess::Position& pos = game.position();
    MANAKA_ASSIGN_OR_RETURN(engine::SearchResult found, engine.search(position_command(game), limit));
    g.engine_seconds += found.seconds;
    auto move = chess::Move::parse_uci(found.bestmove);
    if (!found.has_move() || !move.ok() || !pos.is_legal(*move)) {
      return Status::engine(engine.name() + " (" + engine.path() + "): game " + std::to_string(index) + ", ply " +
                            std::to_string(game.ply()) + ": bestmove \"" + found.bestmove +
                            "\" is not a legal move in " + pos.fen());
    }
    const size_t at = g.states.size();
    g.states.resize(at + chess::PLANES_SIZE);
    chess::encode_planes(pos, game.is_repetition(2), g.states.data() + at);
    g.move_indices.push_back(int32_t(chess::move_index(pos, *move)));
    g.scores.push_back(found.lines.empty() ? int16_t(0) : shard_score(found.lines[0].score));
    movers.push_back(pos.side_to_move());
    game.push(*move);
  }
  g.outcome = *outcome;
  g.moves = game.moves();
  g.outcomes.reserve(movers.size());
  for (chess::Color c : movers) g.outcomes.push_back(int8_t(!outcome->winner ? 0 : *outcome->winner == c ? 1 : -1));
  return g;
}

}  // namespace manaka::chess_corpus
