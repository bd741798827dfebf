// Position: the board, the side to move, castling rights, the en-passant
// square, the two move counters and the Zobrist key. A Position is a small
// value (168 bytes): moves are made by copying it and calling do_move on the
// copy (copy-make), so there is no undo.
//
// Every Position that exists meets the rules from_setup checks: one king a
// side, no pawn on rank 1 or 8, no more pieces than a set and its
// promotions allow, the side not to move not in check, castling rights only
// with king and rook at home, and an en-passant square only behind a pawn
// that can just have moved two squares. Move generation relies on them.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "chess/bitboard.h"
#include "chess/move.h"
#include "chess/types.h"
#include "core/status.h"

namespace manaka::chess {

// A position before its rules are checked: what FEN text decodes to.
struct Setup {
  std::array<Piece, SQUARE_NB> board{};  // by square index, NO_PIECE if empty
  Color side = WHITE;
  uint8_t castling = NO_CASTLING;  // CastlingRights bits
  Square ep = SQ_NONE;             // the en-passant square, SQ_NONE if none
  int halfmove_clock = 0;
  int fullmove_number = 1;
};

class Position {
 public:
  static constexpr int FULLMOVE_MAX = 1'000'000'000;
  static constexpr int HALFMOVE_MAX = 1'000'000'000;

  static Position startpos();
  // "<board> <side> <castling> <en passant> <halfmove clock> <fullmove
  // number>", or the first four fields alone (then "0 1"), or "startpos".
  // Surrounding whitespace is ignored; fields are separated by one space. A
  // refusal names the text and the character offset and what was expected
  // there, or the rule the position breaks (see from_setup).
  static Result<Position> from_fen(std::string_view fen);
  // Refuses a setup that breaks a rule (see the top of this file), naming it.
  static Result<Position> from_setup(const Setup& setup);

  // The canonical six-field FEN, character for character what python-chess
  // 1.11's Board.fen() prints: castling rights in KQkq order or "-", and the
  // en-passant square only when a legal en-passant capture exists
  // (python-chess's default en_passant="legal"), "-" otherwise.
  std::string fen() const;
  // fen() with the fullmove number set to 1: VPD1's position identity.
  std::string normalized_fen() const;

  Color side_to_move() const { return side_; }
  Piece piece_on(Square s) const { return board_[s]; }
  uint8_t castling_rights() const { return castling_; }  // CastlingRights bits
  // The square a pawn just passed over moving two squares, whether or not
  // a capture there is possible (as python-chess's Board.ep_square);
  // SQ_NONE when the last move was not a double push.
  Square ep_square() const { return ep_; }
  int halfmove_clock() const { return halfmove_; }
  int fullmove_number() const { return fullmove_; }
  // The Zobrist key (zobrist.h): equal for two positions exactly when
  // python-chess's Board._transposition_key() is (board, side to move,
  // castling rights, and the en-passant square only when a legal capture
  // exists; not the counters).
  uint64_t key() const { return key_; }

  Bitboard pieces() const { return by_color_[WHITE] | by_color_[BLACK]; }
  Bitboard pieces(Color c) const { return by_color_[c]; }
  Bitboard pieces(PieceType pt) const { return by_type_[pt]; }
  Bitboard pieces(PieceType a, PieceType b) const { return by_type_[a] | by_type_[b]; }
  Bitboard pieces(Color c, PieceType pt) const { return by_color_[c] & by_type_[pt]; }
  Square king_square(Color c) const { return lsb(pieces(c, KING)); }

  bool in_check() const { return checkers_ != 0; }
  // The enemy pieces giving check to the side to move.
  Bitboard checkers() const { return checkers_; }
  // Pieces of both colours attacking s, sliders seen through occupancy occ.
  Bitboard attackers_to(Square s, Bitboard occ) const;
  // c's pieces that are the only piece between c's king and an enemy slider.
  Bitboard pinned(Color c) const;
  // Whether a legal en-passant capture exists.
  bool has_legal_en_passant() const;
  // Whether our pawn on `from`, which attacks ep_square(), may capture en
  // passant without leaving our king attacked, including along the rank the
  // two pawns leave together.
  bool en_passant_legal(Square from) const;

  // Full legality of any 16-bit value; false for garbage and for MOVE_NONE.
  // Decided from the rules directly, not by generating moves, so it is an
  // independent check of movegen.
  bool is_legal(Move m) const;
  // Plays m, which is assumed legal. To keep the position, copy it first.
  void do_move(Move m);

  // Material in pawn units (types.h, PIECE_VALUE): c's pieces, and the
  // knights, bishops, rooks and queens of both sides together.
  int material(Color c) const;
  int non_pawn_material() const;

 private:
  Position() = default;
  // put and remove keep the board's share of key_.
  void put(Piece p, Square s);
  void remove(Square s);
  bool can_castle(int right) const;

  std::array<Piece, SQUARE_NB> board_{};
  std::array<Bitboard, COLOR_NB> by_color_{};
  std::array<Bitboard, PIECE_TYPE_NB> by_type_{};  // [NO_PIECE_TYPE] unused
  Bitboard checkers_ = 0;
  uint64_t key_ = 0;
  Color side_ = WHITE;
  uint8_t castling_ = NO_CASTLING;
  Square ep_ = SQ_NONE;
  int halfmove_ = 0;
  int fullmove_ = 1;
};

}  // namespace manaka::chess
