// VPD1 position features: the columns of a `positions` row that are a
// function of the board alone (../../shared/spec/vpd1-position-dataset.md,
// docs/vpd1.md), and the deterministic phase rule.
#pragma once

#include <cstdint>
#include <string>

#include "chess/position.h"

namespace manaka::vpd {

// VPD1's `phase` column.
enum Phase : uint8_t { OPENING = 0, MIDDLEGAME = 1, ENDGAME = 2, PHASE_NB = 3 };
constexpr const char* PHASE_NAME[PHASE_NB] = {"opening", "middlegame", "endgame"};

// The phase thresholds of the spec, in pawn units (N 3, B 3, R 5, Q 9) and
// occupied squares.
constexpr int OPENING_MAX_PLY = 20;
constexpr int OPENING_MIN_NON_PAWN_MATERIAL = 50;
constexpr int ENDGAME_MAX_NON_PAWN_MATERIAL = 20;
constexpr int ENDGAME_MAX_PIECES = 12;

// The spec's rule, tested in the order it lists them (the first that holds
// wins): opening when ply <= 20 and non_pawn_material >= 50; else endgame
// when non_pawn_material <= 20 or piece_count <= 12; else middlegame. The
// two first overlap only with at most 12 pieces carrying 50 non-pawn
// material (say two queens, four rooks and four bishops at ply 20 or
// earlier, reachable from a FEN tag only); that position is an opening.
Phase phase_of(int ply, int non_pawn_material, int piece_count);

// The ply of a position in its game, from the position alone:
// 2 * (fullmove_number - 1), plus 1 when Black is to move. For a game from
// the initial position it is the number of moves played; a game from a FEN
// tag continues that FEN's numbering.
int game_ply(const chess::Position& pos);

// A row's normalized FEN with the fullmove number its ply gives back,
// ply / 2 + 1 (game_ply's inverse), in place of the stored 1: the FEN the
// game had, as `manaka vpd sample` prints it.
std::string fen_at_ply(const std::string& normalized_fen, int ply);

struct Features {
  std::string fen;            // normalized_fen(): fullmove number 1
  int side_to_move = 1;       // 1 White, 0 Black (the core's WHITE is 0)
  int piece_count = 0;        // occupied squares, kings included
  int non_pawn_material = 0;  // N/B/R/Q of both sides, pawn units
  int material_balance = 0;   // White minus Black, pawns included, kings 0
  int legal_moves = 0;
  bool in_check = false;
  int castling_mask = 0;      // K 1, Q 2, k 4, q 8
  int halfmove_clock = 0;
};

Features features_of(const chess::Position& pos);

}  // namespace manaka::vpd
