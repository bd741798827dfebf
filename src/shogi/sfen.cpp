// SFEN text: Position::from_sfen and Position::sfen.
//
//   <board> ' ' <side> ' ' <hands> [' ' <move number>]
//
// The board lists ranks 1..9 separated by '/', each from file 9 to file 1:
// a letter per piece (uppercase Black, lowercase White, '+' before a promoted
// one) and a digit 1-9 per run of empty squares. Side is 'b' or 'w'. Hands
// are '-' or letters each optionally after a count, e.g. "2P3p".
#include <algorithm>
#include <array>
#include <iterator>

#include "core/text.h"
#include "shogi/position.h"

namespace manaka::shogi {
namespace {

constexpr std::string_view START_SFEN =
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
constexpr int MOVE_NUMBER_MAX = 1'000'000'000;

constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }
constexpr char lower(char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; }

// Letter tables, indexed by the byte: the unpromoted kind (KIND_NB if none)
// or hand kind (HAND_KIND_NB if none) a letter names, case ignored.
struct Letters {
  Kind kind[256];
  HandKind hand[256];
  constexpr Letters() : kind(), hand() {
    for (auto& k : kind) k = KIND_NB;
    for (auto& h : hand) h = HAND_KIND_NB;
    for (int k = KING; k <= PAWN; ++k) {
      kind[uint8_t(KIND_LETTER[k])] = kind[uint8_t(lower(KIND_LETTER[k]))] = Kind(k);
    }
    for (int hk = 0; hk < HAND_KIND_NB; ++hk)
      hand[uint8_t(HAND_LETTER[hk])] = hand[uint8_t(lower(HAND_LETTER[hk]))] = HandKind(hk);
  }
};
constexpr Letters LETTERS;

Kind board_kind(char c) { return LETTERS.kind[uint8_t(c)]; }
HandKind hand_kind(char c) { return LETTERS.hand[uint8_t(c)]; }

// The SFEN text of each board byte: "+r", "K", ..., and nothing for an
// empty square (NO_PIECE), so the writer needs no branch per square.
struct PieceTexts {
  char text[256][2];
  uint8_t size[256];
  constexpr PieceTexts() : text(), size() {
    for (int c = BLACK; c <= WHITE; ++c)
      for (int k = KING; k < KIND_NB; ++k) {
        Piece p = make_piece(Color(c), Kind(k));
        char letter = c == BLACK ? KIND_LETTER[k] : lower(KIND_LETTER[k]);
        size[p] = k >= PRO_ROOK ? 2 : 1;
        text[p][0] = k >= PRO_ROOK ? '+' : letter;
        text[p][1] = letter;
      }
  }
};
constexpr PieceTexts PIECE_TEXTS;

// What each byte of a board field does, for the branch-free scan: how many
// squares it covers (a letter 1, a digit its value), the piece it puts on the
// first of them, plain and after '+' (NO_PIECE when it is not a letter, or
// not promotable after '+'), and whether it is '/', '+' or any valid byte.
struct BoardChars {
  uint8_t step[256];
  Piece piece[256][2];
  bool slash[256], plus[256], valid[256];
  constexpr BoardChars() : step(), piece(), slash(), plus(), valid() {
    for (int c = 0; c < 256; ++c) piece[c][0] = piece[c][1] = NO_PIECE;
    for (int k = KING; k <= PAWN; ++k)
      for (int color = BLACK; color <= WHITE; ++color) {
        char letter = color == BLACK ? KIND_LETTER[k] : lower(KIND_LETTER[k]);
        auto c = uint8_t(letter);
        step[c] = 1;
        valid[c] = true;
        piece[c][0] = make_piece(Color(color), Kind(k));
        if (can_promote(Kind(k))) piece[c][1] = make_piece(Color(color), PROMOTED[k]);
      }
    for (int d = 1; d <= 9; ++d) step['0' + d] = uint8_t(d), valid['0' + d] = true;
    slash[uint8_t('/')] = valid[uint8_t('/')] = true;
    plus[uint8_t('+')] = valid[uint8_t('+')] = true;
  }
};
constexpr BoardChars BOARD_CHARS;

// Square index of the i-th square in SFEN order (rank by rank, file 9 to 1).
constexpr std::array<Square, SQUARE_NB> SFEN_ORDER = [] {
  std::array<Square, SQUARE_NB> t{};
  for (int i = 0; i < SQUARE_NB; ++i) t[size_t(i)] = make_square(FILE_NB - i % 9, i / 9 + 1);
  return t;
}();

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
    if (!scan_board()) {
      i_ = board_at_;
      MANAKA_RETURN_NOT_OK(parse_board());  // names what is wrong
    }
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
  std::string prefix() const { return "sfen \"" + excerpt(text_) + "\": "; }
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

  // The board field without a branch per character; false on anything
  // parse_board would refuse, which then says why. Branches on the class of
  // each character (letter, digit, '/') mispredict on every few characters.
  bool scan_board() {
    board_at_ = i_;
    Piece squares[SQUARE_NB + 1];  // SFEN order; one spare for a stray '+' at the end
    std::fill(std::begin(squares), std::end(squares), NO_PIECE);
    int at = 0, rank_end = FILE_NB;  // the next square, and where its rank ends
    bool promoted = false, bad = false;
    for (; i_ < end_ && text_[i_] != ' '; ++i_) {
      const auto c = uint8_t(text_[i_]);
      const Piece piece = BOARD_CHARS.piece[c][promoted];
      bad |= !BOARD_CHARS.valid[c] | (promoted & (piece == NO_PIECE));
      bad |= BOARD_CHARS.slash[c] & (at != rank_end);
      rank_end += BOARD_CHARS.slash[c] * FILE_NB;
      const int next = at + BOARD_CHARS.step[c];
      bad |= (next > rank_end) | (rank_end > SQUARE_NB);
      if (bad) return false;
      squares[at] = piece;  // NO_PIECE under a digit, '/' or '+': empty or written next
      at = next;
      promoted = BOARD_CHARS.plus[c];
    }
    if (promoted || at != SQUARE_NB || rank_end != SQUARE_NB) return false;
    for (int i = 0; i < SQUARE_NB; ++i) setup_.board[SFEN_ORDER[size_t(i)]] = squares[i];
    return true;
  }

  Status parse_board() {
    int rank = 1, filled = 0;  // squares of this rank written so far
    for (; i_ < end_; ++i_) {
      const char c = text_[i_];
      Kind k = board_kind(c);
      if (k == KIND_NB) {
        if (c >= '1' && c <= '9') {
          filled += c - '0';
          if (filled > FILE_NB) return error(i_, "rank " + std::to_string(rank) + " has more than 9 squares");
          continue;
        }
        if (c == ' ') break;
        if (c == '/') {
          if (filled != 9) return rank_length_error(rank, filled);
          if (++rank > RANK_NB) return error(i_, "more than 9 ranks");
          filled = 0;
          continue;
        }
        if (c != '+') return error(i_, "expected a piece letter, digit 1-9 or '/', " + got());
        k = ++i_ < end_ ? board_kind(text_[i_]) : KIND_NB;
        if (k == KIND_NB || !can_promote(k))
          return error(i_, "expected a promotable piece letter (R B S N L P, either case) after '+', " + got());
        k = PROMOTED[k];
      }
      if (filled == FILE_NB) return error(i_, "rank " + std::to_string(rank) + " has more than 9 squares");
      Color color = text_[i_] <= 'Z' ? BLACK : WHITE;
      // File 9 - filled: square filled * 9 + rank - 1 (types.h).
      setup_.board[filled * RANK_NB + rank - 1] = make_piece(color, k);
      ++filled;
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
        if (is_digit(text_[i_])) {
          count = 0;
          while (i_ < end_ && is_digit(text_[i_]) && count <= 99)
            count = count * 10 + (text_[i_++] - '0');
          if (count == 0) return error(at, "a hand count must be positive");
        }
        HandKind hk = i_ < end_ ? hand_kind(text_[i_]) : HAND_KIND_NB;
        if (hk == HAND_KIND_NB)
          return error(i_, "expected a hand piece letter (R B G S N L P, lowercase for White), " + got());
        Color color = text_[i_] <= 'Z' ? BLACK : WHITE;
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
    for (; i_ < end_ && is_digit(text_[i_]); ++i_)
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
  size_t board_at_ = 0;
  Setup setup_;
};

}  // namespace

Result<Position> Position::from_sfen(std::string_view sfen) { return Parser(sfen).parse(); }

size_t Position::write_sfen(char* out) const {
  char* o = out;
  for (int rank = 1; rank <= RANK_NB; ++rank) {
    if (rank > 1) *o++ = '/';
    // Branch-free: the run digit is always stored and kept only when a piece
    // ends a run; an empty square's text has length 0.
    int empty = 0;
    for (Square s = make_square(FILE_NB, rank); s < SQUARE_NB; s += 9) {  // files 9..1
      Piece p = board_[s];
      bool is_empty = p == NO_PIECE;
      *o = char('0' + empty);
      o += !is_empty & (empty != 0);
      o[0] = PIECE_TEXTS.text[p][0];
      o[1] = PIECE_TEXTS.text[p][1];
      o += PIECE_TEXTS.size[p];
      empty = (empty + 1) & -int(is_empty);  // arithmetic: a branch here mispredicts
    }
    *o = char('0' + empty);
    o += empty != 0;
  }
  *o++ = ' ';
  *o++ = side_ == BLACK ? 'b' : 'w';
  *o++ = ' ';
  const char* hands_at = o;
  for (int c = BLACK; c <= WHITE; ++c)
    for (int hk = H_ROOK; hk >= H_PAWN; --hk) {  // R B G S N L P
      int n = hand_[c][hk];
      if (!n) continue;
      if (n >= 10) *o++ = char('0' + n / 10);
      if (n > 1) *o++ = char('0' + n % 10);
      *o++ = c == BLACK ? HAND_LETTER[hk] : lower(HAND_LETTER[hk]);
    }
  if (o == hands_at) *o++ = '-';
  *o++ = ' ';
  char digits[12];
  int d = 0;
  for (unsigned n = unsigned(move_number_); d == 0 || n; n /= 10) digits[d++] = char('0' + n % 10);
  while (d) *o++ = digits[--d];
  return size_t(o - out);
}

std::string Position::sfen() const {
  char buf[SFEN_MAX];
  return std::string(buf, write_sfen(buf));
}

}  // namespace manaka::shogi
