// The engine-to-GUI lines of USI that a MultiPV search produces, parsed
// without a process (so they are tested on their own):
//
//   info depth 2 seldepth 2 multipv 1 score cp -142 nodes 301 ... pv 5a4b 7i7h
//   info depth 9 multipv 2 score mate -3 pv ...      (mated in 3)
//   info depth 7 multipv 1 score cp 80 lowerbound pv ...
//   bestmove 7g7f ponder 3c3d      bestmove resign      bestmove win
//
// Scores are from the side to move's point of view, as USI states them.
// "score mate N" counts plies to mate in USI; some engines count moves. It is
// kept as N, signed, and mapped to centipawns by the caller (teacher/score.h).
// "mate +" / "mate -" (distance unknown) keep only the sign: value +-1 with
// mate_distance_known false.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace manaka::engine {

struct Score {
  enum class Kind : uint8_t { Cp, Mate };
  Kind kind = Kind::Cp;
  int value = 0;  // centipawns, or the signed mate distance
  bool mate_distance_known = true;

  bool is_mate() const { return kind == Kind::Mate; }
  // "cp 35", "mate -3", "mate +"
  std::string to_string() const;
  bool operator==(const Score&) const = default;
};

// An "info" line that carries a score and a principal variation. Only the
// first PV move is kept: a MultiPV line is one candidate for the root.
struct InfoLine {
  int depth = 0;
  int multipv = 1;  // 1-based; 1 when the engine does not say
  Score score;
  bool bound = false;  // lowerbound / upperbound: not an exact score
  uint64_t nodes = 0;
  std::string first_move;
};

// An info line with a score and a non-empty pv, or nullopt (info string,
// currmove, hashfull, lines that are not info at all, malformed numbers).
std::optional<InfoLine> parse_info(std::string_view line);

// "bestmove X [ponder Y]": X ("7g7f", "resign", "win", ...) or nullopt when the
// line is not a bestmove line.
std::optional<std::string> parse_bestmove(std::string_view line);

// Whether a bestmove token names a move rather than a verdict (resign, win,
// none, (none), 0000).
bool bestmove_is_move(std::string_view token);

}  // namespace manaka::engine
