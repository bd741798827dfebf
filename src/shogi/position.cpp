#include "shogi/position.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace manaka::shogi {
namespace {

// Zobrist keys from a fixed splitmix64 stream, so keys are the same on every
// run and build. psq is indexed by the board byte (colour and kind, types.h;
// rows of bytes that are no piece stay 0). A hand contributes
// HAND[c][hk][count]; count 0 is key 0.
struct Zobrist {
  uint64_t psq[32][SQUARE_NB];
  uint64_t hand[COLOR_NB][HAND_KIND_NB][HAND_MAX[H_PAWN] + 1];
  uint64_t white_to_move;
};

constexpr Zobrist make_zobrist() {
  Zobrist z{};
  uint64_t state = 0x6D616E616B61ULL;  // "manaka"
  auto next = [&state] {
    uint64_t x = (state += 0x9E3779B97F4A7C15ULL);
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
  };
  for (int c = BLACK; c <= WHITE; ++c)
    for (int k = KING; k < KIND_NB; ++k)
      for (auto& key : z.psq[make_piece(Color(c), Kind(k))]) key = next();
  for (auto& by_kind : z.hand)
    for (auto& by_count : by_kind)
      for (int n = 1; n <= HAND_MAX[H_PAWN]; ++n) by_count[n] = next();
  z.white_to_move = next();
  return z;
}

constexpr Zobrist ZOBRIST = make_zobrist();

std::string piece_name(Color c, Kind k) { return std::string(COLOR_NAME[c]) + " " + KIND_NAME[k]; }

}  // namespace

Position& Position::operator=(const Position& other) {
  if (this == &other) return *this;
  board_ = other.board_;
  by_color_ = other.by_color_;
  by_kind_ = other.by_kind_;
  hand_ = other.hand_;
  king_ = other.king_;
  side_ = other.side_;
  move_number_ = other.move_number_;
  root_ = *other.st_;
  root_.previous = nullptr;
  st_ = &root_;
  return *this;
}

Position Position::startpos() { return from_sfen("startpos").value(); }

void Position::put(Color c, Kind k, Square s) {
  board_[s] = make_piece(c, k);
  by_color_[c] ^= square_bb(s);
  by_kind_[k] ^= square_bb(s);
}

void Position::remove(Color c, Kind k, Square s) {
  board_[s] = NO_PIECE;
  by_color_[c] ^= square_bb(s);
  by_kind_[k] ^= square_bb(s);
}

namespace {

// The first rule a setup breaks, in square order, then the whole-set rules;
// *where receives the square at fault or -1. Only called once the fast
// checks in from_setup have found that some rule is broken: it explains,
// and from_setup's bitboard checks decide.
Status setup_refusal(const Setup& setup, const Position& built, int* where) {
  auto refuse = [where](int square, const std::string& why) -> Status {
    if (where) *where = square;
    return Status::invalid(why);
  };
  int kings[COLOR_NB] = {0, 0};
  int total[KIND_NB] = {};                 // by base kind, board and hands
  unsigned pawn_files[COLOR_NB] = {0, 0};  // bit f: an unpromoted pawn on file f
  for (int i = 0; i < SQUARE_NB; ++i) {
    Square s = Square(i);
    Piece p = setup.board[s];
    if (p == NO_PIECE) continue;
    if (!is_piece_byte(p)) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "unknown board byte 0x%02x on %s", p, square_name(s).c_str());
      return refuse(s, buf);
    }
    Color c = color_of(p);
    Kind k = kind_of(p);
    if (k == KING && ++kings[c] > 1)
      return refuse(s, std::string(COLOR_NAME[c]) + " has a second king, on " + square_name(s));
    int rr = relative_rank(c, s);
    if (((k == PAWN || k == LANCE) && rr == 1) || (k == KNIGHT && rr <= 2))
      return refuse(s, piece_name(c, k) + " on " + square_name(s) + " can never move (rank " +
                           std::to_string(rank_of(s)) + ")");
    if (k == PAWN) {
      unsigned bit = 1u << file_of(s);
      if (pawn_files[c] & bit)
        return refuse(s, std::string(COLOR_NAME[c]) + " has two unpromoted pawns on file " +
                             std::to_string(file_of(s)) + " (nifu), the second on " + square_name(s));
      pawn_files[c] |= bit;
    }
    ++total[BASE_KIND[k]];
  }
  for (int c = 0; c < COLOR_NB; ++c)
    for (int hk = 0; hk < HAND_KIND_NB; ++hk) {
      int n = setup.hand[c][hk];
      if (n > HAND_MAX[hk])
        return refuse(-1, std::string(COLOR_NAME[c]) + "'s hand holds " + std::to_string(n) + " " +
                              KIND_NAME[KIND_OF_HAND[hk]] + "s, more than " + std::to_string(HAND_MAX[hk]));
      total[KIND_OF_HAND[hk]] += n;
    }
  for (int c = 0; c < COLOR_NB; ++c)
    if (!kings[c]) return refuse(-1, std::string(COLOR_NAME[c]) + " has no king");
  for (int k = ROOK; k <= PAWN; ++k)
    if (total[k] > SET_COUNT[k])
      return refuse(-1, std::to_string(total[k]) + " " + KIND_NAME[k] +
                            "s on the board and in hands, more than the " +
                            std::to_string(SET_COUNT[k]) + " of a set");
  if (setup.side != BLACK && setup.side != WHITE)
    return refuse(-1, "side to move " + std::to_string(int(setup.side)) + " is neither Black nor White");
  if (setup.move_number < 1)
    return refuse(-1, "move number " + std::to_string(setup.move_number) + " is not positive");
  Color them = ~setup.side;
  Square their_king = lsb(built.pieces(them, KING));
  if (built.attackers_to(setup.side, their_king, built.pieces()))
    return refuse(their_king, std::string(COLOR_NAME[them]) + ", not to move, is in check");
  return Status::invalid("a rule of the setup is broken");  // unreachable: the checks agree
}

// The squares whose byte is not NO_PIECE as two words (squares 0..63 and
// 64..80), eight bytes at a time: a byte of ~word is zero exactly on an empty
// square, its high bit is set on the others, and a multiply gathers the
// eight high bits into one byte.
std::array<uint64_t, 2> occupied_squares(const std::array<Piece, SQUARE_NB>& board) {
  constexpr uint64_t LOW7 = 0x7F7F7F7F7F7F7F7FULL, HIGH = 0x8080808080808080ULL;
  std::array<uint64_t, 2> words = {0, 0};
  for (int i = 0; i + 8 <= SQUARE_NB; i += 8) {
    uint64_t word;
    std::memcpy(&word, &board[size_t(i)], 8);
    uint64_t t = ~word;
    uint64_t nonzero = (((t & LOW7) + LOW7) | t) & HIGH;
    words[i / 64] |= (((nonzero >> 7) * 0x0102040810204080ULL) >> 56) << (i % 64);
  }
  words[1] |= uint64_t(board[SQUARE_NB - 1] != NO_PIECE) << (SQUARE_NB - 1 - 64);
  return words;
}

constexpr std::array<Bitboard, SQUARE_NB> SQUARE_BB = [] {
  std::array<Bitboard, SQUARE_NB> t{};
  for (int s = 0; s < SQUARE_NB; ++s) t[size_t(s)] = square_bb(Square(s));
  return t;
}();

// Pieces of a base kind, promoted ones included.
Bitboard with_promoted(const Position& pos, Kind k) {
  return pos.pieces(k) | (can_promote(k) ? pos.pieces(PROMOTED[k]) : Bitboard(0));
}

}  // namespace

Result<Position> Position::from_setup(const Setup& setup, int* where) {
  // Fast path: place the pieces, then check every rule on whole bitboards
  // (no branch per square); only a refused setup walks the squares again,
  // in setup_refusal, to name the first rule broken.
  if (where) *where = -1;
  Position pos;
  bool ok = setup.side == BLACK || setup.side == WHITE;
  uint64_t key = setup.side == WHITE ? ZOBRIST.white_to_move : 0;
  uint32_t pawn_files[COLOR_NB] = {0, 0};  // bit i: an unpromoted pawn on file 9 - i
  uint32_t nifu = 0;
  const std::array<uint64_t, 2> occupied = occupied_squares(setup.board);
  for (int w = 0; w < 2; ++w)
    for (uint64_t bits = occupied[size_t(w)]; bits; bits &= bits - 1) {
      const auto s = Square(64 * w + __builtin_ctzll(bits));
      const Piece p = setup.board[s];
      if (!is_piece_byte(p)) return setup_refusal(setup, pos, where);
      const Color c = color_of(p);
      const Kind k = kind_of(p);
      pos.board_[s] = p;
      pos.by_color_[c] |= SQUARE_BB[s];
      pos.by_kind_[k] |= SQUARE_BB[s];
      key ^= ZOBRIST.psq[p][s];
      const uint32_t file_bit = uint32_t(k == PAWN) << (s / 9);
      nifu |= pawn_files[c] & file_bit;
      pawn_files[c] |= file_bit;
    }
  ok &= !nifu;
  for (int c = 0; c < COLOR_NB; ++c)
    for (int hk = 0; hk < HAND_KIND_NB; ++hk) {
      uint8_t n = setup.hand[c][hk];
      ok &= n <= HAND_MAX[hk];
      pos.hand_[c][hk] = n;
      key ^= ZOBRIST.hand[c][hk][std::min(n, HAND_MAX[H_PAWN])];
    }
  for (int c = 0; c < COLOR_NB && ok; ++c) {
    Color us = Color(c);
    Bitboard king = pos.pieces(us, KING);
    ok &= king && !more_than_one(king);
    // Pieces that could never move again.
    ok &= !((pos.pieces(us, PAWN) | pos.pieces(us, LANCE)) & first_ranks(us, 1));
    ok &= !(pos.pieces(us, KNIGHT) & first_ranks(us, 2));
    if (ok) pos.king_[c] = lsb(king);
  }
  for (int k = ROOK; k <= PAWN && ok; ++k) {
    int n = popcount(with_promoted(pos, Kind(k)));
    const HandKind hk = HAND_OF[k];
    ok &= n + pos.hand_[BLACK][hk] + pos.hand_[WHITE][hk] <= SET_COUNT[k];
  }
  ok &= setup.move_number >= 1;
  if (ok) {
    pos.side_ = setup.side;
    ok = !pos.attackers_to(pos.side_, pos.king_[~pos.side_], pos.pieces());
  }
  if (!ok) return setup_refusal(setup, pos, where);
  pos.side_ = setup.side;
  pos.move_number_ = setup.move_number;
  pos.root_.key = key;
  pos.root_.checkers = pos.attackers_to(~pos.side_, pos.king_[pos.side_], pos.pieces());
  return pos;
}

Bitboard Position::attackers_to(Color by, Square s, Bitboard occ) const {
  Color victim = ~by;  // a piece of `by` attacks s when it stands where victim's steps from s go
  Bitboard b = (STEP[victim][PAWN][s] & by_kind_[PAWN]) |
               (STEP[victim][KNIGHT][s] & by_kind_[KNIGHT]) |
               (STEP[victim][SILVER][s] & by_kind_[SILVER]) |
               (STEP[victim][GOLD][s] & golds()) |
               (STEP[victim][KING][s] & (by_kind_[KING] | by_kind_[PRO_ROOK] | by_kind_[PRO_BISHOP]));
  // Sliders on a line through s (a few at most) attack it when nothing of
  // occ stands between: cheaper than walking eight rays from s.
  Bitboard snipers = ((PSEUDO[victim][ROOK][s] & (by_kind_[ROOK] | by_kind_[PRO_ROOK])) |
                      (PSEUDO[victim][BISHOP][s] & (by_kind_[BISHOP] | by_kind_[PRO_BISHOP])) |
                      (PSEUDO[victim][LANCE][s] & by_kind_[LANCE])) &
                     by_color_[by];
  while (snipers) {
    Square a = pop_lsb(snipers);
    if (!(between_bb(s, a) & occ)) b |= square_bb(a);
  }
  return b & by_color_[by];
}

Bitboard Position::pinned(Color c, Bitboard occ) const {
  Color them = ~c;
  Square k = king_[c];
  Bitboard snipers =
      ((PSEUDO[c][ROOK][k] & (by_kind_[ROOK] | by_kind_[PRO_ROOK])) |
       (PSEUDO[c][BISHOP][k] & (by_kind_[BISHOP] | by_kind_[PRO_BISHOP])) |
       (PSEUDO[c][LANCE][k] & by_kind_[LANCE])) &
      by_color_[them];
  Bitboard result = 0;
  while (snipers) {
    Bitboard b = between_bb(k, pop_lsb(snipers)) & occ;
    if (b && !more_than_one(b)) result |= b & by_color_[c];
  }
  return result;
}

bool Position::pawn_drop_mates(Square to) const {
  Color us = side_, them = ~us;
  Square ksq = king_[them];
  Bitboard occ = pieces() | square_bb(to);
  // A capture by a piece other than the king: pins are taken with the pawn
  // on the board, and a pinned piece can never reach a square next to its king
  // along its pin line, so any pinned capturer is out.
  Bitboard capturers = attackers_to(them, to, occ) & ~square_bb(ksq);
  if (capturers & ~pinned(them, occ)) return false;
  // A king move, the capture of the pawn included. The pawn itself attacks
  // only the king's square, so it changes no escape.
  Bitboard escapes = STEP[them][KING][ksq] & ~by_color_[them];
  Bitboard occ_without_king = occ ^ square_bb(ksq);
  while (escapes)
    if (!attackers_to(us, pop_lsb(escapes), occ_without_king)) return false;
  return true;
}

bool Position::gives_check(Move m) const {
  Color us = side_;
  Square ksq = king_[~us];
  Square to = m.to_square();
  Bitboard occ = pieces() | square_bb(to);
  Kind k;
  if (m.is_drop()) {
    k = KIND_OF_HAND[m.dropped_kind()];
  } else {
    Square from = m.from_square();
    k = kind_of(board_[from]);
    if (m.is_promote()) k = PROMOTED[k];
    occ ^= square_bb(from);
    // A discovered check: a slider of ours that now sees the king.
    Bitboard sliders = (rook_attacks(ksq, occ) & (by_kind_[ROOK] | by_kind_[PRO_ROOK])) |
                       (bishop_attacks(ksq, occ) & (by_kind_[BISHOP] | by_kind_[PRO_BISHOP])) |
                       (lance_attacks(~us, ksq, occ) & by_kind_[LANCE]);
    if (sliders & by_color_[us] & ~square_bb(from)) return true;
  }
  return attacks(us, k, to, occ) & square_bb(ksq);
}

bool Position::is_legal(Move m, Bitboard our_pinned) const {
  if (!m.well_formed()) return false;
  Color us = side_, them = ~us;
  Square to = m.to_square(), ksq = king_[us];
  Bitboard occ = pieces(), to_bb = square_bb(to);
  if (by_color_[us] & to_bb) return false;
  Bitboard checkers = st_->checkers;
  if (m.is_drop()) {
    HandKind hk = m.dropped_kind();
    Kind k = KIND_OF_HAND[hk];
    if (!hand_[us][hk] || (occ & to_bb)) return false;
    int rr = relative_rank(us, to);
    if (((k == PAWN || k == LANCE) && rr == 1) || (k == KNIGHT && rr <= 2)) return false;
    if (checkers && (more_than_one(checkers) || !(between_bb(ksq, lsb(checkers)) & to_bb)))
      return false;
    if (k != PAWN) return true;
    if (pieces(us, PAWN) & file_bb(file_of(to))) return false;  // nifu
    bool in_front_of_king = STEP[us][PAWN][to] & square_bb(king_[them]);
    return !in_front_of_king || !pawn_drop_mates(to);
  }
  Square from = m.from_square();
  Piece pc = board_[from];
  if (pc == NO_PIECE || color_of(pc) != us) return false;
  Kind k = kind_of(pc);
  if (!(attacks(us, k, from, occ) & to_bb)) return false;
  if (m.is_promote()) {
    if (!can_promote(k) || !(in_zone(us, from) || in_zone(us, to))) return false;
  } else {
    int rr = relative_rank(us, to);
    if (((k == PAWN || k == LANCE) && rr == 1) || (k == KNIGHT && rr <= 2)) return false;
  }
  if (k == KING) return !attackers_to(them, to, occ ^ square_bb(from));
  if (checkers && (more_than_one(checkers) || !(check_block_bb(ksq, lsb(checkers)) & to_bb)))
    return false;
  return !(our_pinned & square_bb(from)) || on_ray(ksq, from, to);
}

void Position::do_move(Move m, StateInfo& st) {
  Color us = side_, them = ~us;
  Square to = m.to_square();
  uint64_t key = st_->key ^ ZOBRIST.white_to_move;
  st.captured = NO_PIECE;
  if (m.is_drop()) {
    HandKind hk = m.dropped_kind();
    Kind k = KIND_OF_HAND[hk];
    uint8_t& n = hand_[us][hk];
    key ^= ZOBRIST.hand[us][hk][n] ^ ZOBRIST.hand[us][hk][n - 1];
    --n;
    put(us, k, to);
    key ^= ZOBRIST.psq[make_piece(us, k)][to];
  } else {
    Square from = m.from_square();
    Kind k = kind_of(board_[from]);
    Piece captured = board_[to];
    if (captured != NO_PIECE) {
      Kind ck = kind_of(captured);
      HandKind hk = HAND_OF[ck];
      uint8_t& n = hand_[us][hk];
      key ^= ZOBRIST.psq[make_piece(them, ck)][to] ^ ZOBRIST.hand[us][hk][n] ^ ZOBRIST.hand[us][hk][n + 1];
      ++n;
      remove(them, ck, to);
      st.captured = captured;
    }
    Kind moved = m.is_promote() ? PROMOTED[k] : k;
    remove(us, k, from);
    put(us, moved, to);
    key ^= ZOBRIST.psq[make_piece(us, k)][from] ^ ZOBRIST.psq[make_piece(us, moved)][to];
    if (k == KING) king_[us] = to;
  }
  side_ = them;
  ++move_number_;
  st.key = key;
  st.previous = st_;
  st_ = &st;
  st.checkers = attackers_to(us, king_[them], pieces());
}

void Position::undo_move(Move m) {
  side_ = ~side_;
  --move_number_;
  Color us = side_, them = ~us;
  Square to = m.to_square();
  Kind k = kind_of(board_[to]);
  remove(us, k, to);
  if (m.is_drop()) {
    ++hand_[us][m.dropped_kind()];
  } else {
    Square from = m.from_square();
    Kind original = m.is_promote() ? BASE_KIND[k] : k;
    put(us, original, from);
    if (k == KING) king_[us] = from;
    Piece captured = st_->captured;
    if (captured != NO_PIECE) {
      put(them, kind_of(captured), to);
      --hand_[us][HAND_OF[kind_of(captured)]];
    }
  }
  st_ = st_->previous;
}

}  // namespace manaka::shogi
