// Zobrist keys of chess positions: a 64-bit key equal for two positions
// exactly when python-chess 1.11's Board._transposition_key() is, which is
// what its repetition rules compare (up to 64-bit collisions):
//
//   key = XOR of PIECE_SQUARE[piece][square] over the occupied squares
//       ^ BLACK_TO_MOVE                    when Black is to move
//       ^ CASTLING[castling rights]         one key per KQkq mask (CASTLING[0] = 0)
//       ^ EN_PASSANT[file of ep_square()]   only when a legal en-passant capture exists
//
// The counters are not part of it. The en-passant file alone suffices: the
// side to move fixes the rank. Position keeps its key up to date in do_move
// and computes it in from_setup; compute_key is the same sum from scratch.
//
// The numbers are successive SplitMix64 outputs from a fixed seed, drawn at
// compile time in the order of the table below, so a key means the same on
// every platform and build.
#pragma once

#include <array>
#include <cstdint>

#include "chess/types.h"

namespace manaka::chess {

class Position;

struct ZobristKeys {
  std::array<std::array<uint64_t, SQUARE_NB>, PIECE_NB> piece_square;  // rows of NO_PIECE and 7, 8, 15 are 0
  uint64_t black_to_move;
  std::array<uint64_t, ALL_CASTLING + 1> castling;  // by the KQkq mask; [NO_CASTLING] is 0
  std::array<uint64_t, FILE_NB> en_passant;         // by the file of the en-passant square
};

extern const ZobristKeys ZOBRIST;

// pos's key summed from scratch; Position::key() is the same value kept
// incrementally.
uint64_t compute_key(const Position& pos);

}  // namespace manaka::chess
