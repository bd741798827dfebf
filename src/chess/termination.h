// How a game ends, and the ending rules that need only the position.
//
// Termination and Outcome mirror python-chess 1.11's (standard chess only,
// no variant endings); the numbering is python-chess's too. The rules that
// need the game's history (repetitions, the move-count rules) and the order
// in which all of them are tried are Game's (game.h).
#pragma once

#include <cstdint>
#include <optional>

#include "chess/position.h"
#include "chess/types.h"

namespace manaka::chess {

enum class Termination : uint8_t {
  CHECKMATE = 1,
  STALEMATE,
  INSUFFICIENT_MATERIAL,
  SEVENTYFIVE_MOVES,
  FIVEFOLD_REPETITION,
  FIFTY_MOVES,
  THREEFOLD_REPETITION,
};
constexpr int TERMINATION_NB = 8;  // index 0 unused

// "CHECKMATE", ..., "THREEFOLD_REPETITION": python-chess's Termination names.
const char* termination_name(Termination t);

struct Outcome {
  Termination termination;
  std::optional<Color> winner;  // the mating side; none for every draw

  // "1-0", "0-1" or "1/2-1/2", as python-chess's Outcome.result().
  const char* result() const;
  friend bool operator==(const Outcome&, const Outcome&) = default;
};

// python-chess's Board.has_insufficient_material(color): c cannot win
// whatever the moves, judged by material alone (bishop colours counted,
// piece placement not). False when c has a pawn, rook or queen; with a
// knight, true only for a lone king and knight against an opponent with
// nothing but king and queens (anything else could help a selfmate); with
// bishops, true only when every bishop on the board (both sides') stands on
// squares of one colour and no pawn or knight is left; true for a bare king.
bool has_insufficient_material(const Position& pos, Color c);
// Both sides have insufficient material.
bool is_insufficient_material(const Position& pos);

}  // namespace manaka::chess
