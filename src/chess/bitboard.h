// 64-square bitboards and piece attacks.
//
// Bit i of a Bitboard is square i (types.h): bit 0 is a1, bit 7 h1, bit 63
// h8. A shift left by 8 moves every square one rank up.
//
// Step attacks (pawn, knight, king) come from tables. A slider attack walks
// each of its rays to the first blocker, found with one bit scan: the lowest
// blocker on rays whose indices rise, the highest on rays whose indices fall.
// A sentinel bit on the far corner (h8 for rising rays, a1 for falling ones,
// whose rays from there are empty) makes the scan branch-free. All tables
// are built at compile time.
#pragma once

#include <array>
#include <cstdint>

#include "chess/types.h"

namespace manaka::chess {

using Bitboard = uint64_t;

constexpr Bitboard ALL_BB = ~Bitboard(0);
constexpr Bitboard FILE_A_BB = 0x0101010101010101ULL;
constexpr Bitboard FILE_H_BB = FILE_A_BB << 7;
constexpr Bitboard RANK_1_BB = 0xFFULL;

constexpr Bitboard square_bb(Square s) { return Bitboard(1) << s; }
constexpr Bitboard file_bb(int file) { return FILE_A_BB << file; }
constexpr Bitboard rank_bb(int rank) { return RANK_1_BB << (8 * rank); }
// c's relative rank r (0 = its first rank).
constexpr Bitboard relative_rank_bb(Color c, int r) { return rank_bb(c == WHITE ? r : 7 - r); }
constexpr bool more_than_one(Bitboard b) { return (b & (b - 1)) != 0; }

inline int popcount(Bitboard b) {
#if defined(__POPCNT__)
  return __builtin_popcountll(b);
#else
  // SWAR count, so a build without -mpopcnt does not call libgcc per word.
  b = b - ((b >> 1) & 0x5555555555555555ULL);
  b = (b & 0x3333333333333333ULL) + ((b >> 2) & 0x3333333333333333ULL);
  b = (b + (b >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
  return int((b * 0x0101010101010101ULL) >> 56);
#endif
}

// Lowest and highest set square; b must not be empty.
inline Square lsb(Bitboard b) { return Square(__builtin_ctzll(b)); }
inline Square msb(Bitboard b) { return Square(63 - __builtin_clzll(b)); }
inline Square pop_lsb(Bitboard& b) {
  Square s = lsb(b);
  b &= b - 1;
  return s;
}

// Every square moved one rank towards the opponent of c (pawn pushes), and
// one file left or right; squares pushed off the board are dropped.
constexpr Bitboard push(Color c, Bitboard b) { return c == WHITE ? b << 8 : b >> 8; }
constexpr Bitboard shift_west(Bitboard b) { return (b & ~FILE_A_BB) >> 1; }
constexpr Bitboard shift_east(Bitboard b) { return (b & ~FILE_H_BB) << 1; }
// The squares c's pawns in b attack.
constexpr Bitboard pawn_attacks_bb(Color c, Bitboard b) {
  return push(c, shift_west(b) | shift_east(b));
}

// Ray directions. N is towards rank 8, E towards the h-file; DIR_DELTA is
// the index step. N, NE, E and NW raise the index; the others lower it.
enum Direction : uint8_t { DIR_N, DIR_NE, DIR_E, DIR_SE, DIR_S, DIR_SW, DIR_W, DIR_NW, DIR_NB };
constexpr int DIR_DELTA[DIR_NB] = {8, 9, 1, -7, -8, -9, -1, 7};
constexpr bool rising(Direction d) { return DIR_DELTA[d] > 0; }

using SquareTable = std::array<Bitboard, SQUARE_NB>;

// RAYS[d][s]: the squares from s (exclusive) to the board edge in direction d.
extern const std::array<SquareTable, DIR_NB> RAYS;
// PAWN_ATTACKS[c][s]: the squares a pawn of colour c on s attacks.
extern const std::array<SquareTable, COLOR_NB> PAWN_ATTACKS;
extern const SquareTable KNIGHT_ATTACKS;
extern const SquareTable KING_ATTACKS;
// BETWEEN[a][b]: the squares strictly between a and b on a shared rank,
// file or diagonal, else empty.
extern const std::array<SquareTable, SQUARE_NB> BETWEEN;
// LINE[a][b]: the whole line (edge to edge) through a and b, both included,
// when they share one, else empty.
extern const std::array<SquareTable, SQUARE_NB> LINE;

template <Direction D>
inline Bitboard ray_attacks(Square s, Bitboard occ) {
  const Bitboard ray = RAYS[D][s];
  if constexpr (rising(D))
    return ray ^ RAYS[D][lsb((ray & occ) | square_bb(SQ_H8))];
  else
    return ray ^ RAYS[D][msb((ray & occ) | square_bb(SQ_A1))];
}

inline Bitboard rook_attacks(Square s, Bitboard occ) {
  return ray_attacks<DIR_N>(s, occ) | ray_attacks<DIR_E>(s, occ) |
         ray_attacks<DIR_S>(s, occ) | ray_attacks<DIR_W>(s, occ);
}
inline Bitboard bishop_attacks(Square s, Bitboard occ) {
  return ray_attacks<DIR_NE>(s, occ) | ray_attacks<DIR_NW>(s, occ) |
         ray_attacks<DIR_SE>(s, occ) | ray_attacks<DIR_SW>(s, occ);
}

// Attacks of a piece of type pt (not a pawn) standing on s.
inline Bitboard attacks(PieceType pt, Square s, Bitboard occ) {
  switch (pt) {
    case KNIGHT: return KNIGHT_ATTACKS[s];
    case BISHOP: return bishop_attacks(s, occ);
    case ROOK: return rook_attacks(s, occ);
    case QUEEN: return bishop_attacks(s, occ) | rook_attacks(s, occ);
    case KING: return KING_ATTACKS[s];
    default: return 0;
  }
}

}  // namespace manaka::chess
