// One generator, templated on a sink that either counts or lists.
//
// Legality is settled while generating, without do_move: the king steps only
// to squares no enemy piece attacks once the king has left its square; in
// check, other pieces must capture the checker or block its line (nothing
// but the king moves in double check); a pinned piece stays on the ray from
// its king; a pawn drop in front of the enemy king is tested for mate.
#include "shogi/movegen.h"

#include <algorithm>

namespace manaka::shogi {
namespace {

using KindTable = std::array<std::array<Bitboard, KIND_NB>, COLOR_NB>;

// Destinations where the move may promote or not (both are legal).
constexpr Bitboard optional_promotion(Color c, Kind k) {
  switch (k) {
    case PAWN: case LANCE: return first_ranks(c, 3) & ~first_ranks(c, 1);
    case KNIGHT: return first_ranks(c, 3) & ~first_ranks(c, 2);
    case SILVER: case BISHOP: case ROOK: return first_ranks(c, 3);
    default: return 0;
  }
}
// Destinations where the move must promote: the piece could never move again.
constexpr Bitboard forced_promotion(Color c, Kind k) {
  switch (k) {
    case PAWN: case LANCE: return first_ranks(c, 1);
    case KNIGHT: return first_ranks(c, 2);
    default: return 0;
  }
}

template <Bitboard (*F)(Color, Kind)>
constexpr KindTable kind_table() {
  KindTable t{};
  for (int c = 0; c < COLOR_NB; ++c)
    for (int k = 0; k < KIND_NB; ++k) t[c][k] = F(Color(c), Kind(k));
  return t;
}

constexpr KindTable OPTIONAL_PROMOTION = kind_table<optional_promotion>();
constexpr KindTable FORCED_PROMOTION = kind_table<forced_promotion>();

// Kinds that may promote on any move that starts in the zone. Pawns, lances
// and knights only move deeper, so their destination masks already say it.
constexpr bool PROMOTES_LEAVING_ZONE[KIND_NB] = {false, true, true, false, true};  // R B S

// DROP_SQUARES[c][hk]: where c may drop hk so that it can move again.
constexpr std::array<std::array<Bitboard, HAND_KIND_NB>, COLOR_NB> make_drop_squares() {
  std::array<std::array<Bitboard, HAND_KIND_NB>, COLOR_NB> t{};
  for (int c = 0; c < COLOR_NB; ++c)
    for (int hk = 0; hk < HAND_KIND_NB; ++hk)
      t[c][hk] = ALL_BB & ~forced_promotion(Color(c), KIND_OF_HAND[hk]);
  return t;
}
constexpr auto DROP_SQUARES = make_drop_squares();

// Every square of each file holding one of c's unpromoted pawns. Per file of
// nine bits: shift the pawns so rank 9's bit is clear (Black's pawns never
// stand on rank 1, White's never on rank 9), add 0xFF so that bit 8 is set
// exactly when a pawn is there, then spread bit 8 over the file. No step
// carries from one file into the next.
inline Bitboard pawn_files(Color c, Bitboard pawns) {
  constexpr Bitboard RANK9 = rank_bb(9), LOW8 = ALL_BB ^ rank_bb(9);
  Bitboard v = c == BLACK ? pawns >> 1 : pawns;
  Bitboard flags = (v + LOW8) & RANK9;
  return flags | (flags - (flags >> 8));
}

// Counts: one move per destination, two where promotion is optional.
struct Counter {
  int n = 0;
  void add(Square, Bitboard to, Bitboard optional, Bitboard) { n += popcount(to) + popcount(to & optional); }
  void add_pawns(Bitboard to, int, Bitboard optional, Bitboard) { n += popcount(to) + popcount(to & optional); }
  void add_drops(const HandKind*, int kinds, Bitboard to) { n += kinds * popcount(to); }
};

// Lists: the promoting move first where there is one, then the other.
struct Lister {
  MoveList& list;
  void add(Square from, Bitboard to, Bitboard optional, Bitboard forced) {
    while (to) {
      Square s = pop_lsb(to);
      emit(from, s, optional, forced);
    }
  }
  void add_pawns(Bitboard to, int from_delta, Bitboard optional, Bitboard forced) {
    while (to) {
      Square s = pop_lsb(to);
      emit(Square(s + from_delta), s, optional, forced);
    }
  }
  void add_drops(const HandKind* kinds, int n, Bitboard to) {
    while (to) {
      Square s = pop_lsb(to);
      for (int i = 0; i < n; ++i) list.push(Move::drop(kinds[i], s));
    }
  }
  void emit(Square from, Square to, Bitboard optional, Bitboard forced) {
    Bitboard b = square_bb(to);
    if (b & (optional | forced)) list.push(Move::normal(from, to, true));
    if (!(b & forced)) list.push(Move::normal(from, to, false));
  }
};

template <class Sink>
void generate_drops(const Position& pos, Sink& sink, Bitboard target) {
  const Color us = pos.side_to_move();
  if (!target) return;
  HandKind kinds[4];
  int n = 0;
  for (HandKind hk : {H_SILVER, H_GOLD, H_BISHOP, H_ROOK})
    if (pos.hand_count(us, hk)) kinds[n++] = hk;
  if (n) sink.add_drops(kinds, n, target);
  for (HandKind hk : {H_LANCE, H_KNIGHT})
    if (pos.hand_count(us, hk)) sink.add_drops(&hk, 1, target & DROP_SQUARES[us][hk]);
  if (pos.hand_count(us, H_PAWN)) {
    Bitboard to = target & DROP_SQUARES[us][H_PAWN] & ~pawn_files(us, pos.pieces(us, PAWN));
    // The one square where a pawn drop checks: in front of the enemy king.
    Bitboard checking = to & STEP[~us][PAWN][pos.king_square(~us)];
    if (checking && pos.pawn_drop_mates(lsb(checking))) to ^= checking;
    const HandKind pawn = H_PAWN;
    sink.add_drops(&pawn, 1, to);
  }
}

template <class Sink>
void generate(const Position& pos, Sink& sink) {
  const Color us = pos.side_to_move(), them = ~us;
  const Square ksq = pos.king_square(us);
  const Bitboard occ = pos.pieces(), own = pos.pieces(us), checkers = pos.checkers();

  Bitboard king_to = STEP[us][KING][ksq] & ~own, safe = 0;
  const Bitboard occ_without_king = occ ^ square_bb(ksq);
  while (king_to) {
    Square s = pop_lsb(king_to);
    if (!pos.attackers_to(them, s, occ_without_king)) safe |= square_bb(s);
  }
  if (safe) sink.add(ksq, safe, 0, 0);
  if (more_than_one(checkers)) return;

  Bitboard target = ALL_BB & ~own, drop_target = ALL_BB & ~occ;
  if (checkers) {
    Square checker = lsb(checkers);
    target = check_block_bb(ksq, checker);
    drop_target = between_bb(ksq, checker);
  }
  const Bitboard pinned = pos.pinned(us, occ);

  // Unpinned pawns step as one set; a pawn never stands on its last rank, so
  // the shift never crosses into the next file.
  const Bitboard free_pawns = pos.pieces(us, PAWN) & ~pinned;
  Bitboard pawn_to = (us == BLACK ? free_pawns >> 1 : free_pawns << 1) & target;
  if (pawn_to)
    sink.add_pawns(pawn_to, us == BLACK ? 1 : -1, OPTIONAL_PROMOTION[us][PAWN], FORCED_PROMOTION[us][PAWN]);

  Bitboard others = own & ~free_pawns & ~square_bb(ksq);
  while (others) {
    Square from = pop_lsb(others);
    Kind k = kind_of(pos.piece_on(from));
    Bitboard to = attacks(us, k, from, occ) & target;
    if (pinned & square_bb(from)) to &= RAYS[DIRECTION[ksq][from]][ksq];
    if (!to) continue;
    Bitboard optional = OPTIONAL_PROMOTION[us][k];
    if (PROMOTES_LEAVING_ZONE[k] && in_zone(us, from)) optional = ALL_BB;
    sink.add(from, to, optional, FORCED_PROMOTION[us][k]);
  }

  generate_drops(pos, sink, drop_target);
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

std::bitset<32768> legal_mask(const Position& pos) {
  MoveList list;
  generate_legal(pos, list);
  std::bitset<32768> mask;
  for (Move m : list) mask.set(m.raw);
  return mask;
}

}  // namespace manaka::shogi
