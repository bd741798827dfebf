// Value types of the chess rules: colours, squares, piece types, pieces and
// castling rights. Numbering follows Stockfish: White moves first and is 0,
// a1 is square 0 and h8 square 63, so a square is rank * 8 + file.
#pragma once

#include <cstdint>
#include <string>

namespace manaka::chess {

enum Color : uint8_t { WHITE, BLACK, COLOR_NB };
constexpr Color operator~(Color c) { return Color(c ^ 1); }

// square = rank * 8 + file, both from 0: a1 = 0, h1 = 7, a8 = 56, h8 = 63.
// s + 8 is one rank up (towards Black), s + 1 one file right (towards h).
using Square = uint8_t;
constexpr int SQUARE_NB = 64;
constexpr int FILE_NB = 8;
constexpr int RANK_NB = 8;
constexpr Square SQ_NONE = 64;

// The squares the rules name; the others are make_square(file, rank).
enum : Square {
  SQ_A1 = 0, SQ_B1, SQ_C1, SQ_D1, SQ_E1, SQ_F1, SQ_G1, SQ_H1,
  SQ_A8 = 56, SQ_B8, SQ_C8, SQ_D8, SQ_E8, SQ_F8, SQ_G8, SQ_H8,
};

// file 0..7 is a..h, rank 0..7 is 1..8.
constexpr Square make_square(int file, int rank) { return Square(rank * 8 + file); }
constexpr int file_of(Square s) { return s & 7; }
constexpr int rank_of(Square s) { return s >> 3; }
// The rank as seen by c, from 0: White's rank 1 is Black's rank 8.
constexpr int relative_rank(Color c, Square s) { return c == WHITE ? rank_of(s) : 7 - rank_of(s); }
// The square as seen by c: a White square, mirrored top to bottom for Black.
constexpr Square relative_square(Color c, Square s) { return Square(s ^ (c == WHITE ? 0 : 56)); }
// One step towards the opponent's side: +8 for White, -8 for Black.
constexpr int pawn_push(Color c) { return c == WHITE ? 8 : -8; }

// "e4": the file letter a-h, then the rank digit 1-8.
inline std::string square_name(Square s) { return {char('a' + file_of(s)), char('1' + rank_of(s))}; }

enum PieceType : uint8_t { NO_PIECE_TYPE, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, PIECE_TYPE_NB };

// A piece: bit 3 the colour, bits 0-2 the type. White pieces are 1..6, Black
// 9..14; NO_PIECE is 0.
enum Piece : uint8_t {
  NO_PIECE,
  W_PAWN = 1, W_KNIGHT, W_BISHOP, W_ROOK, W_QUEEN, W_KING,
  B_PAWN = 9, B_KNIGHT, B_BISHOP, B_ROOK, B_QUEEN, B_KING,
  PIECE_NB = 16
};
constexpr Piece make_piece(Color c, PieceType pt) { return Piece(c << 3 | pt); }
constexpr Color color_of(Piece p) { return Color(p >> 3); }
constexpr PieceType type_of(Piece p) { return PieceType(p & 7); }

// FEN letters by piece type, uppercase (White's); index 0 unused.
constexpr char PIECE_TYPE_LETTER[PIECE_TYPE_NB] = {' ', 'P', 'N', 'B', 'R', 'Q', 'K'};
constexpr const char* PIECE_TYPE_NAME[PIECE_TYPE_NB] = {"", "pawn", "knight", "bishop", "rook", "queen", "king"};
constexpr const char* COLOR_NAME[COLOR_NB] = {"White", "Black"};

// Material in pawn units (P 1, N 3, B 3, R 5, Q 9; the king 0), the values
// VPD1's non_pawn_material and material_balance count in.
constexpr int PIECE_VALUE[PIECE_TYPE_NB] = {0, 1, 3, 3, 5, 9, 0};

// Castling rights: one bit each, K = 1, Q = 2, k = 4, q = 8, the order FEN
// writes them and VPD1's castling_mask ("KQkq availability as four bits").
enum CastlingRights : uint8_t {
  NO_CASTLING = 0,
  WHITE_OO = 1, WHITE_OOO = 2, BLACK_OO = 4, BLACK_OOO = 8,
  ALL_CASTLING = 15,
};
constexpr int CASTLING_RIGHT_NB = 4;
// Index i of these tables is the right 1 << i.
constexpr char CASTLING_LETTER[CASTLING_RIGHT_NB] = {'K', 'Q', 'k', 'q'};
constexpr Color CASTLING_COLOR[CASTLING_RIGHT_NB] = {WHITE, WHITE, BLACK, BLACK};
// Where the king and the rook stand for the right, and where they go.
constexpr Square CASTLING_KING_FROM[CASTLING_RIGHT_NB] = {SQ_E1, SQ_E1, SQ_E8, SQ_E8};
constexpr Square CASTLING_KING_TO[CASTLING_RIGHT_NB] = {SQ_G1, SQ_C1, SQ_G8, SQ_C8};
constexpr Square CASTLING_ROOK_FROM[CASTLING_RIGHT_NB] = {SQ_H1, SQ_A1, SQ_H8, SQ_A8};
constexpr Square CASTLING_ROOK_TO[CASTLING_RIGHT_NB] = {SQ_F1, SQ_D1, SQ_F8, SQ_D8};

}  // namespace manaka::chess
