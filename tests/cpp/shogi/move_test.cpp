#include "shogi/move.h"

#include <gtest/gtest.h>

namespace manaka::shogi {
namespace {

TEST(Square, IndexIsFileMajorFromNineA) {
  EXPECT_EQ(make_square(9, 1), 0);   // 9a
  EXPECT_EQ(make_square(1, 9), 80);  // 1i
  EXPECT_EQ(make_square(7, 7), 24);  // 7g
  EXPECT_EQ(file_of(24), 7);
  EXPECT_EQ(rank_of(24), 7);
  EXPECT_EQ(square_name(make_square(5, 5)), "5e");
}

TEST(Piece, ByteIsColorAndKind) {
  EXPECT_EQ(make_piece(BLACK, PAWN), 0x07);
  EXPECT_EQ(make_piece(WHITE, PRO_PAWN), 0x1D);
  EXPECT_EQ(color_of(0x15), WHITE);
  EXPECT_EQ(kind_of(0x15), KNIGHT);
  EXPECT_FALSE(is_piece_byte(0x0E));
  EXPECT_FALSE(is_piece_byte(NO_PIECE));
}

// Raw values by hand from the layout: to | origin << 7 | promote << 14.
TEST(Move, RawValuesFollowTheMove16Layout) {
  // 7g = (9-7)*9 + 6 = 24, 7f = 23: 23 | 24 << 7 = 3095.
  Move m = Move::normal(make_square(7, 7), make_square(7, 6), false);
  EXPECT_EQ(m.raw, 3095);
  EXPECT_EQ(m.to_usi(), "7g7f");
  // 8h = 16, 2b = 64: 64 | 16 << 7 | 1 << 14 = 18496.
  m = Move::normal(make_square(8, 8), make_square(2, 2), true);
  EXPECT_EQ(m.raw, 18496);
  EXPECT_EQ(m.to_usi(), "8h2b+");
  // 5e = 40, a pawn drop's origin field is 81: 40 | 81 << 7 = 10408.
  m = Move::drop(H_PAWN, make_square(5, 5));
  EXPECT_EQ(m.raw, 10408);
  EXPECT_EQ(m.to_usi(), "P*5e");
  EXPECT_TRUE(m.is_drop());
  EXPECT_EQ(m.dropped_kind(), H_PAWN);
  // A rook drop on 1a: 72 | 87 << 7 = 11208.
  EXPECT_EQ(Move::drop(H_ROOK, make_square(1, 1)).raw, 11208);
}

TEST(Move, UsiRoundTrips) {
  for (const char* usi : {"7g7f", "8h2b+", "P*5e", "L*1i", "R*9a", "1a9i+", "5i4h"}) {
    auto m = Move::parse_usi(usi);
    ASSERT_TRUE(m.ok()) << usi << ": " << m.status().message();
    EXPECT_TRUE(m->well_formed()) << usi;
    EXPECT_EQ(m->to_usi(), usi);
  }
  EXPECT_EQ(Move::parse_usi("7g7f")->raw, 3095);
  EXPECT_EQ(Move::parse_usi("8h2b+")->raw, 18496);
  EXPECT_EQ(Move::parse_usi("P*5e")->raw, 10408);
}

TEST(Move, ParseRefusesBadSyntax) {
  auto message = [](const char* usi) { return Move::parse_usi(usi).status().message(); };
  EXPECT_EQ(message("7g"), "usi move \"7g\": expected 4 or 5 characters (\"7g7f\", \"8h2b+\", \"P*5e\"), got 2");
  EXPECT_EQ(message("K*5e"), "usi move \"K*5e\": offset 0: expected a drop piece letter P L N S G B R, got 'K'");
  EXPECT_EQ(message("p*5e"), "usi move \"p*5e\": offset 0: expected a drop piece letter P L N S G B R, got 'p'");
  EXPECT_EQ(message("P*5j"), "usi move \"P*5j\": offset 2: expected a square from 1a to 9i after '*'");
  EXPECT_EQ(message("P*5e+"), "usi move \"P*5e+\": offset 2: expected a square from 1a to 9i after '*'");
  EXPECT_EQ(message("0g7f"), "usi move \"0g7f\": offset 0: expected a square from 1a to 9i or a drop like \"P*\"");
  EXPECT_EQ(message("7g7z"), "usi move \"7g7z\": offset 2: expected a destination square from 1a to 9i");
  EXPECT_EQ(message("7g7f="), "usi move \"7g7f=\": offset 4: expected '+' or the end, got '='");
  EXPECT_EQ(message("7g7g"), "usi move \"7g7g\": the move ends on the square it starts from");
}

TEST(Move, WellFormedRefusesGarbage) {
  EXPECT_FALSE(MOVE_NONE.well_formed());                       // 9a to 9a
  EXPECT_FALSE(Move{uint16_t(3095 | 0x8000)}.well_formed());   // bit 15
  EXPECT_FALSE(Move{uint16_t(81 | 24 << 7)}.well_formed());    // to 81
  EXPECT_FALSE(Move{uint16_t(40 | 88 << 7)}.well_formed());    // origin 88
  EXPECT_FALSE(Move{uint16_t(10408 | 1 << 14)}.well_formed()); // promoting drop
  EXPECT_TRUE(Move{uint16_t(40 | 87 << 7)}.well_formed());     // R*5e
  EXPECT_EQ(Move{uint16_t(40 | 88 << 7)}.to_usi(), "(raw 0x2c28)");
}

}  // namespace
}  // namespace manaka::shogi
