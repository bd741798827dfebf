// Apery's 16-bit move, as cshogi's move16 and dlshogi's hcpe / hcpe3 store it
// (not MPK1's, shogi/move.h; not YaneuraOu's, sazpack/move16.h).
//
//  bit  15 | 14 | 13 ........ 7 | 6 ........ 0
//       0  | pr | from / 80+pt  |     to
//
// Squares are Apery's (= YaneuraOu's, shogi/yaneuraou_square.h). A drop holds
// 80 plus Apery's piece type in the origin field: pawn 81, lance 82, knight
// 83, silver 84, bishop 85, rook 86, gold 87 (MPK1 orders hand kinds P L N S
// G B R). 0 is "no move". Checked against cshogi 1.1.0 (move16, move_from_usi)
// in tests/python/test_stream_import.py.
#pragma once

#include <array>
#include <cstdint>

#include "shogi/move.h"
#include "shogi/yaneuraou_square.h"

namespace manaka::shogi {

namespace detail {

// Apery drop origin 81..87 (P L N S B R G) -> MPK1 hand kind.
inline constexpr HandKind kHandOfAperyDrop[7] = {H_PAWN, H_LANCE, H_KNIGHT, H_SILVER, H_BISHOP, H_ROOK, H_GOLD};
// MPK1 hand kind (P L N S G B R) -> Apery drop origin.
inline constexpr uint8_t kAperyDropOfHand[HAND_KIND_NB] = {81, 82, 83, 84, 87, 85, 86};

constexpr std::array<uint16_t, 65536> make_apery_table() {
  std::array<uint16_t, 65536> t{};
  for (uint32_t raw = 0; raw < t.size(); ++raw) {
    const int to = raw & 0x7F, from = raw >> 7 & 0x7F;
    const bool promote = raw >> 14 & 1;
    if (raw >> 15 || to >= SQUARE_NB) continue;
    if (from >= SQUARE_NB) {
      if (promote || from > 87) continue;
      t[raw] = Move::drop(kHandOfAperyDrop[from - 81], convert_square(to)).raw;
    } else if (from != to) {
      t[raw] = Move::normal(convert_square(from), convert_square(to), promote).raw;
    }
  }
  return t;
}

inline constexpr std::array<uint16_t, 65536> kAperyToMpk = make_apery_table();

}  // namespace detail

// The same move in MPK1's layout, or MOVE_NONE for a value that is no move
// (0, a destination or origin off the board, a promoting drop, from == to).
inline Move move_from_apery16(uint16_t raw) { return Move{detail::kAperyToMpk[raw]}; }

// MPK1 -> Apery. m must be well formed (Move::well_formed).
constexpr uint16_t apery16_from_move(Move m) {
  const int to = convert_square(m.to_square());
  if (m.is_drop()) return uint16_t(to | detail::kAperyDropOfHand[m.dropped_kind()] << 7);
  return uint16_t(to | convert_square(m.from_square()) << 7 | int(m.is_promote()) << 14);
}

}  // namespace manaka::shogi
