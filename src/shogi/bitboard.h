// 81-square bitboards and piece attacks.
//
// Bit i of a Bitboard is square i (types.h), held in one unsigned __int128;
// bits 81..127 are always clear. A file is nine consecutive bits, rank 1
// lowest, so a shift right by 1 moves every square one rank towards rank 1
// and a shift left by 9 one file towards file 1.
//
// Step attacks come from tables; slider attacks walk a ray to its first
// blocker, found with one bit scan (lowest bit on rays whose indices rise,
// highest on rays whose indices fall). All tables are built at compile time.
#pragma once

#include <array>
#include <cstdint>

#include "shogi/types.h"

namespace manaka::shogi {

using Bitboard = unsigned __int128;

constexpr Bitboard ALL_BB = (Bitboard(1) << SQUARE_NB) - 1;
constexpr Bitboard square_bb(Square s) { return Bitboard(1) << s; }
constexpr bool more_than_one(Bitboard b) { return (b & (b - 1)) != 0; }

// Squares on one rank: bits r-1, r-1+9, ..., r-1+72.
constexpr Bitboard rank_bb(int rank) {
  Bitboard b = 0;
  for (int f = 1; f <= FILE_NB; ++f) b |= square_bb(make_square(f, rank));
  return b;
}
constexpr Bitboard file_bb(int file) { return Bitboard(0x1FF) << ((9 - file) * 9); }

// c's relative ranks 1..n: n = 1 is the last rank (rank 1 for Black, rank 9
// for White), 2 the last two, 3 the promotion zone.
constexpr Bitboard first_ranks(Color c, int n) {
  Bitboard b = 0;
  for (int r = 1; r <= n; ++r) b |= rank_bb(c == BLACK ? r : 10 - r);
  return b;
}

inline int popcount(Bitboard b) {
  auto lo = uint64_t(b), hi = uint64_t(b >> 64);
#if defined(__POPCNT__)
  return __builtin_popcountll(lo) + __builtin_popcountll(hi);
#else
  // SWAR count, so a build without -mpopcnt does not call libgcc per word.
  auto count = [](uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return int((x * 0x0101010101010101ULL) >> 56);
  };
  return count(lo) + count(hi);
#endif
}

// Lowest and highest set square; b must not be empty.
inline Square lsb(Bitboard b) {
  auto lo = uint64_t(b);
  return Square(lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll(uint64_t(b >> 64)));
}
inline Square msb(Bitboard b) {
  auto hi = uint64_t(b >> 64);
  return Square(hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll(uint64_t(b)));
}
inline Square pop_lsb(Bitboard& b) {
  Square s = lsb(b);
  b &= b - 1;
  return s;
}

// Ray directions. N is towards rank 1, E towards file 1; the index step of
// each is DIR_DELTA. S, E, NE, SE raise the index; the others lower it.
enum Direction : uint8_t { DIR_N, DIR_NE, DIR_E, DIR_SE, DIR_S, DIR_SW, DIR_W, DIR_NW, DIR_NB };
constexpr Direction DIR_NONE = DIR_NB;
constexpr int DIR_DELTA[DIR_NB] = {-1, 8, 9, 10, 1, -8, -9, -10};
constexpr bool rising(Direction d) { return DIR_DELTA[d] > 0; }

using SquareTable = std::array<Bitboard, SQUARE_NB>;

// RAYS[d][s]: the squares from s (exclusive) to the board edge in direction d.
extern const std::array<SquareTable, DIR_NB> RAYS;
// DIRECTION[a][b]: the direction from a to b, DIR_NONE unless on one line.
extern const std::array<std::array<Direction, SQUARE_NB>, SQUARE_NB> DIRECTION;
// STEP[c][k][s]: where a piece of colour c and kind k on s moves in one
// step; empty for the rook, bishop and lance, the step half of a dragon or
// horse.
extern const std::array<std::array<SquareTable, KIND_NB>, COLOR_NB> STEP;
// PSEUDO[c][k][s]: attacks of the piece on an empty board.
extern const std::array<std::array<SquareTable, KIND_NB>, COLOR_NB> PSEUDO;

// The squares strictly between a and b when on one line, else empty.
inline Bitboard between_bb(Square a, Square b) {
  Direction d = DIRECTION[a][b];
  return d == DIR_NONE ? 0 : RAYS[d][a] ^ RAYS[d][b] ^ square_bb(b);
}
// The squares between a and b plus b itself: where a check from b is met.
inline Bitboard check_block_bb(Square king, Square checker) {
  Direction d = DIRECTION[king][checker];
  return d == DIR_NONE ? square_bb(checker) : RAYS[d][king] ^ RAYS[d][checker];
}
// True when c lies on the ray from a through b (a pinned piece on b may go to c).
inline bool on_ray(Square a, Square b, Square c) {
  Direction d = DIRECTION[a][b];
  return d != DIR_NONE && (RAYS[d][a] & square_bb(c));
}

template <Direction D>
inline Bitboard ray_attacks(Square s, Bitboard occ) {
  Bitboard ray = RAYS[D][s];
  Bitboard blockers = ray & occ;
  if (!blockers) return ray;
  return ray ^ RAYS[D][rising(D) ? lsb(blockers) : msb(blockers)];
}

inline Bitboard rook_attacks(Square s, Bitboard occ) {
  return ray_attacks<DIR_N>(s, occ) | ray_attacks<DIR_S>(s, occ) |
         ray_attacks<DIR_E>(s, occ) | ray_attacks<DIR_W>(s, occ);
}
inline Bitboard bishop_attacks(Square s, Bitboard occ) {
  return ray_attacks<DIR_NE>(s, occ) | ray_attacks<DIR_NW>(s, occ) |
         ray_attacks<DIR_SE>(s, occ) | ray_attacks<DIR_SW>(s, occ);
}
inline Bitboard lance_attacks(Color c, Square s, Bitboard occ) {
  return c == BLACK ? ray_attacks<DIR_N>(s, occ) : ray_attacks<DIR_S>(s, occ);
}

// Attacks of a piece of colour c and kind k standing on s.
inline Bitboard attacks(Color c, Kind k, Square s, Bitboard occ) {
  switch (k) {
    case ROOK: return rook_attacks(s, occ);
    case BISHOP: return bishop_attacks(s, occ);
    case LANCE: return lance_attacks(c, s, occ);
    case PRO_ROOK: return rook_attacks(s, occ) | STEP[c][k][s];
    case PRO_BISHOP: return bishop_attacks(s, occ) | STEP[c][k][s];
    default: return STEP[c][k][s];
  }
}

}  // namespace manaka::shogi
