// Legal move generation under the full rules: promotion options and forced
// promotions, drops only where the piece can move again, nifu, uchifuzume,
// checks, pins and evasions. Where a move may or may not promote, both moves
// are legal and both are generated (as cshogi does).
#pragma once

#include <bitset>

#include "shogi/move.h"
#include "shogi/position.h"

namespace manaka::shogi {

// The most legal moves of any shogi position is 593.
constexpr int MAX_MOVES = 600;

// A buffer the caller owns; generate_legal appends to it.
struct MoveList {
  Move moves[MAX_MOVES];
  int size = 0;

  void push(Move m) { moves[size++] = m; }
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
// Bit m.raw is set for each legal move m (bit 15 of a move is always clear).
std::bitset<32768> legal_mask(const Position& pos);

}  // namespace manaka::shogi
