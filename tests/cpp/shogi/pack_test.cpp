#include "shogi/pack.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <random>
#include <string>

#include "random_positions.h"

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


std::string hex(const Packed& b) {
  std::string out;
  char buf[4];
  for (uint8_t x : b) {
    std::snprintf(buf, sizeof buf, "%02x", x);
    out += buf;
  }
  return out;
}

// packed_is_valid is unpack's verdict without the Position, and the stream
// reader trusts it on every record: it must agree with unpack on every input.
// Checked on positions from random games, on whole sets scattered at random,
// and on both after one to three random changes (most of which break a
// rule). Every rule unpack knows must be met many times among the refusals.
TEST(PackedIsValid, AgreesWithUnpackOnRandomAndChangedPositions) {
  std::mt19937_64 rng(17);
  size_t total = 0, refused = 0, mismatches = 0;
  std::map<std::string, size_t> by_rule;
  const char* rules[] = {"unknown board byte", "hand holds", "side to move", "second king", "has no king",
                         "can never move", "(nifu)", "of a set", "is in check"};
  auto check = [&](const Packed& b) {
    ++total;
    auto pos = unpack(b);
    if (packed_is_valid(b) != pos.ok() && ++mismatches <= 5) {
      ADD_FAILURE() << "packed_is_valid says " << !pos.ok() << ", unpack: "
                    << (pos.ok() ? "accepted" : pos.status().message()) << "\n" << hex(b);
    }
    if (pos.ok()) return;
    ++refused;
    for (const char* rule : rules) {
      if (pos.status().message().find(rule) != std::string::npos) ++by_rule[rule];
    }
  };
  auto changed = [&](Packed b) {
    for (int n = 1 + static_cast<int>(rng() % 3); n > 0; --n) testing::mutate(b, rng);
    return b;
  };
  for (const Packed& b : testing::random_game_positions(20000, 5)) {
    check(b);
    for (int i = 0; i < 20; ++i) check(changed(b));
  }
  for (int i = 0; i < 200000; ++i) {
    Packed b = testing::random_setup(rng);
    check(b);
    check(changed(b));
  }
  EXPECT_EQ(mismatches, 0u) << "of " << total;
  EXPECT_GT(refused, 100000u);          // of about 820,000
  EXPECT_GT(total - refused, 50000u);
  for (const char* rule : rules) EXPECT_GE(by_rule[rule], 100u) << rule;
}

TEST(PackedIsValid, EachRuleAtItsEdge) {
  Packed b = startpos_bytes();
  EXPECT_TRUE(packed_is_valid(b));
  b[95] = 1;
  EXPECT_TRUE(packed_is_valid(b));
  b[95] = 2;
  EXPECT_FALSE(packed_is_valid(b));
  for (int byte : {0x0E, 0x0F, 0x1E, 0x1F, 0x20, 0x37, 0x80, 0xEF, 0xFE}) {
    b = startpos_bytes();
    b[make_square(5, 5)] = static_cast<uint8_t>(byte);
    EXPECT_FALSE(packed_is_valid(b)) << byte;
  }
  // Square 80 (1i) is the first byte of the last vector, beside the hands.
  b = startpos_bytes();
  b[80] = 0x37;
  EXPECT_FALSE(packed_is_valid(b));
  // A hand at its maximum, then one more (pawns: the board's 18 moved to hands).
  auto full = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L18P 1");
  ASSERT_TRUE(full.ok());
  b = pack(*full);
  EXPECT_TRUE(packed_is_valid(b));
  b[81] = 19;
  EXPECT_FALSE(packed_is_valid(b));
  // Promoted pieces count as their kind: a third dragon or horse is one too many.
  auto promoted = Position::from_sfen("4k4/9/9/9/9/9/9/9/+R+B2K4 b RB 1");
  ASSERT_TRUE(promoted.ok()) << promoted.status().message();
  b = pack(*promoted);
  EXPECT_TRUE(packed_is_valid(b));
  b[make_square(9, 5)] = make_piece(WHITE, PRO_ROOK);
  EXPECT_FALSE(packed_is_valid(b));
  // Checks by a slider through an empty line and by a knight's jump.
  auto far = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K3L b - 1");
  ASSERT_TRUE(far.ok());
  b = pack(*far);
  EXPECT_TRUE(packed_is_valid(b));
  b[make_square(5, 9)] = NO_PIECE;
  b[make_square(5, 8)] = make_piece(BLACK, KING);
  b[make_square(5, 5)] = make_piece(BLACK, LANCE);  // Black to move, its lance sees 5a
  EXPECT_EQ(packed_is_valid(b), unpack(b).ok());
  EXPECT_FALSE(packed_is_valid(b));
  b[make_square(5, 3)] = make_piece(WHITE, PAWN);  // now blocked
  EXPECT_TRUE(packed_is_valid(b));
  auto kings = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b - 1");
  ASSERT_TRUE(kings.ok());
  b = pack(*kings);
  b[make_square(6, 3)] = make_piece(BLACK, KNIGHT);  // attacks 5a
  EXPECT_FALSE(packed_is_valid(b));
  b[95] = 1;  // White to move: Black, not to move, is not in check
  EXPECT_TRUE(packed_is_valid(b));
}

}  // namespace
}  // namespace manaka::shogi
