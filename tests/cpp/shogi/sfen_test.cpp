#include <gtest/gtest.h>

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

}  // namespace
}  // namespace manaka::shogi
