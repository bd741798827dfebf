// Legal move generation under the full rules: castling (not out of,
// through or into check, with the squares between king and rook empty),
// en passant (including the capture that would expose the king along the
// rank both pawns leave), promotions to queen, rook, bishop and knight,
// checks, pins and evasions.
#pragma once

#include <cassert>

#include "chess/move.h"
#include "chess/position.h"

namespace manaka::chess {

// The most legal moves of any reachable position is 218 (proved in 2024 by
// an exhaustive integer-programming search over placements of a set and its
// promotions); Position's material rules (position.h) keep every position
// within such placements, up to the colour of a promoted bishop. Without
// them 288 is possible, so they are what makes 256 enough.
constexpr int MAX_MOVES = 256;

// A buffer the caller owns; generate_legal appends to it.
struct MoveList {
  Move moves[MAX_MOVES];
  int size = 0;

  void push(Move m) {
    assert(size < MAX_MOVES);
    moves[size++] = m;
  }
  Move operator[](int i) const { return moves[i]; }
  bool empty() const { return size == 0; }
  Move* begin() { return moves; }
  Move* end() { return moves + size; }
  const Move* begin() const { return moves; }
  const Move* end() const { return moves + size; }
  bool contains(Move m) const;
};

// Appends every legal move of pos, in no particular order.
void generate_legal(const Position& pos, MoveList& list);
// The number of legal moves, counted from destination sets without listing.
int count_legal(const Position& pos);

}  // namespace manaka::chess
