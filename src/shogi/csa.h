// A game as a CSA record (the CSA standard file format, version 2.2): what
// floodgate writes and cshogi's CSA parser reads.
//
//   V2.2
//   N+manaka                      names, Black (sente) first
//   N-Fairy-Stockfish 11.1
//   $EVENT:manaka evaluation      when an event is given
//   'a comment line               each comment, in order
//   PI                            the start: PI for the initial position,
//   +                             else P1..P9 rows and P+ / P- hands; then
//   +7776FU                       the side to move; a move is the mover's
//   -3334FU                       sign, from (00 for a drop), to, and the
//   %TORYO                        piece standing on `to` after the move
//
// The ending line, from shogi::Game::outcome:
//   no legal move     %TORYO: the side to move, mated, resigns
//   repetition        %SENNICHITE: a draw
//   perpetual check   %+ILLEGAL_ACTION or %-ILLEGAL_ACTION: the checking
//                     side's foul, so it loses (CSA's %OUTE_SENNICHITE
//                     states no loser, and parsers read it as a draw)
//   ply limit         %MAX_MOVES: a draw
//   none (unfinished) %CHUDAN
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "shogi/game.h"
#include "shogi/move.h"
#include "shogi/position.h"

namespace manaka::shogi {

struct CsaRecord {
  std::string black, white;  // the players' names
  std::string event;         // "" writes no $EVENT line
  std::vector<std::string> comments;
  Position start = Position::startpos();
  std::vector<Move> moves;
  std::optional<Outcome> outcome;
};

// The record's text, lines ending in "\n". A move that is not legal where
// it is played is refused, naming its ply and the position's SFEN; a name,
// event or comment holding a line break is refused too.
Result<std::string> csa_text(const CsaRecord& record);

}  // namespace manaka::shogi
