#include "chess/position.h"

#include <algorithm>

#include "chess/zobrist.h"

namespace manaka::chess {
namespace {

// CASTLING_KEEP[s]: the rights that survive a move from or to s; a move
// from or to a king's or rook's home square loses the rights it serves.
constexpr std::array<uint8_t, SQUARE_NB> CASTLING_KEEP = [] {
  std::array<uint8_t, SQUARE_NB> t{};
  t.fill(ALL_CASTLING);
  for (int i = 0; i < CASTLING_RIGHT_NB; ++i) {
    t[CASTLING_KING_FROM[i]] &= uint8_t(~(1 << i));
    t[CASTLING_ROOK_FROM[i]] &= uint8_t(~(1 << i));
  }
  return t;
}();

std::string piece_name(Color c, PieceType pt) { return std::string(COLOR_NAME[c]) + " " + PIECE_TYPE_NAME[pt]; }

// The first material rule c's pieces break, or an empty string: at most 16
// pieces and 8 pawns, and no more queens, rooks, bishops and knights beyond
// a set's 1, 2, 2, 2 than pawns missing to have promoted. These bound the
// legal moves of any position (the most is 218), so a MoveList cannot
// overflow.
std::string material_refusal(const std::array<int, PIECE_TYPE_NB>& n, Color c) {
  int total = 0;
  for (int pt = PAWN; pt <= KING; ++pt) total += n[size_t(pt)];
  if (total > 16)
    return std::string(COLOR_NAME[c]) + " has " + std::to_string(total) + " pieces, more than the 16 of a set";
  if (n[PAWN] > 8) return std::string(COLOR_NAME[c]) + " has " + std::to_string(n[PAWN]) + " pawns, more than 8";
  int extra = std::max(0, n[QUEEN] - 1) + std::max(0, n[ROOK] - 2) + std::max(0, n[BISHOP] - 2) +
              std::max(0, n[KNIGHT] - 2);
  if (extra > 8 - n[PAWN])
    return std::string(COLOR_NAME[c]) + " has " + std::to_string(extra) +
           " queens, rooks, bishops and knights beyond a set's, more than its " + std::to_string(8 - n[PAWN]) +
           " missing pawns could have promoted to";
  return {};
}

}  // namespace

Position Position::startpos() { return from_fen("startpos").value(); }

void Position::put(Piece p, Square s) {
  board_[s] = p;
  by_color_[color_of(p)] |= square_bb(s);
  by_type_[type_of(p)] |= square_bb(s);
  key_ ^= ZOBRIST.piece_square[p][s];
}

void Position::remove(Square s) {
  Piece p = board_[s];
  board_[s] = NO_PIECE;
  by_color_[color_of(p)] &= ~square_bb(s);
  by_type_[type_of(p)] &= ~square_bb(s);
  key_ ^= ZOBRIST.piece_square[p][s];
}

Result<Position> Position::from_setup(const Setup& setup) {
  Position pos;
  std::array<std::array<int, PIECE_TYPE_NB>, COLOR_NB> count{};
  for (int i = 0; i < SQUARE_NB; ++i) {
    const Square s = Square(i);
    const Piece p = setup.board[s];
    if (p == NO_PIECE) continue;
    const PieceType pt = type_of(p);
    if (pt == NO_PIECE_TYPE || pt > KING || (p & ~0xF))
      return Status::invalid("unknown piece value " + std::to_string(int(p)) + " on " + square_name(s));
    if (pt == PAWN && (rank_of(s) == 0 || rank_of(s) == 7))
      return Status::invalid(piece_name(color_of(p), PAWN) + " on " + square_name(s) +
                             ": no pawn may stand on rank 1 or 8");
    ++count[color_of(p)][pt];
    pos.put(p, s);
  }
  for (int c = WHITE; c <= BLACK; ++c)
    if (count[size_t(c)][KING] != 1)
      return Status::invalid(std::string(COLOR_NAME[c]) + " has " + std::to_string(count[size_t(c)][KING]) +
                             " kings, expected exactly one");
  for (int c = WHITE; c <= BLACK; ++c) {
    std::string why = material_refusal(count[size_t(c)], Color(c));
    if (!why.empty()) return Status::invalid(why);
  }
  if (setup.side != WHITE && setup.side != BLACK)
    return Status::invalid("side to move " + std::to_string(int(setup.side)) + " is neither White nor Black");
  pos.side_ = setup.side;
  const Color us = setup.side, them = ~us;
  const Bitboard attackers = pos.attackers_to(pos.king_square(them), pos.pieces()) & pos.pieces(us);
  if (attackers)
    return Status::invalid(std::string(COLOR_NAME[them]) + ", not to move, is in check from " +
                           square_name(lsb(attackers)));

  if (setup.castling & ~ALL_CASTLING)
    return Status::invalid("castling rights " + std::to_string(int(setup.castling)) + " are not KQkq bits");
  for (int i = 0; i < CASTLING_RIGHT_NB; ++i) {
    if (!(setup.castling & (1 << i))) continue;
    const Color c = CASTLING_COLOR[i];
    if (setup.board[CASTLING_KING_FROM[i]] != make_piece(c, KING) ||
        setup.board[CASTLING_ROOK_FROM[i]] != make_piece(c, ROOK))
      return Status::invalid(std::string("castling right ") + CASTLING_LETTER[i] + " needs the " +
                             COLOR_NAME[c] + " king on " + square_name(CASTLING_KING_FROM[i]) + " and a " +
                             COLOR_NAME[c] + " rook on " + square_name(CASTLING_ROOK_FROM[i]));
  }
  pos.castling_ = setup.castling;

  // python-chess's test of a valid en-passant square (Board._valid_ep_square).
  if (setup.ep != SQ_NONE) {
    const Square ep = setup.ep;
    const std::string name = "en-passant square " + (ep < SQUARE_NB ? square_name(ep) : std::to_string(int(ep)));
    if (ep >= SQUARE_NB) return Status::invalid(name + " is not a square");
    if (relative_rank(us, ep) != 5)
      return Status::invalid(name + " is on rank " + std::to_string(rank_of(ep) + 1) + ", but with " +
                             COLOR_NAME[us] + " to move it can only be on rank " + (us == WHITE ? "6" : "3"));
    const Square pawn = Square(ep - pawn_push(us)), origin = Square(ep + pawn_push(us));
    if (setup.board[pawn] != make_piece(them, PAWN))
      return Status::invalid(name + " needs a " + piece_name(them, PAWN) + " on " + square_name(pawn) +
                             ", the pawn that just moved two squares");
    if (setup.board[ep] != NO_PIECE) return Status::invalid(name + " is occupied");
    if (setup.board[origin] != NO_PIECE)
      return Status::invalid(name + " needs " + square_name(origin) +
                             " empty, the square the pawn just moved from");
  }
  pos.ep_ = setup.ep;

  if (setup.halfmove_clock < 0 || setup.halfmove_clock > HALFMOVE_MAX)
    return Status::invalid("the halfmove clock must be from 0 to " + std::to_string(HALFMOVE_MAX) + ", got " +
                           std::to_string(setup.halfmove_clock));
  if (setup.fullmove_number < 1 || setup.fullmove_number > FULLMOVE_MAX)
    return Status::invalid("the fullmove number must be from 1 to " + std::to_string(FULLMOVE_MAX) + ", got " +
                           std::to_string(setup.fullmove_number));
  pos.halfmove_ = setup.halfmove_clock;
  pos.fullmove_ = setup.fullmove_number;
  pos.checkers_ = pos.attackers_to(pos.king_square(us), pos.pieces()) & pos.pieces(them);
  pos.key_ = compute_key(pos);
  return pos;
}

Bitboard Position::attackers_to(Square s, Bitboard occ) const {
  return (PAWN_ATTACKS[BLACK][s] & pieces(WHITE, PAWN)) | (PAWN_ATTACKS[WHITE][s] & pieces(BLACK, PAWN)) |
         (KNIGHT_ATTACKS[s] & by_type_[KNIGHT]) | (KING_ATTACKS[s] & by_type_[KING]) |
         (bishop_attacks(s, occ) & pieces(BISHOP, QUEEN)) | (rook_attacks(s, occ) & pieces(ROOK, QUEEN));
}

Bitboard Position::pinned(Color c) const {
  const Square k = king_square(c);
  const Bitboard occ = pieces();
  Bitboard snipers = ((bishop_attacks(k, 0) & pieces(BISHOP, QUEEN)) | (rook_attacks(k, 0) & pieces(ROOK, QUEEN))) &
                     pieces(~c);
  Bitboard result = 0;
  while (snipers) {
    Bitboard b = BETWEEN[k][pop_lsb(snipers)] & occ;
    if (b && !more_than_one(b)) result |= b;
  }
  return result & pieces(c);
}

bool Position::en_passant_legal(Square from) const {
  const Color us = side_;
  const Square captured = Square(ep_ - pawn_push(us));
  // The board after the capture: both pawns leave their squares, ours lands
  // on ep_. Any enemy piece still attacking our king makes it illegal; this
  // covers the checker being the captured pawn, a discovered slider on the
  // diagonal, and the rank the two pawns leave together.
  const Bitboard occ = (pieces() ^ square_bb(from) ^ square_bb(captured)) | square_bb(ep_);
  return !(attackers_to(king_square(us), occ) & pieces(~us) & ~square_bb(captured));
}

bool Position::has_legal_en_passant() const {
  if (ep_ == SQ_NONE) return false;
  Bitboard capturers = PAWN_ATTACKS[~side_][ep_] & pieces(side_, PAWN);
  while (capturers)
    if (en_passant_legal(pop_lsb(capturers))) return true;
  return false;
}

bool Position::can_castle(int right) const {
  if (!(castling_ & (1 << right)) || CASTLING_COLOR[right] != side_ || checkers_) return false;
  const Square k = CASTLING_KING_FROM[right], kto = CASTLING_KING_TO[right];
  if (BETWEEN[k][CASTLING_ROOK_FROM[right]] & pieces()) return false;
  Bitboard path = BETWEEN[k][kto] | square_bb(kto);
  while (path)
    if (attackers_to(pop_lsb(path), pieces()) & pieces(~side_)) return false;
  return true;
}

bool Position::is_legal(Move m) const {
  if (!m.well_formed()) return false;
  const Color us = side_, them = ~us;
  const Square from = m.from_square(), to = m.to_square();
  const Piece pc = board_[from];
  if (pc == NO_PIECE || color_of(pc) != us || (pieces(us) & square_bb(to))) return false;
  const PieceType pt = type_of(pc);
  const Bitboard occ = pieces(), to_bb = square_bb(to);
  if (pt == PAWN) {
    if ((m.promotion() != NO_PIECE_TYPE) != (relative_rank(us, to) == 7)) return false;
    const bool attacks_to = PAWN_ATTACKS[us][from] & to_bb;
    if (attacks_to && to == ep_) return en_passant_legal(from);
    const int step = pawn_push(us);
    const bool ok = (attacks_to && (pieces(them) & to_bb)) || (to == from + step && !(occ & to_bb)) ||
                    (to == from + 2 * step && relative_rank(us, from) == 1 &&
                     !(occ & (square_bb(Square(from + step)) | to_bb)));
    if (!ok) return false;
  } else {
    if (m.promotion() != NO_PIECE_TYPE) return false;
    if (pt == KING) {
      for (int i = 0; i < CASTLING_RIGHT_NB; ++i)
        if (from == CASTLING_KING_FROM[i] && to == CASTLING_KING_TO[i] && CASTLING_COLOR[i] == us)
          return can_castle(i);
      return (KING_ATTACKS[from] & to_bb) && !(attackers_to(to, occ ^ square_bb(from)) & pieces(them));
    }
    if (!(attacks(pt, from, occ) & to_bb)) return false;
  }
  const Square k = king_square(us);
  if (checkers_ && (more_than_one(checkers_) || !((BETWEEN[k][lsb(checkers_)] | checkers_) & to_bb)))
    return false;
  return !(pinned(us) & square_bb(from)) || (LINE[k][from] & to_bb);
}

void Position::do_move(Move m) {
  const Color us = side_, them = ~us;
  const Square from = m.from_square(), to = m.to_square(), ep = ep_;
  const Piece pc = board_[from];
  const PieceType pt = type_of(pc);
  // The key loses what changes besides the board (put and remove keep that
  // share) and regains it at the end.
  key_ ^= ZOBRIST.castling[castling_] ^ ZOBRIST.black_to_move;
  if (ep != SQ_NONE && has_legal_en_passant()) key_ ^= ZOBRIST.en_passant[file_of(ep)];
  ++halfmove_;
  ep_ = SQ_NONE;
  if (board_[to] != NO_PIECE) {
    remove(to);
    halfmove_ = 0;
  }
  if (pt == PAWN) {
    halfmove_ = 0;
    if (to == ep)
      remove(Square(to - pawn_push(us)));
    else if (to == from + 2 * pawn_push(us))
      ep_ = Square(from + pawn_push(us));  // always, as python-chess's Board.push does
  } else if (pt == KING && (to == from + 2 || from == to + 2)) {
    const Square rook_from = to > from ? Square(from + 3) : Square(from - 4);
    const Square rook_to = Square((from + to) / 2);
    remove(rook_from);
    put(make_piece(us, ROOK), rook_to);
  }
  remove(from);
  put(m.promotion() != NO_PIECE_TYPE ? make_piece(us, m.promotion()) : pc, to);
  castling_ &= CASTLING_KEEP[from] & CASTLING_KEEP[to];
  if (us == BLACK) ++fullmove_;
  side_ = them;
  checkers_ = attackers_to(king_square(them), pieces()) & pieces(us);
  key_ ^= ZOBRIST.castling[castling_];
  if (ep_ != SQ_NONE && has_legal_en_passant()) key_ ^= ZOBRIST.en_passant[file_of(ep_)];
}

int Position::material(Color c) const {
  int total = 0;
  for (int pt = PAWN; pt <= QUEEN; ++pt) total += PIECE_VALUE[pt] * popcount(pieces(c, PieceType(pt)));
  return total;
}

int Position::non_pawn_material() const {
  int total = 0;
  for (int pt = KNIGHT; pt <= QUEEN; ++pt) total += PIECE_VALUE[pt] * popcount(pieces(PieceType(pt)));
  return total;
}

}  // namespace manaka::chess
