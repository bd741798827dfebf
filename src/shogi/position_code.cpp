#include "shogi/position_code.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <string>

#include "core/bytes.h"
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

// Every kind of a full set, neither more nor fewer (board, hands and box).
Status check_full_set(const PositionCodeFormat& f, const int (&seen)[HAND_KIND_NB]) {
  for (int hk = 0; hk < HAND_KIND_NB; ++hk) {
    if (seen[hk] != HAND_MAX[hk]) {
      return bit_error(f, POSITION_CODE_BITS,
                       std::to_string(seen[hk]) + " " + kPluralName[hk] +
                           (f.boxed ? " on the board, in hand and boxed; a " : " on the board and in hand; a ") +
                           f.name + " holds a full set of " + std::to_string(HAND_MAX[hk]));
    }
  }
  return Status();
}

// The code's 32 bytes and 8 zero bytes after them, so that a 64-bit load at
// any cursor up to bit 256 stays inside; bits past 256 read as zeros.
using PaddedCode = std::array<uint8_t, POSITION_CODE_LEN + 8>;

// The code's bits from a cursor on, held in a register: a 64-bit load
// refills it (at least 57 bits valid), so each step of the decoder is a
// shift and a lookup rather than a load per bit. The bytes live outside the
// object, so that its three fields stay in registers.
class CodeBits {
 public:
  explicit CodeBits(const PaddedCode& code) : code_(code.data()) { refill(); }
  int cursor() const { return cursor_; }
  int available() const { return available_; }
  // At least n (<= 57) valid bits, or false past bit 256.
  bool ensure(int n) {
    if (available_ >= n) return true;
    if (cursor_ > POSITION_CODE_BITS) return false;
    refill();
    return true;
  }
  // The next n bits, value least significant first.
  uint32_t peek(int n) const { return uint32_t(buf_ & ((uint64_t{1} << n) - 1)); }
  void skip(int n) {
    buf_ >>= n;
    available_ -= n;
    cursor_ += n;
  }
  // The next n (< 32) bits, value least significant first.
  uint64_t take(int n) {
    const uint64_t v = buf_ & ((uint64_t{1} << n) - 1);
    skip(n);
    return v;
  }

 private:
  static constexpr int kRefillBits = 57;  // 64 minus the cursor's bit within its byte, at worst
  void refill() {
    buf_ = load_u64(code_ + (cursor_ >> 3)) >> (cursor_ & 7);
    available_ = kRefillBits;
  }
  const uint8_t* code_;
  uint64_t buf_ = 0;
  int available_ = 0;
  int cursor_ = 0;
};

// YaneuraOu square -> manaka square (shogi/yaneuraou_square.h), as a table.
constexpr std::array<uint8_t, SQUARE_NB> kSquareOfYo = [] {
  std::array<uint8_t, SQUARE_NB> t{};
  for (int yo = 0; yo < SQUARE_NB; ++yo) t[size_t(yo)] = convert_square(yo);
  return t;
}();


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

Result<Position> decode_position_code_by_bits(const PositionCodeFormat& f,
                                              std::span<const uint8_t, POSITION_CODE_LEN> bytes) {
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
    MANAKA_ASSIGN_OR_RETURN(int hk, read_kind(f, r, f.board, true));
    if (hk == HAND_KIND_NB) continue;
    uint32_t white = 0, promoted = 0;
    const bool promotion_bit = has_promotion_bit(HandKind(hk));
    if (f.colour_first && !r.get(white)) return past_the_end(start);
    if (promotion_bit && !r.get(promoted)) return past_the_end(start);
    if (!f.colour_first && !r.get(white)) return past_the_end(start);
    const Kind base = KIND_OF_HAND[hk];
    setup.board[convert_square(yo)] = make_piece(Color(white), promoted ? PROMOTED[base] : base);
    ++seen[hk];
  }
  while (!r.exhausted()) {
    const int start = r.cursor();
    MANAKA_ASSIGN_OR_RETURN(int hk, read_kind(f, r, f.hand, false));
    uint32_t promoted = 0, white = 0;
    if (f.boxed && has_promotion_bit(HandKind(hk)) && !r.get(promoted)) return past_the_end(start);
    if (!r.get(white)) return past_the_end(start);
    if (!promoted) {
      if (setup.hand[white][hk] < HAND_MAX[hk]) ++setup.hand[white][hk];
    } else if (white) {
      if (hk != H_SILVER) return bit_error(f, start, "a promoted White piece in hand is no code (only 11011, a boxed gold)");
      hk = H_GOLD;  // a boxed gold
    }
    ++seen[hk];
  }
  MANAKA_RETURN_NOT_OK(check_full_set(f, seen));
  auto pos = Position::from_setup(setup);
  if (!pos.ok()) return std::move(pos).take_status().with_context(std::string(f.name) + ": ");
  return pos;
}

Result<Position> decode_position_code(const PositionCodeFormat& f, std::span<const uint8_t, POSITION_CODE_LEN> bytes) {
  // The common case, a code of a full set with nothing boxed, a whole piece
  // (or a run of empty squares) a step; anything else (a king off the board,
  // a code matching no piece, a piece past bit 256, a boxed piece, a set not
  // full) is decoded again bit by bit, which names the bit and the rule.
  auto by_bits = [&] { return decode_position_code_by_bits(f, bytes); };
  PaddedCode padded{};
  std::memcpy(padded.data(), bytes.data(), POSITION_CODE_LEN);
  CodeBits bits(padded);
  const uint64_t head = bits.take(15);
  const int king[COLOR_NB] = {int(head >> 1 & 0x7F), int(head >> 8 & 0x7F)};
  if (king[BLACK] >= SQUARE_NB || king[WHITE] >= SQUARE_NB || king[BLACK] == king[WHITE]) return by_bits();
  Setup setup;
  setup.side = Color(head & 1);
  setup.board[convert_square(king[BLACK])] = make_piece(BLACK, KING);
  setup.board[convert_square(king[WHITE])] = make_piece(WHITE, KING);
  // Board slot j (the j-th square of the code that is not a king's) is square
  // j, j + 1 past the first king, j + 2 past the second.
  const int first_king = std::min(king[BLACK], king[WHITE]), second_king = std::max(king[BLACK], king[WHITE]);
  constexpr int kSlots = SQUARE_NB - 2;
  int seen[HAND_KIND_NB] = {};
  for (int j = 0;;) {
    if (!bits.ensure(kBoardStepBits)) return by_bits();
    const BoardStep& step = f.board_steps[bits.peek(kBoardStepBits)];
    if (j + step.empty >= kSlots) {  // the rest of the board is empty
      bits.skip(kSlots - j);
      break;
    }
    if (step.kind == BoardStep::kNoCode) return by_bits();
    j += step.empty;
    bits.skip(step.bits);
    if (step.kind == BoardStep::kRunOnly) continue;
    const int yo = j + (j >= first_king) + (j >= second_king - 1);
    setup.board[kSquareOfYo[size_t(yo)]] = step.piece;
    ++seen[step.kind];
    if (++j == kSlots) break;
  }
  while (bits.cursor() < POSITION_CODE_BITS) {
    if (!bits.ensure(8)) return by_bits();
    const PieceMatch m = f.hand_table[bits.peek(8)];
    if (m.kind == PieceMatch::kNoCode || m.promoted) return by_bits();
    bits.skip(m.bits);
    ++setup.hand[m.white][m.kind];
    ++seen[m.kind];
  }
  if (bits.cursor() != POSITION_CODE_BITS) return by_bits();
  for (int hk = 0; hk < HAND_KIND_NB; ++hk)
    if (seen[hk] != HAND_MAX[hk]) return by_bits();
  auto pos = Position::from_setup(setup);
  if (!pos.ok()) return std::move(pos).take_status().with_context(std::string(f.name) + ": ");
  return pos;
}

}  // namespace manaka::shogi
