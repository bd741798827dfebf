#include "chess/move.h"

#include <gtest/gtest.h>

namespace manaka::chess {
namespace {

TEST(Square, IndexIsRankMajorFromA1) {
  EXPECT_EQ(make_square(0, 0), SQ_A1);
  EXPECT_EQ(make_square(7, 7), SQ_H8);
  EXPECT_EQ(make_square(4, 3), 28);  // e4
  EXPECT_EQ(file_of(28), 4);
  EXPECT_EQ(rank_of(28), 3);
  EXPECT_EQ(square_name(28), "e4");
  EXPECT_EQ(relative_rank(BLACK, SQ_E8), 0);
  EXPECT_EQ(relative_square(BLACK, SQ_G1), SQ_G8);
}

TEST(Piece, ByteIsColorAndType) {
  EXPECT_EQ(make_piece(WHITE, PAWN), W_PAWN);
  EXPECT_EQ(make_piece(BLACK, KING), B_KING);
  EXPECT_EQ(color_of(B_KNIGHT), BLACK);
  EXPECT_EQ(type_of(B_KNIGHT), KNIGHT);
}

// Raw values by hand from the layout: to | from << 6 | promotion << 12.
TEST(Move, RawValuesFollowTheLayout) {
  // e2 = 12, e4 = 28: 28 | 12 << 6 = 796.
  Move m = Move::make(12, 28);
  EXPECT_EQ(m.raw, 796);
  EXPECT_EQ(m.from_square(), 12);
  EXPECT_EQ(m.to_square(), 28);
  EXPECT_EQ(m.promotion(), NO_PIECE_TYPE);
  EXPECT_EQ(m.to_uci(), "e2e4");
  // e7 = 52, e8 = 60, queen = 5: 60 | 52 << 6 | 5 << 12 = 23868.
  m = Move::make(52, SQ_E8, QUEEN);
  EXPECT_EQ(m.raw, 23868);
  EXPECT_EQ(m.to_uci(), "e7e8q");
  EXPECT_EQ(Move::make(SQ_E1, SQ_G1).to_uci(), "e1g1");
  EXPECT_EQ(Move::make(9, 0, KNIGHT).to_uci(), "b2a1n");
}

TEST(Move, UciRoundTripsEveryWellFormedValue) {
  int well_formed = 0;
  for (int raw = 0; raw < 1 << 16; ++raw) {
    Move m{uint16_t(raw)};
    if (!m.well_formed()) continue;
    ++well_formed;
    auto back = Move::parse_uci(m.to_uci());
    ASSERT_TRUE(back.ok()) << m.to_uci() << ": " << back.status().message();
    EXPECT_EQ(*back, m);
  }
  // 64 * 63 plain moves, and 4 promotions for each of the 2 * 64 pairs of
  // squares from rank 7 to rank 8 and from rank 2 to rank 1.
  EXPECT_EQ(well_formed, 64 * 63 + 4 * 2 * 64);
}

TEST(Move, NullMoveIsFourZeros) {
  EXPECT_EQ(MOVE_NONE.to_uci(), "0000");
  EXPECT_FALSE(MOVE_NONE.well_formed());
  auto m = Move::parse_uci("0000");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(*m, MOVE_NONE);
}

TEST(Move, NotWellFormedPrintsRaw) {
  EXPECT_FALSE(Move{0x8000 | 796}.well_formed());
  EXPECT_EQ(Move{0x8000 | 796}.to_uci(), "(raw 0x831c)");
  EXPECT_FALSE(Move::make(12, 28, QUEEN).well_formed());  // not to the last rank
  EXPECT_FALSE(Move::make(52, 60, KING).well_formed());
  EXPECT_FALSE(Move::make(52, 60, PAWN).well_formed());
  EXPECT_FALSE(Move::make(28, 28).well_formed());
}

std::string refusal(const std::string& uci) {
  auto m = Move::parse_uci(uci);
  if (m.ok()) return "accepted";
  EXPECT_EQ(m.status().kind(), ErrorKind::Invalid);
  return m.status().message();
}

TEST(Move, ParseRefusesWithTextOffsetAndExpectation) {
  EXPECT_EQ(refusal("e2"), "uci move \"e2\": expected 4 or 5 characters (\"e2e4\", \"e7e8q\"), got 2");
  EXPECT_EQ(refusal("e2e4qq"), "uci move \"e2e4qq\": expected 4 or 5 characters (\"e2e4\", \"e7e8q\"), got 6");
  EXPECT_EQ(refusal("i2e4"), "uci move \"i2e4\": offset 0: expected the file a-h of the square moved from, got 'i'");
  EXPECT_EQ(refusal("e9e4"), "uci move \"e9e4\": offset 1: expected the rank 1-8 of the square moved from, got '9'");
  EXPECT_EQ(refusal("e2E4"), "uci move \"e2E4\": offset 2: expected the file a-h of the square moved to, got 'E'");
  EXPECT_EQ(refusal("e2e0"), "uci move \"e2e0\": offset 3: expected the rank 1-8 of the square moved to, got '0'");
  EXPECT_EQ(refusal("e2e2"), "uci move \"e2e2\": the move ends on the square it starts from");
  EXPECT_EQ(refusal("e7e8k"), "uci move \"e7e8k\": offset 4: expected a promotion piece n, b, r or q, got 'k'");
  EXPECT_EQ(refusal("e7e8Q"), "uci move \"e7e8Q\": offset 4: expected a promotion piece n, b, r or q, got 'Q'");
  EXPECT_EQ(refusal("e2e4q"),
            "uci move \"e2e4q\": a promotion must move from rank 7 to rank 8 or from rank 2 to rank 1");
  EXPECT_EQ(refusal("e7e8q"), "accepted");
  EXPECT_EQ(refusal("a2a1n"), "accepted");
}

}  // namespace
}  // namespace manaka::chess
