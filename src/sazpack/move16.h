// Move16: YaneuraOu's 16-bit move, the layout SAZ2 stores (not MPK1's).
//
//  bit  15 | 14 | 13 ........ 7 | 6 ........ 0
//       pr | dr | from / piece  |     to
//
// Squares are YaneuraOu's: (file - 1) * 9 + (rank - 1), 1a = 0, 1b = 1, ...,
// 9i = 80 (MPK1 counts files the other way: (9 - file) * 9 + rank - 1). A drop
// (dr) holds the piece type in the origin field: pawn 1, lance 2, knight 3,
// silver 4, bishop 5, rook 6, gold 7. pr marks a promotion.
//
// A value is a board move when to < 81 and either it is not a drop, from < 81
// and from != to, or it is a drop of type 1..7 without pr. The specials are
// from == to: none 0, null 129 (1|1<<7), resign 258, win 387, end 516. Every
// other value is not a move and prints as "none", as rsshogi 1.7.0 prints it
// (so every value has a name, but only moves and specials read back).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/status.h"
#include "shogi/move.h"
#include "shogi/yaneuraou_square.h"

namespace manaka::sazpack {

struct Move16 {
  uint16_t raw = 0;

  static constexpr uint16_t kNone = 0, kNull = 129, kResign = 258, kWin = 387, kEnd = 516;
  static constexpr int kFromShift = 7, kDropBit = 14, kPromoteBit = 15;
  static constexpr uint16_t kFieldMask = 0x7F;

  constexpr int to_field() const { return raw & kFieldMask; }
  constexpr int from_field() const { return raw >> kFromShift & kFieldMask; }
  constexpr bool drop_bit() const { return raw >> kDropBit & 1; }
  constexpr bool promote_bit() const { return raw >> kPromoteBit & 1; }

  // A board move or a drop (see above); false for specials and garbage.
  bool is_move() const;
  // "7g7f", "8h2b+", "P*5e", or one of "none" "null" "resign" "win" "end";
  // any other value is "none".
  std::string to_usi() const;
  // What rsshogi 1.7.0 reads: a board move (lowercase files a-i, from != to,
  // optional '+'), a drop with an uppercase or lowercase letter of P L N S G B
  // R, "none", "null", "resign", "win", "end", or "0000" (null).
  static Result<Move16> parse_usi(std::string_view usi);

  // The same move in MPK1's layout; refuses specials and garbage, naming the
  // value and what it is.
  Result<shogi::Move> to_mpk() const;
  // The same, by table: MPK1's raw value, or 0 (no MPK1 move) for what
  // to_mpk refuses.
  inline uint16_t mpk_raw() const;
  // MPK1 -> YaneuraOu. m must be well formed (shogi::Move::well_formed).
  static Move16 from_mpk(shogi::Move m);

  friend bool operator==(Move16, Move16) = default;
};

using shogi::convert_square;  // shogi/yaneuraou_square.h

namespace detail {

// Move16 -> MPK1 move16 for every value, built at compile time (128 KiB).
constexpr std::array<uint16_t, 65536> make_mpk_table() {
  // YaneuraOu drop type 1..7 (P L N S B R G) -> MPK1 hand index (P L N S G B R).
  constexpr int hand_of_drop[8] = {-1, 0, 1, 2, 3, 5, 6, 4};
  std::array<uint16_t, 65536> t{};
  for (uint32_t raw = 0; raw < t.size(); ++raw) {
    const int to = raw & 0x7F, from = raw >> 7 & 0x7F;
    const bool drop = raw >> 14 & 1, promote = raw >> 15 & 1;
    if (to >= 81) continue;
    if (drop) {
      if (promote || from < 1 || from > 7) continue;
      t[raw] = uint16_t(convert_square(to) | (81 + hand_of_drop[from]) << 7);
    } else if (from < 81 && from != to) {
      t[raw] = uint16_t(convert_square(to) | convert_square(from) << 7 | int(promote) << 14);
    }
  }
  return t;
}

inline constexpr std::array<uint16_t, 65536> kMpkTable = make_mpk_table();

}  // namespace detail

inline uint16_t Move16::mpk_raw() const { return detail::kMpkTable[raw]; }

}  // namespace manaka::sazpack
