// Move: a chess move in 16 bits, exactly what its UCI text says.
//
//  bit  15 | 14 .. 12  | 11 .. 6 | 5 .. 0
//       0  | promotion |  from   |   to
//
// from and to are square indices (types.h); promotion is the PieceType a
// pawn becomes (KNIGHT 2 .. QUEEN 5), or 0. There are no flags: castling is
// the king's two-square move (e1g1, e1c1, e8g8, e8c8, as UCI writes it) and
// an en-passant capture the pawn's diagonal move to the en-passant square;
// the position tells them apart. The raw value 0 (a1a1) is MOVE_NONE, UCI's
// null move "0000".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "chess/types.h"
#include "core/status.h"

namespace manaka::chess {

struct Move {
  uint16_t raw = 0;

  static constexpr int FROM_SHIFT = 6, PROMOTION_SHIFT = 12;
  static constexpr uint16_t SQUARE_MASK = 0x3F;

  static constexpr Move make(Square from, Square to, PieceType promotion = NO_PIECE_TYPE) {
    return Move{uint16_t(to | from << FROM_SHIFT | promotion << PROMOTION_SHIFT)};
  }

  constexpr Square to_square() const { return Square(raw & SQUARE_MASK); }
  constexpr Square from_square() const { return Square(raw >> FROM_SHIFT & SQUARE_MASK); }
  constexpr PieceType promotion() const { return PieceType(raw >> PROMOTION_SHIFT & 7); }

  // Bit 15 clear, from != to, the promotion none or KNIGHT..QUEEN, and a
  // promotion only from rank 7 to rank 8 or from rank 2 to rank 1. Says
  // nothing of legality.
  bool well_formed() const;

  // "e2e4", "e7e8q", "e1g1" for castling; MOVE_NONE prints as "0000". A
  // move that is not well_formed prints as "(raw 0x....)" so it can still be
  // named in a message.
  std::string to_uci() const;
  // Syntax only, not legality: refuses what to_uci could not have written,
  // naming the text, the offset and what was expected.
  static Result<Move> parse_uci(std::string_view uci);

  friend bool operator==(Move, Move) = default;
};

constexpr Move MOVE_NONE{0};

}  // namespace manaka::chess
