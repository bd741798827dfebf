#include "shogi/packed_sfen.h"

#include <cassert>
#include <string>

#include "shogi/bit_stream.h"
#include "shogi/yaneuraou_square.h"

namespace manaka::shogi {
namespace {

constexpr int kBits = POSITION_CODE_BITS;  // 256

// Board codes by hand kind (P L N S G B R): the value's bit 0 is written first.
using Code = PieceCode;
constexpr Code kBoardCode[HAND_KIND_NB] = {{0x01, 2}, {0x03, 4}, {0x0b, 4}, {0x07, 4},
                                           {0x0f, 5}, {0x1f, 6}, {0x3f, 6}};
constexpr bool has_promotion_bit(HandKind hk) { return hk != H_GOLD; }
constexpr const char* kPluralName[HAND_KIND_NB] = {"pawns", "lances", "knights", "silvers",
                                                   "golds", "bishops", "rooks"};

Status bit_error(int bit, const std::string& rule) {
  return Status::invalid("packed sfen bit " + std::to_string(bit) + ": " + rule);
}

// Reads bits until they spell one of the codes (value >> shift, bits - shift)
// of kBoardCode; shift 0 for board codes, 1 for hand and box codes. Returns
// the hand kind, or HAND_KIND_NB for the empty square (board codes only).
Result<int> read_kind(BitReader& r, int shift) {
  const int start = r.cursor();
  uint32_t value = 0;
  for (int len = 1; len <= 6; ++len) {
    uint32_t b;
    if (!r.get(b)) return bit_error(start, "a piece code runs past bit 256");
    value |= b << (len - 1);
    if (shift == 0 && len == 1 && value == 0) return int(HAND_KIND_NB);
    for (int hk = 0; hk < HAND_KIND_NB; ++hk) {
      if (kBoardCode[hk].bits - shift == len && uint32_t(kBoardCode[hk].value >> shift) == value) return hk;
    }
  }
  return bit_error(start, "the bits match no piece code");
}

constexpr PieceCode kHandCode[HAND_KIND_NB] = {
    {kBoardCode[0].value >> 1, 1}, {kBoardCode[1].value >> 1, 3}, {kBoardCode[2].value >> 1, 3},
    {kBoardCode[3].value >> 1, 3}, {kBoardCode[4].value >> 1, 4}, {kBoardCode[5].value >> 1, 5},
    {kBoardCode[6].value >> 1, 5}};
// PackedSfen: kind code, promotion bit, colour bit; in hand and box too
// (a boxed piece is a hand piece marked promoted).
constexpr auto kBoardTable = make_piece_table(kBoardCode, true, true, false);
constexpr auto kHandTable = make_piece_table(kHandCode, false, true, false);

}  // namespace

PackedSfen encode_packed_sfen(const Position& pos) {
  BitWriter w;
  w.put(pos.side_to_move() == WHITE, 1);
  const int kings[COLOR_NB] = {convert_square(pos.king_square(BLACK)), convert_square(pos.king_square(WHITE))};
  w.put(kings[BLACK], 7);
  w.put(kings[WHITE], 7);
  int used[HAND_KIND_NB] = {};
  for (int yo = 0; yo < SQUARE_NB; ++yo) {
    if (yo == kings[BLACK] || yo == kings[WHITE]) continue;
    const Piece pc = pos.piece_on(convert_square(yo));
    if (pc == NO_PIECE) {
      w.put(0, 1);
      continue;
    }
    const Kind k = kind_of(pc);
    const HandKind hk = HAND_OF[k];
    ++used[hk];
    w.put(kBoardCode[hk].value, kBoardCode[hk].bits);
    if (has_promotion_bit(hk)) w.put(k != BASE_KIND[k], 1);
    w.put(color_of(pc) == WHITE, 1);
  }
  for (Color c : {BLACK, WHITE}) {
    for (int hk = 0; hk < HAND_KIND_NB; ++hk) {
      const int n = pos.hand_count(c, HandKind(hk));
      used[hk] += n;
      for (int i = 0; i < n; ++i) {
        w.put(kBoardCode[hk].value >> 1, kBoardCode[hk].bits - 1);
        if (has_promotion_bit(HandKind(hk))) w.put(0, 1);
        w.put(c == WHITE, 1);
      }
    }
  }
  for (int hk = 0; hk < HAND_KIND_NB; ++hk) {
    assert(used[hk] <= HAND_MAX[hk]);  // a Position never holds more than a set
    for (int i = used[hk]; i < HAND_MAX[hk]; ++i) {
      if (hk == H_GOLD) {
        w.put(kBoardCode[H_SILVER].value >> 1, kBoardCode[H_SILVER].bits - 1);  // silver's prefix
        w.put(0b11, 2);                                                         // "promoted", "White"
      } else {
        w.put(kBoardCode[hk].value >> 1, kBoardCode[hk].bits - 1);
        w.put(0b01, 2);  // promoted, Black
      }
    }
  }
  assert(w.cursor() == kBits);
  return w.bytes();
}

Result<Position> decode_packed_sfen(std::span<const uint8_t, PACKED_SFEN_LEN> bytes) {
  BitReader r(bytes);
  Setup setup;
  uint32_t side = 0, king[COLOR_NB] = {};
  r.get(side);
  r.get_n(7, king[BLACK]);
  r.get_n(7, king[WHITE]);
  for (Color c : {BLACK, WHITE}) {
    if (king[c] >= SQUARE_NB) {
      return bit_error(c == BLACK ? 1 : 8, std::string(COLOR_NAME[c]) + "'s king square " + std::to_string(king[c]) +
                                               " is not a square (0-80)");
    }
  }
  if (king[BLACK] == king[WHITE]) return bit_error(8, "both kings on square " + std::to_string(king[BLACK]));
  setup.side = Color(side);
  setup.board[convert_square(int(king[BLACK]))] = make_piece(BLACK, KING);
  setup.board[convert_square(int(king[WHITE]))] = make_piece(WHITE, KING);
  int seen[HAND_KIND_NB] = {};
  for (int yo = 0; yo < SQUARE_NB; ++yo) {
    if (yo == int(king[BLACK]) || yo == int(king[WHITE])) continue;
    const int start = r.cursor();
    const PieceMatch m = table_piece(r, kBoardTable);
    int hk = m.kind == PieceMatch::kEmpty ? int(HAND_KIND_NB) : m.kind;
    uint32_t promoted = m.promoted, white = m.white;
    if (m.kind == PieceMatch::kNoCode) {
      MANAKA_ASSIGN_OR_RETURN(hk, read_kind(r, 0));
      if (hk == HAND_KIND_NB) continue;
      if (has_promotion_bit(HandKind(hk)) && !r.get(promoted)) return bit_error(start, "a piece runs past bit 256");
      if (!r.get(white)) return bit_error(start, "a piece runs past bit 256");
    }
    if (hk == HAND_KIND_NB) continue;
    const Kind base = KIND_OF_HAND[hk];
    setup.board[convert_square(yo)] = make_piece(Color(white), promoted ? PROMOTED[base] : base);
    ++seen[hk];
  }
  while (!r.exhausted()) {
    const int start = r.cursor();
    const PieceMatch m = table_piece(r, kHandTable);
    int hk = m.kind;
    uint32_t promoted = m.promoted, white = m.white;
    if (m.kind == PieceMatch::kNoCode) {
      MANAKA_ASSIGN_OR_RETURN(hk, read_kind(r, 1));
      if (has_promotion_bit(HandKind(hk)) && !r.get(promoted)) return bit_error(start, "a piece runs past bit 256");
      if (!r.get(white)) return bit_error(start, "a piece runs past bit 256");
    }
    if (!promoted) {
      if (setup.hand[white][hk] < HAND_MAX[hk]) ++setup.hand[white][hk];
    } else if (white) {
      if (hk != H_SILVER) {
        return bit_error(start, "a promoted White piece in hand is no code (only 11011, a boxed gold)");
      }
      hk = H_GOLD;  // a boxed gold
    }
    ++seen[hk];
  }
  for (int hk = 0; hk < HAND_KIND_NB; ++hk) {
    if (seen[hk] != HAND_MAX[hk]) {
      return bit_error(kBits, std::to_string(seen[hk]) + " " + kPluralName[hk] +
                                  " on the board, in hand and boxed; a packed sfen holds a full set of " +
                                  std::to_string(HAND_MAX[hk]));
    }
  }
  auto pos = Position::from_setup(setup);
  if (!pos.ok()) return std::move(pos).take_status().with_context("packed sfen: ");
  return pos;
}

}  // namespace manaka::shogi
