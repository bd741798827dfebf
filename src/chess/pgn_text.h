// A game as PGN text (export format, as python-chess's exporter writes it):
// the tags in the order given, SetUp and FEN tags when the game does not
// start from the initial position (and the caller gave no FEN tag), a blank
// line, the moves in SAN with move numbers ("1. e4 e5", "5... Nf6" where
// Black moves first), comments "{ ... }" after the plies they follow, the
// result token, lines of at most 79 characters, and a blank line after the
// game. python-chess and chess/pgn.h read it back.
//
// Tag values are escaped as the PGN standard asks (backslash and double
// quote preceded by a backslash); a comment's "}" is replaced by ")", since
// PGN comments have no escape.
#pragma once

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "chess/move.h"
#include "chess/position.h"
#include "chess/termination.h"

namespace manaka::chess {

using PgnTags = std::vector<std::pair<std::string, std::string>>;
// {ply, text}: the comment follows the ply-th move (1 = after the first).
using PgnComments = std::vector<std::pair<int, std::string>>;

// moves are assumed legal from start. result is "1-0", "0-1", "1/2-1/2" or
// "*"; it ends the movetext and is not added as a tag here (give a Result tag
// in tags).
std::string game_pgn(const Position& start, std::span<const Move> moves, const PgnTags& tags,
                     const std::string& result, const PgnComments& comments = {});

// The tags of a game played from a random opening (the corpus's, a match's):
// the Seven Tag Roster, Opening "random, N plies" and ManakaTermination
// (python-chess's Termination name); with opening_comment, the comment
// "random opening ends" after the opening's last ply.
PgnTags random_opening_tags(const std::string& event, uint64_t round, const std::string& white,
                            const std::string& black, const Outcome& outcome, int opening_plies);
PgnComments opening_comment(int opening_plies);

}  // namespace manaka::chess
