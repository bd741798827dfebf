// Value types of the shogi rules: colours, squares, piece kinds, hand kinds
// and the board byte. Every numbering here is the one the MPK1 packed
// position stores (spec: mpk1-training-data-formats, "What packed holds"), so
// a value can be written to a file or read from one without translation.
#pragma once

#include <cstdint>
#include <string>

namespace manaka::shogi {

// BLACK (sente, uppercase in SFEN) moves first.
enum Color : uint8_t { BLACK, WHITE, COLOR_NB };
constexpr Color operator~(Color c) { return Color(c ^ 1); }

// square = (9 - file) * 9 + (rank - 1): 0 is 9a, 80 is 1i. A file is nine
// consecutive indices from rank 1 down, so s - 1 is one rank towards rank 1
// and s + 9 one file towards file 1.
using Square = uint8_t;
constexpr int SQUARE_NB = 81;
constexpr int FILE_NB = 9;
constexpr int RANK_NB = 9;

constexpr Square make_square(int file, int rank) { return Square((9 - file) * 9 + rank - 1); }
constexpr int file_of(Square s) { return 9 - s / 9; }
constexpr int rank_of(Square s) { return s % 9 + 1; }
// The rank as seen by c: Black's rank 1 is White's rank 9.
constexpr int relative_rank(Color c, Square s) { return c == BLACK ? rank_of(s) : 10 - rank_of(s); }
// c promotes on its relative ranks 1-3, the opponent's camp.
constexpr bool in_zone(Color c, Square s) { return relative_rank(c, s) <= 3; }

// "5e": the file digit, then the rank as a letter a-i (USI and SFEN style).
inline std::string square_name(Square s) {
  return {char('0' + file_of(s)), char('a' + rank_of(s) - 1)};
}

// Board kinds, numbered as the low nibble of a packed board byte.
enum Kind : uint8_t {
  KING, ROOK, BISHOP, GOLD, SILVER, KNIGHT, LANCE, PAWN,
  PRO_ROOK, PRO_BISHOP, PRO_SILVER, PRO_KNIGHT, PRO_LANCE, PRO_PAWN,
  KIND_NB
};

// Hand kinds in the packed hand order P L N S G B R (the reverse of the
// board's base kinds R B G S N L P).
enum HandKind : uint8_t { H_PAWN, H_LANCE, H_KNIGHT, H_SILVER, H_GOLD, H_BISHOP, H_ROOK, HAND_KIND_NB };
constexpr uint8_t HAND_MAX[HAND_KIND_NB] = {18, 4, 4, 4, 4, 2, 2};

// A board byte: bit 4 the colour, bits 0-3 the kind, bits 5-7 clear.
// Black pieces are 0x00..0x0D, White 0x10..0x1D; an empty square is 0xFF.
using Piece = uint8_t;
constexpr Piece NO_PIECE = 0xFF;
constexpr Piece make_piece(Color c, Kind k) { return Piece(c << 4 | k); }
constexpr Color color_of(Piece p) { return Color(p >> 4 & 1); }
constexpr Kind kind_of(Piece p) { return Kind(p & 0x0F); }
constexpr bool is_piece_byte(Piece p) { return (p & 0xE0) == 0 && (p & 0x0F) < KIND_NB; }

// What a kind becomes on promotion; itself for K, G and promoted kinds.
constexpr Kind PROMOTED[KIND_NB] = {
  KING, PRO_ROOK, PRO_BISHOP, GOLD, PRO_SILVER, PRO_KNIGHT, PRO_LANCE, PRO_PAWN,
  PRO_ROOK, PRO_BISHOP, PRO_SILVER, PRO_KNIGHT, PRO_LANCE, PRO_PAWN};
constexpr bool can_promote(Kind k) { return PROMOTED[k] != k; }

// The unpromoted kind a piece returns to when captured.
constexpr Kind BASE_KIND[KIND_NB] = {
  KING, ROOK, BISHOP, GOLD, SILVER, KNIGHT, LANCE, PAWN,
  ROOK, BISHOP, SILVER, KNIGHT, LANCE, PAWN};

// The hand slot a captured kind goes to; HAND_KIND_NB for the king.
constexpr HandKind HAND_OF[KIND_NB] = {
  HAND_KIND_NB, H_ROOK, H_BISHOP, H_GOLD, H_SILVER, H_KNIGHT, H_LANCE, H_PAWN,
  H_ROOK, H_BISHOP, H_SILVER, H_KNIGHT, H_LANCE, H_PAWN};
constexpr Kind KIND_OF_HAND[HAND_KIND_NB] = {PAWN, LANCE, KNIGHT, SILVER, GOLD, BISHOP, ROOK};

// SFEN/USI letters of the base kinds, uppercase (Black's). A promoted kind is
// '+' followed by its base letter.
constexpr char KIND_LETTER[KIND_NB] = {'K', 'R', 'B', 'G', 'S', 'N', 'L', 'P',
                                       'R', 'B', 'S', 'N', 'L', 'P'};
constexpr char HAND_LETTER[HAND_KIND_NB] = {'P', 'L', 'N', 'S', 'G', 'B', 'R'};

// Pieces of each base kind in a full set, both colours, board and hands.
constexpr int SET_COUNT[KIND_NB] = {2, 2, 2, 4, 4, 4, 4, 18};

constexpr const char* COLOR_NAME[COLOR_NB] = {"Black", "White"};
constexpr const char* KIND_NAME[KIND_NB] = {
  "king", "rook", "bishop", "gold", "silver", "knight", "lance", "pawn",
  "dragon", "horse", "promoted silver", "promoted knight", "promoted lance", "tokin"};

}  // namespace manaka::shogi
