// FEN text: Position::from_fen, Position::fen and Position::normalized_fen.
//
//   <board> ' ' <side> ' ' <castling> ' ' <en passant> [' ' <halfmove clock> ' ' <fullmove number>]
//
// The board lists ranks 8..1 separated by '/', each from the a-file to the
// h-file: a letter per piece (PNBRQK White, pnbrqk Black) and a digit 1-8
// per run of empty squares (never two digits in a row). Side is 'w' or 'b'.
// Castling is '-' or letters from "KQkq" in that order. En passant is '-'
// or a square. Without the two counters the halfmove clock is 0 and the
// fullmove number 1 (a four-field EPD-style FEN); five fields are refused.

#include "chess/position.h"
#include "core/text.h"

namespace manaka::chess {
namespace {

constexpr std::string_view START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The piece a FEN letter names, NO_PIECE for anything else.
constexpr std::array<Piece, 256> LETTER_PIECE = [] {
  std::array<Piece, 256> t{};
  for (int pt = PAWN; pt <= KING; ++pt) {
    t[uint8_t(PIECE_TYPE_LETTER[pt])] = make_piece(WHITE, PieceType(pt));
    t[uint8_t(PIECE_TYPE_LETTER[pt] - 'A' + 'a')] = make_piece(BLACK, PieceType(pt));
  }
  return t;
}();

// The FEN letter of each piece; index NO_PIECE unused.
constexpr std::array<char, PIECE_NB> PIECE_LETTER = [] {
  std::array<char, PIECE_NB> t{};
  for (int pt = PAWN; pt <= KING; ++pt) {
    t[make_piece(WHITE, PieceType(pt))] = PIECE_TYPE_LETTER[pt];
    t[make_piece(BLACK, PieceType(pt))] = char(PIECE_TYPE_LETTER[pt] - 'A' + 'a');
  }
  return t;
}();

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  Result<Position> parse() {
    size_t begin = text_.find_first_not_of(" \t\r\n");
    if (begin == std::string_view::npos) return error(0, "expected a board, got the end");
    end_ = text_.find_last_not_of(" \t\r\n") + 1;
    i_ = begin;
    if (text_.substr(begin, end_ - begin) == "startpos") return Parser(START_FEN).parse();
    MANAKA_RETURN_NOT_OK(parse_board());
    MANAKA_RETURN_NOT_OK(expect_space("the side to move"));
    MANAKA_RETURN_NOT_OK(parse_side());
    MANAKA_RETURN_NOT_OK(expect_space("the castling rights"));
    MANAKA_RETURN_NOT_OK(parse_castling());
    MANAKA_RETURN_NOT_OK(expect_space("the en-passant square"));
    MANAKA_RETURN_NOT_OK(parse_ep());
    if (i_ < end_) {
      MANAKA_RETURN_NOT_OK(expect_space("the halfmove clock"));
      MANAKA_ASSIGN_OR_RETURN(setup_.halfmove_clock, parse_number("the halfmove clock", 0, Position::HALFMOVE_MAX));
      MANAKA_RETURN_NOT_OK(expect_space("the fullmove number"));
      MANAKA_ASSIGN_OR_RETURN(setup_.fullmove_number,
                              parse_number("the fullmove number", 1, Position::FULLMOVE_MAX));
      if (i_ < end_) return error(i_, "expected the end after the fullmove number, " + got());
    }
    auto pos = Position::from_setup(setup_);
    if (!pos.ok()) return std::move(pos).take_status().with_context(prefix());
    return pos;
  }

 private:
  std::string prefix() const { return "fen \"" + excerpt(text_) + "\": "; }
  Status error(size_t at, const std::string& what) const {
    return Status::invalid(prefix() + "offset " + std::to_string(at) + ": " + what);
  }
  std::string got() const { return i_ < end_ ? std::string("got '") + text_[i_] + "'" : "got the end"; }
  bool at_field_end() const { return i_ >= end_ || text_[i_] == ' '; }

  Status expect_space(const char* before) {
    if (i_ < end_ && text_[i_] == ' ') {
      ++i_;
      return {};
    }
    return error(i_, std::string("expected ' ' before ") + before + ", " + got());
  }

  Status parse_board() {
    int rank = 7, file = 0;  // the next square to fill
    bool after_digit = false;
    for (; !at_field_end(); ++i_) {
      const char c = text_[i_];
      if (c == '/') {
        if (file != FILE_NB) return rank_length_error(rank, file);
        if (rank == 0) return error(i_, "more than 8 ranks");
        --rank;
        file = 0;
        after_digit = false;
        continue;
      }
      const Piece p = LETTER_PIECE[uint8_t(c)];
      const bool digit = c >= '1' && c <= '8';
      if (p == NO_PIECE && !digit)
        return error(i_, "expected a piece letter (PNBRQK, pnbrqk for Black), a digit 1-8 or '/', " + got());
      if (digit && after_digit) return error(i_, "expected a piece letter or '/' after a digit, " + got());
      const int width = digit ? c - '0' : 1;
      if (file + width > FILE_NB) return error(i_, "rank " + std::to_string(rank + 1) + " has more than 8 squares");
      if (p != NO_PIECE) setup_.board[make_square(file, rank)] = p;
      file += width;
      after_digit = digit;
    }
    if (file != FILE_NB) return rank_length_error(rank, file);
    if (rank != 0) return error(i_, "the board has " + std::to_string(8 - rank) + " ranks, expected 8");
    return {};
  }

  Status rank_length_error(int rank, int file) const {
    return error(i_, "rank " + std::to_string(rank + 1) + " has " + std::to_string(file) + " squares, expected 8");
  }

  Status parse_side() {
    const char c = i_ < end_ ? text_[i_] : '\0';
    if (c != 'w' && c != 'b') return error(i_, "expected the side to move 'w' or 'b', " + got());
    setup_.side = c == 'w' ? WHITE : BLACK;
    ++i_;
    if (!at_field_end()) return error(i_, "expected ' ' after the side to move, " + got());
    return {};
  }

  Status parse_castling() {
    if (i_ < end_ && text_[i_] == '-') {
      ++i_;
    } else {
      int next = 0;  // the first right of KQkq that may still follow
      const size_t start = i_;
      for (; !at_field_end(); ++i_) {
        int right = 0;
        while (right < CASTLING_RIGHT_NB && CASTLING_LETTER[right] != text_[i_]) ++right;
        if (right == CASTLING_RIGHT_NB)
          return error(i_, "expected '-' or castling letters K, Q, k, q, " + got());
        if (right < next)
          return error(i_, std::string("castling letter '") + text_[i_] +
                               "' repeated or out of order, expected the order KQkq");
        setup_.castling |= uint8_t(1 << right);
        next = right + 1;
      }
      if (i_ == start) return error(i_, "expected '-' or castling letters K, Q, k, q, " + got());
    }
    if (!at_field_end()) return error(i_, "expected ' ' after the castling rights, " + got());
    return {};
  }

  Status parse_ep() {
    if (i_ < end_ && text_[i_] == '-') {
      ++i_;
    } else {
      if (i_ >= end_ || text_[i_] < 'a' || text_[i_] > 'h')
        return error(i_, "expected '-' or an en-passant square such as e3, " + got());
      const int file = text_[i_++] - 'a';
      if (i_ >= end_ || text_[i_] < '1' || text_[i_] > '8')
        return error(i_, "expected the rank 1-8 of the en-passant square, " + got());
      setup_.ep = make_square(file, text_[i_++] - '1');
    }
    if (!at_field_end()) return error(i_, "expected ' ' after the en-passant square, " + got());
    return {};
  }

  Result<int> parse_number(const char* what, int min, int max) {
    const size_t at = i_;
    long long n = 0;
    for (; i_ < end_ && is_digit(text_[i_]); ++i_)
      if (n <= max) n = n * 10 + (text_[i_] - '0');
    if (i_ == at) return error(i_, std::string("expected ") + what + " (digits), " + got());
    if (!at_field_end()) return error(i_, std::string("expected a digit in ") + what + ", " + got());
    if (n < min || n > max)
      return error(at, std::string(what) + " must be from " + std::to_string(min) + " to " + std::to_string(max) +
                           ", got " + std::string(text_.substr(at, i_ - at)));
    return int(n);
  }

  std::string_view text_;
  size_t i_ = 0, end_ = 0;
  Setup setup_;
};

std::string write_fen(const Position& pos, int fullmove) {
  std::string out;
  out.reserve(90);
  for (int rank = 7; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < FILE_NB; ++file) {
      const Piece p = pos.piece_on(make_square(file, rank));
      if (p == NO_PIECE) {
        ++empty;
        continue;
      }
      if (empty) out += char('0' + empty);
      empty = 0;
      out += PIECE_LETTER[p];
    }
    if (empty) out += char('0' + empty);
    if (rank) out += '/';
  }
  out += pos.side_to_move() == WHITE ? " w " : " b ";
  const size_t castling_at = out.size();
  for (int i = 0; i < CASTLING_RIGHT_NB; ++i)
    if (pos.castling_rights() & (1 << i)) out += CASTLING_LETTER[i];
  if (out.size() == castling_at) out += '-';
  out += ' ';
  // Only a square where a legal capture exists: python-chess's default
  // en_passant="legal", so that a position has one FEN.
  out += pos.has_legal_en_passant() ? square_name(pos.ep_square()) : "-";
  out += ' ';
  out += std::to_string(pos.halfmove_clock());
  out += ' ';
  out += std::to_string(fullmove);
  return out;
}

}  // namespace

Result<Position> Position::from_fen(std::string_view fen) { return Parser(fen).parse(); }

std::string Position::fen() const { return write_fen(*this, fullmove_); }

std::string Position::normalized_fen() const { return write_fen(*this, 1); }

}  // namespace manaka::chess
