#include "chess/zobrist.h"

#include "chess/position.h"
#include "core/splitmix64.h"

namespace manaka::chess {
namespace {

// Any fixed seed would do; this one is "zobrist" in ASCII.
constexpr uint64_t ZOBRIST_SEED = 0x7A6F6272697374ULL;

constexpr ZobristKeys make_keys() {
  SplitMix64 rng(ZOBRIST_SEED);
  ZobristKeys k{};
  for (int c = WHITE; c <= BLACK; ++c)
    for (int pt = PAWN; pt <= KING; ++pt)
      for (int s = 0; s < SQUARE_NB; ++s) k.piece_square[make_piece(Color(c), PieceType(pt))][size_t(s)] = rng.next();
  k.black_to_move = rng.next();
  for (int mask = 1; mask <= ALL_CASTLING; ++mask) k.castling[size_t(mask)] = rng.next();
  for (int f = 0; f < FILE_NB; ++f) k.en_passant[size_t(f)] = rng.next();
  return k;
}

}  // namespace

constinit const ZobristKeys ZOBRIST = make_keys();

uint64_t compute_key(const Position& pos) {
  uint64_t key = 0;
  for (Bitboard b = pos.pieces(); b;) {
    const Square s = pop_lsb(b);
    key ^= ZOBRIST.piece_square[pos.piece_on(s)][s];
  }
  if (pos.side_to_move() == BLACK) key ^= ZOBRIST.black_to_move;
  key ^= ZOBRIST.castling[pos.castling_rights()];
  if (pos.has_legal_en_passant()) key ^= ZOBRIST.en_passant[file_of(pos.ep_square())];
  return key;
}

}  // namespace manaka::chess
