// SFEN text: Position::from_sfen and Position::sfen.
//
//   <board> ' ' <side> ' ' <hands> [' ' <move number>]
//
// The board lists ranks 1..9 separated by '/', each from file 9 to file 1:
// a letter per piece (uppercase Black, lowercase White, '+' before a promoted
// one) and a digit 1-9 per run of empty squares. Side is 'b' or 'w'. Hands
// are '-' or letters each optionally after a count, e.g. "2P3p".
#include <cctype>

#include "shogi/position.h"

namespace manaka::shogi {
namespace {

constexpr std::string_view START_SFEN =
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
constexpr int MOVE_NUMBER_MAX = 1'000'000'000;

// Kind of a board letter, case ignored; KIND_NB if none.
Kind board_kind(char c) {
  c = char(std::toupper(static_cast<unsigned char>(c)));
  for (int k = KING; k <= PAWN; ++k)
    if (KIND_LETTER[k] == c) return Kind(k);
  return KIND_NB;
}

// Hand kind of a letter, case ignored; HAND_KIND_NB if none.
HandKind hand_kind(char c) {
  c = char(std::toupper(static_cast<unsigned char>(c)));
  for (int hk = 0; hk < HAND_KIND_NB; ++hk)
    if (HAND_LETTER[hk] == c) return HandKind(hk);
  return HAND_KIND_NB;
}

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  Result<Position> parse() {
    size_t begin = text_.find_first_not_of(" \t\r\n");
    size_t end = text_.find_last_not_of(" \t\r\n");
    if (begin == std::string_view::npos) return error(0, "expected a board, got the end");
    end_ = end + 1;
    i_ = begin;
    std::string_view body = text_.substr(begin, end_ - begin);
    if (body == "startpos") return Parser(START_SFEN).parse();
    if (body.substr(0, 5) == "sfen ") i_ += 5;
    MANAKA_RETURN_NOT_OK(parse_board());
    MANAKA_RETURN_NOT_OK(expect_space("the side to move"));
    MANAKA_RETURN_NOT_OK(parse_side());
    MANAKA_RETURN_NOT_OK(expect_space("the hands"));
    MANAKA_RETURN_NOT_OK(parse_hands());
    if (i_ < end_) {
      MANAKA_RETURN_NOT_OK(expect_space("the move number"));
      MANAKA_RETURN_NOT_OK(parse_move_number());
    }
    auto pos = Position::from_setup(setup_);
    if (!pos.ok()) return std::move(pos).take_status().with_context(prefix());
    return pos;
  }

 private:
  std::string prefix() const { return "sfen \"" + std::string(text_) + "\": "; }
  Status error(size_t at, const std::string& what) const {
    return Status::invalid(prefix() + "offset " + std::to_string(at) + ": " + what);
  }
  std::string got() const {
    return i_ < end_ ? std::string("got '") + text_[i_] + "'" : std::string("got the end");
  }

  Status expect_space(const char* before) {
    if (i_ < end_ && text_[i_] == ' ') {
      ++i_;
      return {};
    }
    return error(i_, std::string("expected ' ' before ") + before + ", " + got());
  }

  Status parse_board() {
    int rank = 1, filled = 0;  // squares of this rank written so far
    for (; i_ < end_ && text_[i_] != ' '; ++i_) {
      char c = text_[i_];
      if (c == '/') {
        if (filled != 9) return rank_length_error(rank, filled);
        if (++rank > RANK_NB) return error(i_, "more than 9 ranks");
        filled = 0;
      } else if (c >= '1' && c <= '9') {
        filled += c - '0';
        if (filled > FILE_NB) return error(i_, "rank " + std::to_string(rank) + " has more than 9 squares");
      } else {
        bool promoted = c == '+';
        if (promoted) {
          Kind base = ++i_ < end_ ? board_kind(text_[i_]) : KIND_NB;
          if (base == KIND_NB || !can_promote(base))
            return error(i_, "expected a promotable piece letter (R B S N L P, either case) after '+', " + got());
          c = text_[i_];
        }
        Kind k = board_kind(c);
        if (k == KIND_NB) return error(i_, "expected a piece letter, digit 1-9 or '/', " + got());
        if (filled == FILE_NB) return error(i_, "rank " + std::to_string(rank) + " has more than 9 squares");
        Color color = std::isupper(static_cast<unsigned char>(c)) ? BLACK : WHITE;
        setup_.board[make_square(FILE_NB - filled, rank)] = make_piece(color, promoted ? PROMOTED[k] : k);
        ++filled;
      }
    }
    if (filled != FILE_NB) return rank_length_error(rank, filled);
    if (rank != RANK_NB) return error(i_, "the board has " + std::to_string(rank) + " ranks, expected 9");
    return {};
  }

  Status rank_length_error(int rank, int filled) const {
    return error(i_, "rank " + std::to_string(rank) + " has " + std::to_string(filled) +
                         " squares, expected 9");
  }

  Status parse_side() {
    char c = i_ < end_ ? text_[i_] : '\0';
    if (c != 'b' && c != 'w') return error(i_, "expected the side to move 'b' or 'w', " + got());
    setup_.side = c == 'b' ? BLACK : WHITE;
    ++i_;
    if (i_ < end_ && text_[i_] != ' ') return error(i_, "expected ' ' after the side to move, " + got());
    return {};
  }

  Status parse_hands() {
    if (i_ < end_ && text_[i_] == '-') {
      ++i_;
    } else {
      size_t start = i_;
      while (i_ < end_ && text_[i_] != ' ') {
        size_t at = i_;
        int count = 1;
        if (std::isdigit(static_cast<unsigned char>(text_[i_]))) {
          count = 0;
          while (i_ < end_ && std::isdigit(static_cast<unsigned char>(text_[i_])) && count <= 99)
            count = count * 10 + (text_[i_++] - '0');
          if (count == 0) return error(at, "a hand count must be positive");
        }
        HandKind hk = i_ < end_ ? hand_kind(text_[i_]) : HAND_KIND_NB;
        if (hk == HAND_KIND_NB)
          return error(i_, "expected a hand piece letter (R B G S N L P, lowercase for White), " + got());
        Color color = std::isupper(static_cast<unsigned char>(text_[i_])) ? BLACK : WHITE;
        int total = setup_.hand[color][hk] + count;
        if (total > HAND_MAX[hk])
          return error(at, std::string(COLOR_NAME[color]) + "'s hand holds " + std::to_string(total) + " " +
                               KIND_NAME[KIND_OF_HAND[hk]] + "s, more than " +
                               std::to_string(HAND_MAX[hk]));
        setup_.hand[color][hk] = uint8_t(total);
        ++i_;
      }
      if (i_ == start) return error(i_, "expected '-' or hand pieces, " + got());
    }
    if (i_ < end_ && text_[i_] != ' ') return error(i_, "expected ' ' after the hands, " + got());
    return {};
  }

  Status parse_move_number() {
    size_t at = i_;
    long long n = 0;
    for (; i_ < end_ && std::isdigit(static_cast<unsigned char>(text_[i_])); ++i_)
      if (n <= MOVE_NUMBER_MAX) n = n * 10 + (text_[i_] - '0');
    if (i_ == at) return error(i_, "expected a positive move number, " + got());
    if (i_ < end_) return error(i_, "expected the end after the move number, " + got());
    if (n < 1 || n > MOVE_NUMBER_MAX)
      return error(at, "the move number must be from 1 to " + std::to_string(MOVE_NUMBER_MAX) + ", got " +
                           std::string(text_.substr(at, i_ - at)));
    setup_.move_number = int(n);
    return {};
  }

  std::string_view text_;
  size_t i_ = 0, end_ = 0;
  Setup setup_;
};

}  // namespace

Result<Position> Position::from_sfen(std::string_view sfen) { return Parser(sfen).parse(); }

std::string Position::sfen() const {
  std::string out;
  for (int rank = 1; rank <= RANK_NB; ++rank) {
    if (rank > 1) out += '/';
    int empty = 0;
    for (int file = FILE_NB; file >= 1; --file) {
      Piece p = board_[make_square(file, rank)];
      if (p == NO_PIECE) {
        ++empty;
        continue;
      }
      if (empty) out += char('0' + empty), empty = 0;
      Kind k = kind_of(p);
      if (k >= PRO_ROOK) out += '+';
      out += color_of(p) == BLACK ? KIND_LETTER[k] : char(std::tolower(KIND_LETTER[k]));
    }
    if (empty) out += char('0' + empty);
  }
  out += side_ == BLACK ? " b " : " w ";
  size_t hands_at = out.size();
  for (int c = BLACK; c <= WHITE; ++c)
    for (int hk = H_ROOK; hk >= H_PAWN; --hk) {  // R B G S N L P
      int n = hand_[c][hk];
      if (!n) continue;
      if (n > 1) out += std::to_string(n);
      out += c == BLACK ? HAND_LETTER[hk] : char(std::tolower(HAND_LETTER[hk]));
    }
  if (out.size() == hands_at) out += '-';
  out += ' ' + std::to_string(move_number_);
  return out;
}

}  // namespace manaka::shogi
