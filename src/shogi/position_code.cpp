#include "shogi/position_code.h"

#include <cassert>
#include <string>

#include "shogi/yaneuraou_square.h"

namespace manaka::shogi {

namespace {

constexpr const char* kPluralName[HAND_KIND_NB] = {"pawns", "lances", "knights", "silvers",
                                                   "golds", "bishops", "rooks"};

constexpr bool has_promotion_bit(HandKind hk) { return hk != H_GOLD; }

Status bit_error(const PositionCodeFormat& f, int bit, const std::string& rule) {
  return Status::invalid(std::string(f.name) + " bit " + std::to_string(bit) + ": " + rule);
}

// Reads bits until they spell one of `codes`. Returns the hand kind, or
// HAND_KIND_NB for the empty square (board codes only: a single 0 bit).
Result<int> read_kind(const PositionCodeFormat& f, BitReader& r, const PieceCode (&codes)[HAND_KIND_NB], bool board) {
  const int start = r.cursor();
  uint32_t value = 0;
  for (int len = 1; len <= 6; ++len) {
    uint32_t b;
    if (!r.get(b)) return bit_error(f, start, "a piece code runs past bit 256");
    value |= b << (len - 1);
    if (board && len == 1 && value == 0) return int(HAND_KIND_NB);
    for (int hk = 0; hk < HAND_KIND_NB; ++hk) {
      if (codes[hk].bits == len && codes[hk].value == value) return hk;
    }
  }
  return bit_error(f, start, "the bits match no piece code");
}

}  // namespace

Result<PositionCode> encode_position_code(const PositionCodeFormat& f, const Position& pos) {
  int used[HAND_KIND_NB] = {};
  for (int s = 0; s < SQUARE_NB; ++s) {
    const Piece pc = pos.piece_on(Square(s));
    if (pc != NO_PIECE && kind_of(pc) != KING) ++used[HAND_OF[kind_of(pc)]];
  }
  for (Color c : {BLACK, WHITE})
    for (int hk = 0; hk < HAND_KIND_NB; ++hk) used[hk] += pos.hand_count(c, HandKind(hk));
  for (int hk = 0; hk < HAND_KIND_NB; ++hk) {
    assert(used[hk] <= HAND_MAX[hk]);  // a Position never holds more than a set
    if (!f.boxed && used[hk] != HAND_MAX[hk])
      return Status::invalid(std::string(f.name) + ": the position has " + std::to_string(used[hk]) + " " +
                             kPluralName[hk] + "; the code holds only a full set of " +
                             std::to_string(HAND_MAX[hk]) + " (no handicaps)");
  }
  BitWriter w;
  w.put(pos.side_to_move() == WHITE, 1);
  const int kings[COLOR_NB] = {convert_square(pos.king_square(BLACK)), convert_square(pos.king_square(WHITE))};
  w.put(kings[BLACK], 7);
  w.put(kings[WHITE], 7);
  for (int yo = 0; yo < SQUARE_NB; ++yo) {
    if (yo == kings[BLACK] || yo == kings[WHITE]) continue;
    const Piece pc = pos.piece_on(convert_square(yo));
    if (pc == NO_PIECE) {
      w.put(0, 1);
      continue;
    }
    const Kind k = kind_of(pc);
    const HandKind hk = HAND_OF[k];
    w.put(f.board[hk].value, f.board[hk].bits);
    if (f.colour_first) w.put(color_of(pc) == WHITE, 1);
    if (has_promotion_bit(hk)) w.put(k != BASE_KIND[k], 1);
    if (!f.colour_first) w.put(color_of(pc) == WHITE, 1);
  }
  for (Color c : {BLACK, WHITE}) {
    for (int hk = 0; hk < HAND_KIND_NB; ++hk) {
      for (int i = 0, n = pos.hand_count(c, HandKind(hk)); i < n; ++i) {
        w.put(f.hand[hk].value, f.hand[hk].bits);
        if (f.boxed && has_promotion_bit(HandKind(hk))) w.put(0, 1);
        w.put(c == WHITE, 1);
      }
    }
  }
  // The box: hand codes marked promoted; gold, which has no promotion bit,
  // is silver's code with both flags set.
  for (int hk = 0; f.boxed && hk < HAND_KIND_NB; ++hk) {
    for (int i = used[hk]; i < HAND_MAX[hk]; ++i) {
      if (hk == H_GOLD) {
        w.put(f.hand[H_SILVER].value, f.hand[H_SILVER].bits);
        w.put(0b11, 2);  // "promoted", "White"
      } else {
        w.put(f.hand[hk].value, f.hand[hk].bits);
        w.put(0b01, 2);  // promoted, Black
      }
    }
  }
  assert(w.cursor() == POSITION_CODE_BITS);
  return w.bytes();
}

Result<Position> decode_position_code(const PositionCodeFormat& f, std::span<const uint8_t, POSITION_CODE_LEN> bytes) {
  BitReader r(bytes);
  Setup setup;
  uint32_t side = 0, king[COLOR_NB] = {};
  r.get(side);
  r.get_n(7, king[BLACK]);
  r.get_n(7, king[WHITE]);
  for (Color c : {BLACK, WHITE}) {
    if (king[c] >= SQUARE_NB) {
      return bit_error(f, c == BLACK ? 1 : 8,
                       std::string(COLOR_NAME[c]) + "'s king square " + std::to_string(king[c]) +
                           " is not a square (0-80)");
    }
  }
  if (king[BLACK] == king[WHITE]) return bit_error(f, 8, "both kings on square " + std::to_string(king[BLACK]));
  setup.side = Color(side);
  setup.board[convert_square(int(king[BLACK]))] = make_piece(BLACK, KING);
  setup.board[convert_square(int(king[WHITE]))] = make_piece(WHITE, KING);
  auto past_the_end = [&](int start) { return bit_error(f, start, "a piece runs past bit 256"); };
  int seen[HAND_KIND_NB] = {};
  for (int yo = 0; yo < SQUARE_NB; ++yo) {
    if (yo == int(king[BLACK]) || yo == int(king[WHITE])) continue;
    const int start = r.cursor();
    const PieceMatch m = table_piece(r, f.board_table);
    int hk = m.kind == PieceMatch::kEmpty ? int(HAND_KIND_NB) : m.kind;
    uint32_t white = m.white, promoted = m.promoted;
    if (m.kind == PieceMatch::kNoCode) {
      MANAKA_ASSIGN_OR_RETURN(hk, read_kind(f, r, f.board, true));
      if (hk == HAND_KIND_NB) continue;
      const bool promotion_bit = has_promotion_bit(HandKind(hk));
      if (f.colour_first && !r.get(white)) return past_the_end(start);
      if (promotion_bit && !r.get(promoted)) return past_the_end(start);
      if (!f.colour_first && !r.get(white)) return past_the_end(start);
    }
    if (hk == HAND_KIND_NB) continue;
    const Kind base = KIND_OF_HAND[hk];
    setup.board[convert_square(yo)] = make_piece(Color(white), promoted ? PROMOTED[base] : base);
    ++seen[hk];
  }
  while (!r.exhausted()) {
    const int start = r.cursor();
    const PieceMatch m = table_piece(r, f.hand_table);
    int hk = m.kind;
    uint32_t promoted = m.promoted, white = m.white;
    if (m.kind == PieceMatch::kNoCode) {
      MANAKA_ASSIGN_OR_RETURN(hk, read_kind(f, r, f.hand, false));
      if (f.boxed && has_promotion_bit(HandKind(hk)) && !r.get(promoted)) return past_the_end(start);
      if (!r.get(white)) return past_the_end(start);
    }
    if (!promoted) {
      if (setup.hand[white][hk] < HAND_MAX[hk]) ++setup.hand[white][hk];
    } else if (white) {
      if (hk != H_SILVER) return bit_error(f, start, "a promoted White piece in hand is no code (only 11011, a boxed gold)");
      hk = H_GOLD;  // a boxed gold
    }
    ++seen[hk];
  }
  for (int hk = 0; hk < HAND_KIND_NB; ++hk) {
    if (seen[hk] != HAND_MAX[hk]) {
      return bit_error(f, POSITION_CODE_BITS,
                       std::to_string(seen[hk]) + " " + kPluralName[hk] +
                           (f.boxed ? " on the board, in hand and boxed; a " : " on the board and in hand; a ") +
                           f.name + " holds a full set of " + std::to_string(HAND_MAX[hk]));
    }
  }
  auto pos = Position::from_setup(setup);
  if (!pos.ok()) return std::move(pos).take_status().with_context(std::string(f.name) + ": ");
  return pos;
}

}  // namespace manaka::shogi
