#include <gtest/gtest.h>

#include <array>
#include <cctype>
#include <optional>
#include <random>

#include "shogi/position.h"

namespace manaka::shogi {
namespace {

constexpr const char* START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

std::string refusal(const std::string& sfen) {
  auto pos = Position::from_sfen(sfen);
  if (pos.ok()) return "accepted";
  EXPECT_EQ(pos.status().kind(), ErrorKind::Invalid);
  return pos.status().message();
}

std::string expected(const std::string& sfen, const std::string& what) {
  return "sfen \"" + sfen + "\": " + what;
}

TEST(Sfen, StartposAndItsSpellings) {
  EXPECT_EQ(Position::startpos().sfen(), START);
  EXPECT_EQ(Position::from_sfen("startpos")->sfen(), START);
  EXPECT_EQ(Position::from_sfen(std::string("sfen ") + START)->sfen(), START);
  EXPECT_EQ(Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -")->sfen(), START);
  EXPECT_EQ(Position::from_sfen(std::string("  ") + START + "\n")->sfen(), START);
  Position p = Position::startpos();
  EXPECT_EQ(p.side_to_move(), BLACK);
  EXPECT_EQ(p.move_number(), 1);
  EXPECT_EQ(p.piece_on(make_square(5, 9)), make_piece(BLACK, KING));
  EXPECT_EQ(p.piece_on(make_square(2, 2)), make_piece(WHITE, BISHOP));
  EXPECT_EQ(p.piece_on(make_square(5, 5)), NO_PIECE);
  EXPECT_FALSE(p.in_check());
}

TEST(Sfen, RoundTrips) {
  for (const char* sfen : {
           "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
           "ln1g5/1r2S1k2/p2pppn2/2ps2p2/1p7/2P6/PPSPPPPLP/2G2K1pr/LN4G1b w BGSLPnp 62",
           "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
           "8k/9/6NG1/9/9/9/9/9/4K4 b P 1",
           "+R+B+S+N+L+P3/k8/9/9/9/9/9/9/K8 w rb4g3s3n3l17p 999",
       }) {
    auto pos = Position::from_sfen(sfen);
    ASSERT_TRUE(pos.ok()) << pos.status().message();
    EXPECT_EQ(pos->sfen(), sfen);
  }
}

TEST(Sfen, HandsAreWrittenInStandardOrder) {
  auto pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 w pP2nGrs2L 7");
  ASSERT_TRUE(pos.ok()) << pos.status().message();
  EXPECT_EQ(pos->sfen(), "4k4/9/9/9/9/9/9/9/4K4 w G2LPrs2np 7");
  EXPECT_EQ(pos->hand_count(BLACK, H_LANCE), 2);
  EXPECT_EQ(pos->hand_count(WHITE, H_KNIGHT), 2);
  EXPECT_EQ(pos->hand_count(WHITE, H_GOLD), 0);
}

TEST(Sfen, RefusesSyntaxWithOffsetAndExpectation) {
  std::string s = "lnsgkgsnl/1r5b1/ppppxpppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
  EXPECT_EQ(refusal(s), expected(s, "offset 20: expected a piece letter, digit 1-9 or '/', got 'x'"));
  s = "lnsgkgsnl/1r5b/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
  EXPECT_EQ(refusal(s), expected(s, "offset 14: rank 2 has 8 squares, expected 9"));
  s = "lnsgkgsnl/1r5b11/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
  EXPECT_EQ(refusal(s), expected(s, "offset 15: rank 2 has more than 9 squares"));
  s = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL/9 b - 1";
  EXPECT_EQ(refusal(s), expected(s, "offset 57: more than 9 ranks"));
  s = "lnsgkgsnl/1r5b1/ppppppppp/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
  EXPECT_EQ(refusal(s), expected(s, "offset 55: the board has 8 ranks, expected 9"));
  s = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1";
  EXPECT_EQ(refusal(s), expected(s, "offset 56: rank 9 has 8 squares, expected 9"));
  s = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNS+GKGSNL b - 1";
  EXPECT_EQ(refusal(s), expected(s, "offset 52: expected a promotable piece letter (R B S N L P, either case) "
                                    "after '+', got 'G'"));
  s = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN+";
  EXPECT_EQ(refusal(s), expected(s, "offset 57: expected a promotable piece letter (R B S N L P, either case) "
                                    "after '+', got the end"));
  s = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1";
  EXPECT_EQ(refusal(s), expected(s, "offset 58: expected the side to move 'b' or 'w', got 'x'"));
  s = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL";
  EXPECT_EQ(refusal(s), expected(s, "offset 57: expected ' ' before the side to move, got the end"));
  s = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b";
  EXPECT_EQ(refusal(s), expected(s, "offset 59: expected ' ' before the hands, got the end"));
  s = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b K 1";
  EXPECT_EQ(refusal(s), expected(s, "offset 60: expected a hand piece letter (R B G S N L P, lowercase for "
                                    "White), got 'K'"));
  s = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 0P 1";
  EXPECT_EQ(refusal(s), expected(s, "offset 60: a hand count must be positive"));
  s = "4k4/9/9/9/9/9/9/9/4K4 b 19P 1";
  EXPECT_EQ(refusal(s), expected(s, "offset 24: Black's hand holds 19 pawns, more than 18"));
  s = "4k4/9/9/9/9/9/9/9/4K4 b Ss4S 1";
  EXPECT_EQ(refusal(s), expected(s, "offset 26: Black's hand holds 5 silvers, more than 4"));
  s = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 0";
  EXPECT_EQ(refusal(s), expected(s, "offset 62: the move number must be from 1 to 1000000000, got 0"));
  s = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1x";
  EXPECT_EQ(refusal(s), expected(s, "offset 63: expected the end after the move number, got 'x'"));
  s = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 2";
  EXPECT_EQ(refusal(s), expected(s, "offset 63: expected the end after the move number, got ' '"));
  s = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -  1";
  EXPECT_EQ(refusal(s), expected(s, "offset 62: expected a positive move number, got ' '"));
  s = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 99999999999";
  EXPECT_EQ(refusal(s), expected(s, "offset 62: the move number must be from 1 to 1000000000, got 99999999999"));
  EXPECT_EQ(refusal(""), expected("", "offset 0: expected a board, got the end"));
}

TEST(Sfen, AHugeInputIsQuotedShort) {
  std::string s = std::string(START) + " " + std::string(100'000, 'x');
  std::string why = refusal(s);
  EXPECT_LT(why.size(), 300u) << why.substr(0, 300);
  EXPECT_NE(why.find("... (" + std::to_string(s.size()) + " bytes)\": "), std::string::npos) << why.substr(0, 300);
}

TEST(Sfen, RefusesPositionsThatBreakTheRules) {
  std::string s = "8k/9/9/9/9/9/9/9/9 b - 1";
  EXPECT_EQ(refusal(s), expected(s, "Black has no king"));
  s = "4K4/9/9/9/9/9/9/9/4K4 b - 1";
  EXPECT_EQ(refusal(s), expected(s, "Black has a second king, on 5i"));
  s = "4k4/9/9/9/9/9/9/9/4k4 b - 1";
  EXPECT_EQ(refusal(s), expected(s, "White has a second king, on 5i"));
  s = "P3k4/9/9/9/9/9/9/9/4K4 b - 1";
  EXPECT_EQ(refusal(s), expected(s, "Black pawn on 9a can never move (rank 1)"));
  s = "4k3L/9/9/9/9/9/9/9/4K4 b - 1";
  EXPECT_EQ(refusal(s), expected(s, "Black lance on 1a can never move (rank 1)"));
  s = "4k4/4N4/9/9/9/9/9/9/4K4 b - 1";
  EXPECT_EQ(refusal(s), expected(s, "Black knight on 5b can never move (rank 2)"));
  s = "4k4/9/9/9/9/9/9/n8/4K4 b - 1";
  EXPECT_EQ(refusal(s), expected(s, "White knight on 9h can never move (rank 8)"));
  s = "4k4/9/9/9/9/9/9/9/p3K4 b - 1";
  EXPECT_EQ(refusal(s), expected(s, "White pawn on 9i can never move (rank 9)"));
  s = "4k4/9/4P4/9/9/9/4P4/9/4K4 b - 1";
  EXPECT_EQ(refusal(s), expected(s, "Black has two unpromoted pawns on file 5 (nifu), the second on 5g"));
  s = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P 1";
  EXPECT_EQ(refusal(s), expected(s, "19 pawns on the board and in hands, more than the 18 of a set"));
  s = "4k4/9/9/9/9/9/9/9/4K4 b 2R2r 1";
  EXPECT_EQ(refusal(s), expected(s, "4 rooks on the board and in hands, more than the 2 of a set"));
  s = "4k4/4R4/9/9/9/9/9/9/4K4 b - 1";
  EXPECT_EQ(refusal(s), expected(s, "White, not to move, is in check"));
  // The same check is fine with White to move, and a tokin never counts as nifu.
  EXPECT_EQ(refusal("4k4/4R4/9/9/9/9/9/9/4K4 w - 1"), "accepted");
  EXPECT_EQ(refusal("4k4/9/4+P4/9/9/9/4P4/9/4K4 b - 1"), "accepted");
  EXPECT_EQ(refusal("4k4/4+P4/9/9/9/9/9/9/4K4 w - 1"), "accepted");
}

// An independent, slow reading of a board field: the piece on each square in
// SFEN order (rank 1 first, file 9 to 1), or nothing when the text is not a
// board.
std::optional<std::array<Piece, SQUARE_NB>> reference_board(std::string_view field) {
  std::array<Piece, SQUARE_NB> out;
  out.fill(NO_PIECE);
  const std::string letters = "KRBGSNLP";
  int rank = 0, at = 0;
  size_t i = 0;
  for (;;) {
    int filled = 0;
    while (i < field.size() && field[i] != '/') {
      char c = field[i++];
      if (c >= '1' && c <= '9') {
        filled += c - '0';
      } else {
        bool promoted = c == '+';
        if (promoted) {
          if (i == field.size()) return std::nullopt;
          c = field[i++];
        }
        bool white = c >= 'a' && c <= 'z';
        size_t k = letters.find(char(white ? c - 'a' + 'A' : c));
        if (k == std::string::npos || (promoted && (k == KING || k == GOLD))) return std::nullopt;
        if (filled >= FILE_NB) return std::nullopt;
        out[size_t(at + filled)] = make_piece(white ? WHITE : BLACK, promoted ? PROMOTED[k] : Kind(k));
        ++filled;
      }
      if (filled > FILE_NB) return std::nullopt;
    }
    if (filled != FILE_NB) return std::nullopt;
    at += FILE_NB;
    if (++rank == RANK_NB) return i == field.size() ? std::optional(out) : std::nullopt;
    if (i == field.size()) return std::nullopt;
    ++i;  // the '/'
  }
}

// Random edits of real board fields: whatever the reference makes of the
// text, from_sfen agrees (the fast scan and the explaining parser together),
// and a refusal of a readable board names a rule, never the internal fallback.
TEST(Sfen, MutatedBoardsAgreeWithAnIndependentReading) {
  const std::vector<std::string> seeds = {
      START,
      "ln1g1g1nl/1r1s1k1b1/p1pp1pp1p/1p2p2p1/9/2P1P4/PP1P1PPPP/1B1K1S1R1/LN1G1GSNL b Ss 21",
      "l2+R3nl/4gk3/p1+Bp1p1p1/2p1s1p1p/9/2P1S1P1P/PP1P1P1P1/2K1G4/LN3G1NL w BGSNPrgsnp 68",
      "4k4/9/4+P4/9/9/9/4P4/9/4K4 b - 1"};
  const std::string alphabet = "0123456789/+kKrRbBgGsSnNlLpPxX";
  std::mt19937 rng(20261130);
  int accepted = 0, refused = 0;
  for (int n = 0; n < 40000; ++n) {
    std::string s = seeds[size_t(n) % seeds.size()];
    const size_t board_end = s.find(' ');
    std::string board = s.substr(0, board_end);
    for (int edits = 1 + int(rng() % 2); edits > 0; --edits) {
      size_t at = rng() % board.size();
      char c = alphabet[rng() % alphabet.size()];
      switch (rng() % 4) {
        case 0: board[at] = c; break;
        case 3:  // one piece letter for another keeps the shape, so many are boards
          if (std::isalpha(static_cast<unsigned char>(board[at]))) board[at] = alphabet[12 + rng() % 16];
          break;
        case 1: board.insert(board.begin() + long(at), c); break;
        default: board.erase(at, 1); break;
      }
      if (board.empty()) board = "9";
    }
    s = board + s.substr(board_end);
    auto reference = reference_board(board);
    auto pos = Position::from_sfen(s);
    if (!reference) {
      ASSERT_FALSE(pos.ok()) << s;
      EXPECT_NE(pos.status().message().find("offset"), std::string::npos) << s;
      ++refused;
      continue;
    }
    if (!pos.ok()) {
      // A readable board that breaks a rule of the game: the rule is named.
      EXPECT_EQ(pos.status().message().find("offset"), std::string::npos) << pos.status().message();
      EXPECT_FALSE(pos.status().message().ends_with("\": a rule of the setup is broken")) << s;
      ++refused;
      continue;
    }
    for (int i = 0; i < SQUARE_NB; ++i)
      ASSERT_EQ(pos->piece_on(make_square(FILE_NB - i % 9, i / 9 + 1)), (*reference)[size_t(i)]) << s;
    ++accepted;
  }
  // Both outcomes are exercised.
  EXPECT_GT(accepted, 1000);
  EXPECT_GT(refused, 1000);
}

}  // namespace
}  // namespace manaka::shogi
