#include "chess/san.h"

#include <cassert>

#include "chess/movegen.h"

namespace manaka::chess {
namespace {

constexpr std::string_view SAN_SUFFIX_CHARS = "+#!?";

PieceType piece_of_letter(char c) {
  switch (c) {
    case 'N': return KNIGHT;
    case 'B': return BISHOP;
    case 'R': return ROOK;
    case 'Q': return QUEEN;
    case 'K': return KING;
    default: return NO_PIECE_TYPE;
  }
}

bool is_file(char c) { return c >= 'a' && c <= 'h'; }
bool is_rank(char c) { return c >= '1' && c <= '8'; }

// The king's two-square move: castling, as Move writes it.
bool is_castling(const Position& pos, Move m) {
  Square from = m.from_square();
  return type_of(pos.piece_on(from)) == KING && (file_of(from) - file_of(m.to_square()) == 2 ||
                                                  file_of(m.to_square()) - file_of(from) == 2);
}

Status refusal(const char* kind, const Position& pos, std::string_view san, const std::string& reason) {
  return Status::invalid(std::string(kind) + " san: '" + std::string(san) + "' in " + pos.fen() + ": " + reason);
}

// " from b1", " from the b-file", " from rank 1": the origin the text named.
std::string origin_hint(int file, int rank) {
  if (file >= 0 && rank >= 0) return " from " + square_name(make_square(file, rank));
  if (file >= 0) return std::string(" from the ") + char('a' + file) + "-file";
  if (rank >= 0) return std::string(" from rank ") + char('1' + rank);
  return "";
}

Result<Move> parse_castling(const Position& pos, std::string_view san, bool kingside) {
  const Color us = pos.side_to_move();
  const int right = (us == WHITE ? 0 : 2) + (kingside ? 0 : 1);
  Move m = Move::make(CASTLING_KING_FROM[right], CASTLING_KING_TO[right]);
  if (type_of(pos.piece_on(m.from_square())) == KING && pos.is_legal(m)) return m;
  return refusal("illegal", pos, san, std::string(kingside ? "kingside" : "queenside") + " castling is not legal");
}

}  // namespace

Result<Move> parse_san(const Position& pos, std::string_view san) {
  std::string_view text = san;
  while (!text.empty() && SAN_SUFFIX_CHARS.find(text.back()) != std::string_view::npos) text.remove_suffix(1);
  if (text.empty()) return refusal("invalid", pos, san, "no move before the check or annotation marks");

  if (text == "O-O" || text == "0-0") return parse_castling(pos, san, true);
  if (text == "O-O-O" || text == "0-0-0") return parse_castling(pos, san, false);
  if (text == "--" || text == "Z0" || text == "0000" || text == "@@@@")
    return refusal("invalid", pos, san, "the null move is not supported");

  // [piece] [file] [rank] [-x] destination [=promotion], read from both ends.
  size_t begin = 0, end = text.size();
  PieceType piece = piece_of_letter(text[0]);
  if (piece != NO_PIECE_TYPE) ++begin;
  PieceType promotion = NO_PIECE_TYPE;
  if (end - begin >= 3 && !is_rank(text[end - 1])) {
    // A promotion letter follows the destination's rank, with or without '='.
    const char c = text[end - 1];
    const bool after_equals = text[end - 2] == '=';
    if (after_equals || is_rank(text[end - 2])) {
      promotion = piece_of_letter(char(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c));
      if (promotion == NO_PIECE_TYPE || promotion == KING)
        return refusal("invalid", pos, san,
                       std::string("'") + c + "' is not a promotion piece (Q, R, B or N)");
      end -= after_equals ? 2 : 1;
    }
  }
  if (end - begin < 2 || !is_file(text[end - 2]) || !is_rank(text[end - 1]))
    return refusal("invalid", pos, san, "expected a destination square (a1 .. h8) or O-O / O-O-O");
  const Square to = make_square(text[end - 2] - 'a', text[end - 1] - '1');
  std::string_view origin = text.substr(begin, end - 2 - begin);
  if (!origin.empty() && (origin.back() == 'x' || origin.back() == '-')) origin.remove_suffix(1);
  int from_file = -1, from_rank = -1;
  size_t i = 0;
  if (i < origin.size() && is_file(origin[i])) from_file = origin[i++] - 'a';
  if (i < origin.size() && is_rank(origin[i])) from_rank = origin[i++] - '1';
  if (i != origin.size())
    return refusal("invalid", pos, san, "expected a piece letter (N B R Q K), a file or a rank before the destination");
  if (promotion != NO_PIECE_TYPE && piece != NO_PIECE_TYPE)
    return refusal("illegal", pos, san, std::string("a ") + PIECE_TYPE_NAME[piece] + " cannot promote");

  // A square-to-square move without a piece letter names any piece.
  if (piece == NO_PIECE_TYPE && from_file >= 0 && from_rank >= 0) {
    const Square from = make_square(from_file, from_rank);
    Move m = Move::make(from, to, promotion);
    if (m.well_formed() && pos.is_legal(m)) return m;
    if (promotion == NO_PIECE_TYPE && type_of(pos.piece_on(from)) == PAWN &&
        pos.is_legal(Move::make(from, to, QUEEN)))
      return refusal("illegal", pos, san, "a pawn reaching the last rank must name its promotion (=Q, =R, =B or =N)");
    return refusal("illegal", pos, san, "no legal move from " + square_name(from) + " to " + square_name(to));
  }

  const Color us = pos.side_to_move();
  const PieceType type = piece == NO_PIECE_TYPE ? PAWN : piece;
  // A pawn move without an origin file is a push along the destination's file.
  if (type == PAWN && from_file < 0) from_file = file_of(to);

  MoveList list;
  generate_legal(pos, list);
  Move found = MOVE_NONE;
  Bitboard origins = 0;  // of every matching move, to name them when ambiguous
  bool missing_promotion = false;
  for (Move m : list) {
    const Square from = m.from_square();
    if (m.to_square() != to || pos.piece_on(from) != make_piece(us, type)) continue;
    if ((from_file >= 0 && file_of(from) != from_file) || (from_rank >= 0 && rank_of(from) != from_rank)) continue;
    if (type == KING && is_castling(pos, m)) continue;  // castling is spelled O-O / O-O-O
    if (m.promotion() != promotion) {
      missing_promotion |= promotion == NO_PIECE_TYPE;
      continue;
    }
    if (found == MOVE_NONE) found = m;
    origins |= square_bb(from);
  }
  if (more_than_one(origins)) {
    const char* quantifier = popcount(origins) == 2 ? " can both" : " can all";
    std::string squares;
    for (Bitboard b = origins; b; b &= b - 1) {
      if (!squares.empty()) squares += more_than_one(b) ? ", " : " and ";
      squares += square_name(lsb(b));
    }
    return refusal("ambiguous", pos, san,
                   std::string(PIECE_TYPE_NAME[type]) + "s on " + squares + quantifier + " move to " + square_name(to));
  }
  if (found != MOVE_NONE) return found;
  if (missing_promotion)
    return refusal("illegal", pos, san, "a pawn reaching the last rank must name its promotion (=Q, =R, =B or =N)");
  // A pawn push's file is implied; name only what the text named.
  const bool implied_file = piece == NO_PIECE_TYPE && origin.empty();
  std::string reason = std::string("no legal ") + PIECE_TYPE_NAME[type] + " move" +
                       origin_hint(implied_file ? -1 : from_file, from_rank) + " to " + square_name(to);
  if (promotion != NO_PIECE_TYPE) reason += std::string(" promoting to a ") + PIECE_TYPE_NAME[promotion];
  return refusal("illegal", pos, san, reason);
}

std::string to_san(const Position& pos, Move m) {
  assert(pos.is_legal(m));
  const Square from = m.from_square(), to = m.to_square();
  const PieceType type = type_of(pos.piece_on(from));
  std::string san;
  if (is_castling(pos, m)) {
    san = file_of(to) > file_of(from) ? "O-O" : "O-O-O";
  } else {
    const bool capture = pos.piece_on(to) != NO_PIECE || (type == PAWN && file_of(from) != file_of(to));
    if (type == PAWN) {
      if (capture) san += char('a' + file_of(from));
    } else {
      san += PIECE_TYPE_LETTER[type];
      // python-chess: the other pieces of this type that can reach `to`.
      Bitboard others = 0;
      if (type != KING) {
        MoveList list;
        generate_legal(pos, list);
        for (Move o : list)
          if (o.to_square() == to && o.from_square() != from && pos.piece_on(o.from_square()) == pos.piece_on(from))
            others |= square_bb(o.from_square());
      }
      if (others) {
        bool file = false, rank = false;
        if (others & rank_bb(rank_of(from))) file = true;
        if (others & file_bb(file_of(from)))
          rank = true;
        else
          file = true;
        if (file) san += char('a' + file_of(from));
        if (rank) san += char('1' + rank_of(from));
      }
    }
    if (capture) san += 'x';
    san += square_name(to);
    if (m.promotion() != NO_PIECE_TYPE) {
      san += '=';
      san += PIECE_TYPE_LETTER[m.promotion()];
    }
  }
  Position after = pos;
  after.do_move(m);
  if (after.in_check()) san += count_legal(after) == 0 ? '#' : '+';
  return san;
}

}  // namespace manaka::chess
