#include "shogi/huffman_coded_pos.h"

#include <cassert>
#include <string>

#include "shogi/bit_stream.h"
#include "shogi/yaneuraou_square.h"

namespace manaka::shogi {
namespace {

// Board piece codes by hand kind (P L N S G B R), without the colour and
// promotion bits: the value's bit 0 is written first.
using Code = PieceCode;
constexpr Code kBoardCode[HAND_KIND_NB] = {{0x01, 2}, {0x03, 4}, {0x07, 4}, {0x0b, 4},
                                           {0x0f, 5}, {0x1f, 6}, {0x3f, 6}};
constexpr bool has_promotion_bit(HandKind hk) { return hk != H_GOLD; }
// Hand codes by hand kind, without the colour bit that ends each: not the
// board codes shortened (bishop 11111 0, rook 11111 1), so a table of their own.
constexpr Code kHandCode[HAND_KIND_NB] = {{0x00, 2}, {0x01, 4}, {0x03, 4}, {0x05, 4},
                                          {0x07, 4}, {0x1f, 6}, {0x3f, 6}};
constexpr const char* kPluralName[HAND_KIND_NB] = {"pawns", "lances", "knights", "silvers",
                                                   "golds", "bishops", "rooks"};

Status bit_error(int bit, const std::string& rule) {
  return Status::invalid("huffman coded pos bit " + std::to_string(bit) + ": " + rule);
}

// Reads bits until they spell a code of `codes`. Returns the hand kind, or
// HAND_KIND_NB for the empty square (board only: a single 0 bit).
Result<int> read_kind(BitReader& r, const Code (&codes)[HAND_KIND_NB], bool board) {
  const int start = r.cursor();
  uint32_t value = 0;
  for (int len = 1; len <= 6; ++len) {
    uint32_t b;
    if (!r.get(b)) return bit_error(start, "a piece code runs past bit 256");
    value |= b << (len - 1);
    if (board && len == 1 && value == 0) return int(HAND_KIND_NB);
    for (int hk = 0; hk < HAND_KIND_NB; ++hk) {
      if (codes[hk].bits == len && codes[hk].value == value) return hk;
    }
  }
  return bit_error(start, "the bits match no piece code");
}

// HuffmanCodedPos: on the board kind code, colour bit, promotion bit; in
// hand the kind code and the colour bit.
constexpr auto kBoardTable = make_piece_table(kBoardCode, true, true, true);
constexpr auto kHandTable = make_piece_table(kHandCode, false, false, true);

}  // namespace

Result<HuffmanCodedPos> encode_huffman_coded_pos(const Position& pos) {
  int used[HAND_KIND_NB] = {};
  for (int s = 0; s < SQUARE_NB; ++s) {
    const Piece pc = pos.piece_on(Square(s));
    if (pc != NO_PIECE && kind_of(pc) != KING) ++used[HAND_OF[kind_of(pc)]];
  }
  for (Color c : {BLACK, WHITE})
    for (int hk = 0; hk < HAND_KIND_NB; ++hk) used[hk] += pos.hand_count(c, HandKind(hk));
  for (int hk = 0; hk < HAND_KIND_NB; ++hk) {
    if (used[hk] != HAND_MAX[hk])
      return Status::invalid("huffman coded pos: the position has " + std::to_string(used[hk]) + " " +
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
    w.put(kBoardCode[hk].value, kBoardCode[hk].bits);
    w.put(color_of(pc) == WHITE, 1);
    if (has_promotion_bit(hk)) w.put(k != BASE_KIND[k], 1);
  }
  for (Color c : {BLACK, WHITE}) {
    for (int hk = 0; hk < HAND_KIND_NB; ++hk) {
      for (int i = 0, n = pos.hand_count(c, HandKind(hk)); i < n; ++i) {
        w.put(kHandCode[hk].value, kHandCode[hk].bits);
        w.put(c == WHITE, 1);
      }
    }
  }
  assert(w.cursor() == POSITION_CODE_BITS);
  return w.bytes();
}

Result<Position> decode_huffman_coded_pos(std::span<const uint8_t, HUFFMAN_CODED_POS_LEN> bytes) {
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
    uint32_t white = m.white, promoted = m.promoted;
    if (m.kind == PieceMatch::kNoCode) {
      MANAKA_ASSIGN_OR_RETURN(hk, read_kind(r, kBoardCode, true));
      if (hk == HAND_KIND_NB) continue;
      if (!r.get(white)) return bit_error(start, "a piece runs past bit 256");
      if (has_promotion_bit(HandKind(hk)) && !r.get(promoted)) return bit_error(start, "a piece runs past bit 256");
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
    uint32_t white = m.white;
    if (m.kind == PieceMatch::kNoCode) {
      MANAKA_ASSIGN_OR_RETURN(hk, read_kind(r, kHandCode, false));
      if (!r.get(white)) return bit_error(start, "a piece runs past bit 256");
    }
    if (setup.hand[white][hk] < HAND_MAX[hk]) ++setup.hand[white][hk];
    ++seen[hk];
  }
  for (int hk = 0; hk < HAND_KIND_NB; ++hk) {
    if (seen[hk] != HAND_MAX[hk]) {
      return bit_error(POSITION_CODE_BITS, std::to_string(seen[hk]) + " " + kPluralName[hk] +
                                               " on the board and in hand; a huffman coded pos holds a full set of " +
                                               std::to_string(HAND_MAX[hk]));
    }
  }
  auto pos = Position::from_setup(setup);
  if (!pos.ok()) return std::move(pos).take_status().with_context("huffman coded pos: ");
  return pos;
}

}  // namespace manaka::shogi
