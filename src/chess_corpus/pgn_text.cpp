#include "chess_corpus/pgn_text.h"

#include "chess/pgn_text.h"

namespace manaka::chess_corpus {

std::string game_pgn(const PlayedGame& g, const std::string& engine_name) {
  const chess::PgnTags tags = chess::random_opening_tags("manaka chess corpus", g.index + 1, engine_name, engine_name,
                                                         g.outcome, g.opening_plies);
  return chess::game_pgn(g.start, g.moves, tags, g.outcome.result(), chess::opening_comment(g.opening_plies));
}

}  // namespace manaka::chess_corpus
