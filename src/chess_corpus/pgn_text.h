// A corpus game as PGN text (--pgn, through chess/pgn_text.h): the Seven Tag Roster, Opening "random,
// N plies" and a comment where the random opening ends, the moves in SAN,
// the result, and how the game ended (ManakaTermination: python-chess's
// Termination name). python-chess and `manaka vpd build` read it.
#pragma once

#include <string>

#include "chess_corpus/game.h"

namespace manaka::chess_corpus {

std::string game_pgn(const PlayedGame& game, const std::string& engine_name);

}  // namespace manaka::chess_corpus
