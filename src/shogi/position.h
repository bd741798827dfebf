// Position: the board, both hands, the side to move and an undo chain of
// StateInfo records the caller owns (Stockfish style).
//
// Every Position that exists meets the rules from_setup checks: one king a
// side, no piece that can never move again, no two unpromoted pawns of a
// colour on a file, no more pieces than a set, the side not to move not in
// check. Move generation relies on them.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/status.h"
#include "shogi/bitboard.h"
#include "shogi/move.h"
#include "shogi/types.h"

namespace manaka::shogi {

// What do_move records for undo_move and for the new position. The caller
// owns it and keeps it alive until the matching undo_move.
struct StateInfo {
  uint64_t key = 0;           // Position::key() of the position it belongs to
  Bitboard checkers = 0;      // pieces giving check to the side to move
  Piece captured = NO_PIECE;  // what the move that led here took
  StateInfo* previous = nullptr;
};

// A position before its rules are checked: what SFEN text and packed bytes
// both decode to.
struct Setup {
  std::array<Piece, SQUARE_NB> board;  // by square index, NO_PIECE if empty
  std::array<std::array<uint8_t, HAND_KIND_NB>, COLOR_NB> hand{};  // P L N S G B R
  Color side = BLACK;
  int move_number = 1;
  Setup() { board.fill(NO_PIECE); }
};

class Position {
 public:
  // A copy holds the same position without the undo history: undo_move on
  // the copy may go no further back than the position copied.
  Position(const Position& other)
      : board_(other.board_),
        by_color_(other.by_color_),
        by_kind_(other.by_kind_),
        hand_(other.hand_),
        king_(other.king_),
        side_(other.side_),
        move_number_(other.move_number_),
        root_(*other.st_) {
    root_.previous = nullptr;
  }
  Position& operator=(const Position& other);

  static Position startpos();
  // "<board> <side> <hands> [<move number>]", optionally after "sfen ", or
  // "startpos". A refusal names the offset and what was expected, or the
  // rule the position breaks (see from_setup).
  static Result<Position> from_sfen(std::string_view sfen);
  // Refuses a setup that breaks a rule of the game, naming the rule; *where
  // receives the square at fault, or -1 when the rule is not about one.
  static Result<Position> from_setup(const Setup& setup, int* where = nullptr);
  // Board, side, hands (R B G S N L P, Black's then White's, "-" if none),
  // move number.
  std::string sfen() const;
  // The same text written to out (at least SFEN_MAX chars, not terminated);
  // returns its length. For comparing against stored SFENs without allocating.
  static constexpr size_t SFEN_MAX = 256;
  size_t write_sfen(char* out) const;

  Color side_to_move() const { return side_; }
  int move_number() const { return move_number_; }
  Piece piece_on(Square s) const { return board_[s]; }
  int hand_count(Color c, HandKind hk) const { return hand_[c][hk]; }
  uint64_t key() const { return st_->key; }  // Zobrist: board, hands, side

  bool in_check() const { return st_->checkers != 0; }
  Bitboard checkers() const { return st_->checkers; }
  // Full legality of any 16-bit value; false for garbage.
  bool is_legal(Move m) const { return is_legal(m, pinned(side_, pieces())); }
  // The same, with our_pinned = pinned(side_to_move(), pieces()) computed
  // once for many moves of one position (the costly part of a single check).
  bool is_legal(Move m, Bitboard our_pinned) const;
  // m is assumed legal.
  bool gives_check(Move m) const;
  // m is assumed legal; st must outlive the matching undo_move.
  void do_move(Move m, StateInfo& st);
  // m is the last move done.
  void undo_move(Move m);

  Bitboard pieces() const { return by_color_[BLACK] | by_color_[WHITE]; }
  Bitboard pieces(Color c) const { return by_color_[c]; }
  Bitboard pieces(Kind k) const { return by_kind_[k]; }
  Bitboard pieces(Color c, Kind k) const { return by_color_[c] & by_kind_[k]; }
  // Gold and the four kinds that move like it once promoted.
  Bitboard golds() const {
    return by_kind_[GOLD] | by_kind_[PRO_SILVER] | by_kind_[PRO_KNIGHT] | by_kind_[PRO_LANCE] |
           by_kind_[PRO_PAWN];
  }
  Square king_square(Color c) const { return king_[c]; }

  // Pieces of colour `by` attacking s, sliders seen through occupancy occ.
  Bitboard attackers_to(Color by, Square s, Bitboard occ) const;
  // c's pieces that are the only thing between c's king and an enemy slider.
  Bitboard pinned(Color c, Bitboard occ) const;
  // Whether the side to move dropping a pawn on `to`, in front of the enemy
  // king, would mate (uchifuzume, so the drop is illegal). `to` is empty.
  bool pawn_drop_mates(Square to) const;

 private:
  Position() { board_.fill(NO_PIECE); }
  void put(Color c, Kind k, Square s);
  void remove(Color c, Kind k, Square s);

  std::array<Piece, SQUARE_NB> board_;
  std::array<Bitboard, COLOR_NB> by_color_{};
  std::array<Bitboard, KIND_NB> by_kind_{};
  std::array<std::array<uint8_t, HAND_KIND_NB>, COLOR_NB> hand_{};
  std::array<Square, COLOR_NB> king_{};
  Color side_ = BLACK;
  int move_number_ = 1;
  StateInfo root_;
  StateInfo* st_ = &root_;
};

}  // namespace manaka::shogi
