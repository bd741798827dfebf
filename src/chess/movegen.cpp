// One generator, templated on a sink that either counts or lists.
//
// Legality is settled while generating, without playing the move: the king
// steps only to squares no enemy piece attacks once the king has left its
// square; in check, other pieces must capture the checker or block its line
// (only the king moves in double check); a pinned piece stays on the line
// through its king; an en-passant capture is tested on the board it leaves
// (Position::en_passant_legal).
#include "chess/movegen.h"

#include <algorithm>

namespace manaka::chess {
namespace {

constexpr PieceType PROMOTIONS[] = {QUEEN, ROOK, BISHOP, KNIGHT};

// Counts: one move per destination, four per promoting destination.
struct Counter {
  int n = 0;
  void moves(Square, Bitboard to) { n += popcount(to); }
  void pawn_moves(Bitboard to, int) { n += popcount(to); }
  void promotions(Bitboard to, int) { n += 4 * popcount(to); }
  void promotions_from(Square, Bitboard to) { n += 4 * popcount(to); }
  void move(Move) { ++n; }
};

// Lists; pawn moves come as destination sets with the step `delta` from
// their origin (from = to - delta).
struct Lister {
  MoveList& list;
  void moves(Square from, Bitboard to) {
    while (to) list.push(Move::make(from, pop_lsb(to)));
  }
  void pawn_moves(Bitboard to, int delta) {
    while (to) {
      Square s = pop_lsb(to);
      list.push(Move::make(Square(s - delta), s));
    }
  }
  void promotions(Bitboard to, int delta) {
    while (to) {
      Square s = pop_lsb(to);
      for (PieceType pt : PROMOTIONS) list.push(Move::make(Square(s - delta), s, pt));
    }
  }
  void promotions_from(Square from, Bitboard to) {
    while (to) {
      Square s = pop_lsb(to);
      for (PieceType pt : PROMOTIONS) list.push(Move::make(from, s, pt));
    }
  }
  void move(Move m) { list.push(m); }
};

// Every square c attacks, sliders seen through occ.
Bitboard attacked_by(const Position& pos, Color c, Bitboard occ) {
  Bitboard a = pawn_attacks_bb(c, pos.pieces(c, PAWN)) | KING_ATTACKS[pos.king_square(c)];
  for (Bitboard b = pos.pieces(c, KNIGHT); b;) a |= KNIGHT_ATTACKS[pop_lsb(b)];
  for (Bitboard b = pos.pieces(BISHOP, QUEEN) & pos.pieces(c); b;) a |= bishop_attacks(pop_lsb(b), occ);
  for (Bitboard b = pos.pieces(ROOK, QUEEN) & pos.pieces(c); b;) a |= rook_attacks(pop_lsb(b), occ);
  return a;
}

template <class Sink>
void generate_pawns(const Position& pos, Sink& sink, Bitboard target, Bitboard pinned, Square ksq) {
  const Color us = pos.side_to_move();
  const int up = pawn_push(us);
  const Bitboard empty = ~pos.pieces(), enemy = pos.pieces(~us);
  const Bitboard last_rank = relative_rank_bb(us, 7), third_rank = relative_rank_bb(us, 2);
  const Bitboard pawns = pos.pieces(us, PAWN);

  // Unpinned pawns move as one set per kind of step.
  const Bitboard free = pawns & ~pinned;
  const Bitboard single = push(us, free) & empty;
  const Bitboard dbl = push(us, single & third_rank) & empty & target;
  const Bitboard pushes = single & target;
  // Captures towards the a-file (west) and the h-file (east): the origin is
  // one push back and one file the other way.
  const Bitboard west = push(us, shift_west(free)) & enemy & target;
  const Bitboard east = push(us, shift_east(free)) & enemy & target;
  sink.pawn_moves(pushes & ~last_rank, up);
  sink.pawn_moves(dbl, 2 * up);
  sink.pawn_moves(west & ~last_rank, up - 1);
  sink.pawn_moves(east & ~last_rank, up + 1);
  sink.promotions(pushes & last_rank, up);
  sink.promotions(west & last_rank, up - 1);
  sink.promotions(east & last_rank, up + 1);

  // Pinned pawns one by one, each kept on the line through its king.
  for (Bitboard b = pawns & pinned; b;) {
    const Square from = pop_lsb(b);
    const Bitboard one = push(us, square_bb(from)) & empty;
    Bitboard to = (one | (push(us, one & third_rank) & empty) | (PAWN_ATTACKS[us][from] & enemy)) & target &
                  LINE[ksq][from];
    sink.moves(from, to & ~last_rank);
    sink.promotions_from(from, to & last_rank);
  }

  // En passant, each capture tested on the board it leaves; this also
  // settles captures in check (taking the checking pawn, or blocking).
  if (pos.ep_square() != SQ_NONE) {
    const Square ep = pos.ep_square();
    for (Bitboard b = PAWN_ATTACKS[~us][ep] & pawns; b;) {
      const Square from = pop_lsb(b);
      if (pos.en_passant_legal(from)) sink.move(Move::make(from, ep));
    }
  }
}

template <class Sink>
void generate(const Position& pos, Sink& sink) {
  const Color us = pos.side_to_move(), them = ~us;
  const Square ksq = pos.king_square(us);
  const Bitboard occ = pos.pieces(), own = pos.pieces(us), checkers = pos.checkers();
  const Bitboard attacked = attacked_by(pos, them, occ ^ square_bb(ksq));

  sink.moves(ksq, KING_ATTACKS[ksq] & ~own & ~attacked);
  if (more_than_one(checkers)) return;

  Bitboard target = ~own;
  if (checkers) target = BETWEEN[ksq][lsb(checkers)] | checkers;
  const Bitboard pinned = pos.pinned(us);

  generate_pawns(pos, sink, target, pinned, ksq);

  for (Bitboard b = pos.pieces(us, KNIGHT) & ~pinned; b;) {
    const Square from = pop_lsb(b);
    sink.moves(from, KNIGHT_ATTACKS[from] & target);
  }
  for (Bitboard b = pos.pieces(BISHOP, QUEEN) & own; b;) {
    const Square from = pop_lsb(b);
    Bitboard to = bishop_attacks(from, occ) & target;
    if (pinned & square_bb(from)) to &= LINE[ksq][from];
    sink.moves(from, to);
  }
  for (Bitboard b = pos.pieces(ROOK, QUEEN) & own; b;) {
    const Square from = pop_lsb(b);
    Bitboard to = rook_attacks(from, occ) & target;
    if (pinned & square_bb(from)) to &= LINE[ksq][from];
    sink.moves(from, to);
  }

  if (checkers || !pos.castling_rights()) return;
  for (int i = 0; i < CASTLING_RIGHT_NB; ++i) {
    if (CASTLING_COLOR[i] != us || !(pos.castling_rights() & (1 << i))) continue;
    const Square kto = CASTLING_KING_TO[i];
    if (BETWEEN[ksq][CASTLING_ROOK_FROM[i]] & occ) continue;
    if ((BETWEEN[ksq][kto] | square_bb(kto)) & attacked) continue;
    sink.move(Move::make(ksq, kto));
  }
}

}  // namespace

bool MoveList::contains(Move m) const { return std::find(begin(), end(), m) != end(); }

void generate_legal(const Position& pos, MoveList& list) {
  Lister sink{list};
  generate(pos, sink);
}

int count_legal(const Position& pos) {
  Counter sink;
  generate(pos, sink);
  return sink.n;
}

}  // namespace manaka::chess
