#include "shogi/pack.h"

#include <gtest/gtest.h>

namespace manaka::shogi {
namespace {

std::string refusal(const Packed& bytes) {
  auto pos = unpack(bytes);
  if (pos.ok()) return "accepted";
  EXPECT_EQ(pos.status().kind(), ErrorKind::Invalid);
  return pos.status().message();
}

Packed startpos_bytes() { return pack(Position::startpos()); }

TEST(Pack, LayoutOfStartpos) {
  Packed b = startpos_bytes();
  EXPECT_EQ(b[0], 0x16);                        // 9a: White lance
  EXPECT_EQ(b[make_square(8, 2)], 0x11);        // 8b: White rook
  EXPECT_EQ(b[make_square(7, 7)], 0x07);        // 7g: Black pawn
  EXPECT_EQ(b[make_square(5, 9)], 0x00);        // 5i: Black king
  EXPECT_EQ(b[make_square(5, 5)], NO_PIECE);
  for (size_t i = 81; i < 95; ++i) EXPECT_EQ(b[i], 0) << i;
  EXPECT_EQ(b[95], 0);
}

TEST(Pack, HandsRunPLNSGBR) {
  auto pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 w G2LPrs2np 7");
  ASSERT_TRUE(pos.ok());
  Packed b = pack(*pos);
  uint8_t black[7] = {1, 2, 0, 0, 1, 0, 0}, white[7] = {1, 0, 2, 1, 0, 0, 1};
  for (int i = 0; i < 7; ++i) {
    EXPECT_EQ(b[81 + i], black[i]) << i;
    EXPECT_EQ(b[88 + i], white[i]) << i;
  }
  EXPECT_EQ(b[95], 1);
  auto back = unpack(b);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->sfen(), "4k4/9/9/9/9/9/9/9/4K4 w G2LPrs2np 1");  // the move number is not packed
}

TEST(Pack, RoundTrips) {
  for (const char* sfen : {
           "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
           "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
           "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
           "+R+B+S+N+L+P3/k8/9/9/9/9/9/9/K8 w rb4g3s3n3l17p 1",
       }) {
    auto pos = Position::from_sfen(sfen);
    ASSERT_TRUE(pos.ok()) << pos.status().message();
    Packed b = pack(*pos);
    auto back = unpack(b);
    ASSERT_TRUE(back.ok()) << back.status().message();
    EXPECT_EQ(back->sfen(), sfen);
    EXPECT_EQ(back->key(), pos->key());
    EXPECT_EQ(pack(*back), b);
  }
}

TEST(Pack, RefusesBytesNamingTheOffset) {
  EXPECT_EQ(unpack(std::span<const uint8_t>(startpos_bytes().data(), 95)).status().message(),
            "a packed position is 96 bytes, got 95");
  Packed b = startpos_bytes();
  b[17] = 0x0E;
  EXPECT_EQ(refusal(b), "byte 17: unknown board byte 0x0e");
  b = startpos_bytes();
  b[40] = 0x20;
  EXPECT_EQ(refusal(b), "byte 40: unknown board byte 0x20");
  b = startpos_bytes();
  b[83] = 5;
  EXPECT_EQ(refusal(b), "byte 83: Black's hand holds 5 knights, more than 4");
  b = startpos_bytes();
  b[94] = 3;
  EXPECT_EQ(refusal(b), "byte 94: White's hand holds 3 rooks, more than 2");
  b = startpos_bytes();
  b[95] = 2;
  EXPECT_EQ(refusal(b), "byte 95: side to move 0x02, expected 0 or 1");
}

TEST(Pack, RefusesPositionsThatBreakTheRules) {
  Packed b = startpos_bytes();
  b[make_square(5, 9)] = NO_PIECE;
  EXPECT_EQ(refusal(b), "Black has no king");
  b = startpos_bytes();
  b[make_square(5, 5)] = 0x10;
  EXPECT_EQ(refusal(b), "byte 40: White has a second king, on 5e");
  b = startpos_bytes();
  b[0] = 0x07;  // 9a
  EXPECT_EQ(refusal(b), "byte 0: Black pawn on 9a can never move (rank 1)");
  b = startpos_bytes();
  b[make_square(3, 8)] = 0x15;  // White knight on 3h
  EXPECT_EQ(refusal(b), "byte 61: White knight on 3h can never move (rank 8)");
  b = startpos_bytes();
  b[make_square(5, 5)] = 0x07;  // a second Black pawn on file 5
  EXPECT_EQ(refusal(b), "byte 42: Black has two unpromoted pawns on file 5 (nifu), the second on 5g");
  b = startpos_bytes();
  b[81] = 1;
  EXPECT_EQ(refusal(b), "19 pawns on the board and in hands, more than the 18 of a set");
  b = startpos_bytes();
  b[87] = 1;
  b[94] = 1;
  EXPECT_EQ(refusal(b), "4 rooks on the board and in hands, more than the 2 of a set");
  b = startpos_bytes();
  b[95] = 1;  // startpos with White to move is fine
  EXPECT_EQ(refusal(b), "accepted");
  auto pos = Position::from_sfen("4k4/4R4/9/9/9/9/9/9/4K4 w - 1");
  b = pack(*pos);
  b[95] = 0;
  EXPECT_EQ(refusal(b), "byte 36: White, not to move, is in check");
}

}  // namespace
}  // namespace manaka::shogi
