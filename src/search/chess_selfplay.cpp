#include "search/chess_selfplay.h"

#include "chess/opening.h"

namespace manaka::search {

Status check_options(const ChessSelfPlayOptions& o) {
  MANAKA_RETURN_NOT_OK(check_options(o.search));
  if (o.games < 1 || o.games > kMaxSelfPlayGames)
    return Status::usage("self-play games = " + std::to_string(o.games) + ": must be 1..1000000");
  if (o.max_plies < 1 || o.max_plies > kMaxSelfPlayPlies)
    return Status::usage("self-play max_plies = " + std::to_string(o.max_plies) + ": must be 1..10000");
  if (o.opening_plies < 0 || o.opening_plies > chess::kMaxOpeningPlies)
    return Status::usage("self-play opening_plies = " + std::to_string(o.opening_plies) + ": must be 0..40");
  if (o.first_game > kMaxFirstGame)
    return Status::usage("self-play first_game = " + std::to_string(o.first_game) + ": must be below 2^48 - 10^6");
  return Status();
}

Result<ChessSelfPlayData> chess_self_play(const ChessSelfPlayOptions& o, const Network& network, const Poll& poll,
                                          SelfPlayCounters* counters) {
  MANAKA_RETURN_NOT_OK(check_options(o));
  auto start = [&](uint64_t index) -> Result<chess::Game> {
    chess::Game game;
    MANAKA_ASSIGN_OR_RETURN(auto opening, chess::random_opening(o.search.seed, index, o.opening_plies));
    for (chess::Move m : opening) game.push(m);
    return game;
  };
  EvaluatorStats stats;
  MANAKA_ASSIGN_OR_RETURN(auto games, self_play<ChessRules>(o.games, o.max_plies, o.search, start, network, poll,
                                                           counters, &stats, o.first_game));
  ChessSelfPlayData data = chess_training_data(games);
  data.stats = stats;
  return data;
}

ChessSelfPlayData chess_training_data(const std::vector<PlayedGame<ChessRules>>& games) {
  ChessSelfPlayData d;
  d.visit_offsets.push_back(0);
  d.game_offsets.push_back(0);
  for (const auto& g : games) {
    chess::Game game = g.start;
    std::string opening;
    for (chess::Move m : g.start.moves()) opening += (opening.empty() ? "" : " ") + m.to_uci();
    d.openings.push_back(opening);
    const size_t first = d.move_indices.size();
    for (const auto& ply : g.plies) {
      const chess::Position& pos = game.position();
      const size_t at = d.states.size();
      d.states.resize(at + chess::PLANES_SIZE);
      chess::encode_planes(pos, game.is_repetition(2), d.states.data() + at);
      d.move_indices.push_back(chess::move_index(pos, ply.move));
      for (const auto& c : ply.children) {
        if (c.visits <= 0) continue;
        d.visit_indices.push_back(chess::move_index(pos, c.move));
        d.visit_counts.push_back(c.visits);
      }
      d.visit_offsets.push_back(int64_t(d.visit_indices.size()));
      d.root_values.push_back(ply.value);
      // z is filled in below, once the result is known; the mover is kept meanwhile.
      d.outcomes.push_back(pos.side_to_move() == chess::WHITE ? 1 : -1);
      game.push(ply.move);
    }
    const std::optional<chess::Color> winner = g.outcome ? g.outcome->winner : std::nullopt;
    for (size_t i = first; i < d.outcomes.size(); ++i) {
      const chess::Color mover = d.outcomes[i] == 1 ? chess::WHITE : chess::BLACK;
      d.outcomes[i] = !winner ? 0 : (*winner == mover ? 1 : -1);
    }
    d.game_offsets.push_back(int64_t(d.move_indices.size()));
    d.results.push_back(g.outcome ? g.outcome->result() : "1/2-1/2");
    d.terminations.push_back(g.outcome ? chess::termination_name(g.outcome->termination) : "MAX_PLIES");
  }
  return d;
}

}  // namespace manaka::search
