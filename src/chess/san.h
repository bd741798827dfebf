// SAN (standard algebraic notation): the move text of PGN files.
//
// parse_san reads what real PGN files contain and what python-chess 1.11's
// Board.parse_san accepts:
//
//   [NBRQK] [a-h]? [1-8]? [-x]? <destination> (=?[NBRQnbrq])? [+#!?]*
//   O-O  O-O-O  0-0  0-0-0                                    [+#!?]*
//
// The piece letter is uppercase (a lowercase b is a file); disambiguation is
// by file, rank or square; "x" and "-" are optional and not checked (as in
// python-chess); the promotion letter may follow "=" or stand alone. A
// square-to-square move without a piece letter ("e2e4", "g1f3", "e1g1") names
// any piece by its origin. Trailing check, mate and annotation marks are
// ignored, and not checked. The null move ("--") is refused.
//
// to_san prints exactly what python-chess 1.11's Board.san() prints:
// O-O / O-O-O, the piece letter (none for pawns), the origin file and/or
// rank only when another piece of the same type could also reach the
// destination (the file if that tells them apart, else the rank, else
// both), the origin file of a pawn capture, "x" for captures (en passant
// included), "=Q" for promotions, then "+" for check or "#" for mate.
#pragma once

#include <string>
#include <string_view>

#include "chess/move.h"
#include "chess/position.h"
#include "core/status.h"

namespace manaka::chess {

// The legal move san names in pos. A refusal is Status::invalid and names
// the kind ("invalid san" for text that is not SAN, "illegal san" when no
// legal move matches, "ambiguous san" when more than one does), the text,
// the FEN and the reason:
//   ambiguous san: 'Nd2' in <fen>: knights on b1 and f3 can both move to d2
Result<Move> parse_san(const Position& pos, std::string_view san);

// The SAN of m, which is assumed legal in pos.
std::string to_san(const Position& pos, Move m);

}  // namespace manaka::chess
