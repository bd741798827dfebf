#include "vpd/features.h"

#include <algorithm>

#include "chess/bitboard.h"
#include "chess/movegen.h"

namespace manaka::vpd {

Phase phase_of(int ply, int non_pawn_material, int piece_count) {
  if (ply <= OPENING_MAX_PLY && non_pawn_material >= OPENING_MIN_NON_PAWN_MATERIAL) return OPENING;
  if (non_pawn_material <= ENDGAME_MAX_NON_PAWN_MATERIAL || piece_count <= ENDGAME_MAX_PIECES) return ENDGAME;
  return MIDDLEGAME;
}

int game_ply(const chess::Position& pos) {
  return 2 * (pos.fullmove_number() - 1) + (pos.side_to_move() == chess::BLACK ? 1 : 0);
}

std::string fen_at_ply(const std::string& normalized_fen, int ply) {
  return normalized_fen.substr(0, normalized_fen.rfind(' ') + 1) + std::to_string(std::max(ply, 0) / 2 + 1);
}

Features features_of(const chess::Position& pos) {
  Features f;
  f.fen = pos.normalized_fen();
  f.side_to_move = pos.side_to_move() == chess::WHITE ? 1 : 0;
  f.piece_count = chess::popcount(pos.pieces());
  f.non_pawn_material = pos.non_pawn_material();
  f.material_balance = pos.material(chess::WHITE) - pos.material(chess::BLACK);
  f.legal_moves = chess::count_legal(pos);
  f.in_check = pos.in_check();
  f.castling_mask = pos.castling_rights();
  f.halfmove_clock = pos.halfmove_clock();
  return f;
}

}  // namespace manaka::vpd
