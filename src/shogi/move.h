// Move: the MPK1 move16 (spec: mpk1-training-data-formats, "A candidate is a
// move, not a label").
//
//  bit  15 | 14 | 13 ........ 7 | 6 ....... 0
//       0  | pr | from / 81+hk  |    to
//
// to is a square index; the origin field is the square moved from, or 81
// plus the HandKind (P L N S G B R = 0..6) for a drop; pr is set on a
// promoting move. Bit 15 is always clear. The raw value is the file value.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/status.h"
#include "shogi/types.h"

namespace manaka::shogi {

struct Move {
  uint16_t raw = 0;

  static constexpr int TO_SHIFT = 0, FROM_SHIFT = 7, PROMOTE_BIT = 14;
  static constexpr uint16_t FIELD_MASK = 0x7F;
  static constexpr int DROP_BASE = SQUARE_NB;  // origin field of a pawn drop

  static constexpr Move normal(Square from, Square to, bool promote) {
    return Move{uint16_t(to | from << FROM_SHIFT | int(promote) << PROMOTE_BIT)};
  }
  static constexpr Move drop(HandKind hk, Square to) {
    return Move{uint16_t(to | (DROP_BASE + hk) << FROM_SHIFT)};
  }

  constexpr Square to_square() const { return Square(raw & FIELD_MASK); }
  constexpr int origin() const { return raw >> FROM_SHIFT & FIELD_MASK; }
  constexpr bool is_drop() const { return origin() >= DROP_BASE; }
  // Only meaningful when !is_drop().
  constexpr Square from_square() const { return Square(origin()); }
  // Only meaningful when is_drop().
  constexpr HandKind dropped_kind() const { return HandKind(origin() - DROP_BASE); }
  constexpr bool is_promote() const { return raw >> PROMOTE_BIT & 1; }

  // Bit 15 clear, to < 81, origin field <= 87, a drop does not promote, and
  // a board move does not end where it starts. Says nothing of legality.
  bool well_formed() const;

  // "7g7f", "8h2b+", "P*5e". A move that is not well_formed prints as
  // "(raw 0x....)" so it can still be named in a message.
  std::string to_usi() const;
  // Syntax only, not legality: refuses what to_usi could not have written.
  static Result<Move> parse_usi(std::string_view usi);

  friend bool operator==(Move, Move) = default;
};

constexpr Move MOVE_NONE{0};

}  // namespace manaka::shogi
