#include "corpus/pgn_text.h"

#include "chess/pgn_text.h"

namespace manaka::corpus {

std::string game_pgn(const PlayedGame& g, const std::string& engine_name) {
  const chess::PgnTags tags = {
      {"Event", "manaka chess corpus"},
      {"Site", "?"},
      {"Date", "????.??.??"},
      {"Round", std::to_string(g.index + 1)},
      {"White", engine_name},
      {"Black", engine_name},
      {"Result", g.outcome.result()},
      {"Opening", "random, " + std::to_string(g.opening_plies) + " plies"},
      {"ManakaTermination", chess::termination_name(g.outcome.termination)},
  };
  chess::PgnComments comments;
  if (g.opening_plies > 0) comments.push_back({g.opening_plies, "random opening ends"});
  return chess::game_pgn(g.start, g.moves, tags, g.outcome.result(), comments);
}

}  // namespace manaka::corpus
