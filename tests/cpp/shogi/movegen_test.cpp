// Rule positions. Each expectation was also checked against cshogi's
// legal_moves for the same SFEN.
#include "shogi/movegen.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

namespace manaka::shogi {
namespace {

std::vector<std::string> legal(const std::string& sfen) {
  auto pos = Position::from_sfen(sfen);
  EXPECT_TRUE(pos.ok()) << pos.status().message();
  if (!pos.ok()) return {};
  MoveList list;
  generate_legal(*pos, list);
  EXPECT_EQ(count_legal(*pos), list.size) << sfen;
  std::vector<std::string> out;
  for (Move m : list) {
    out.push_back(m.to_usi());
    EXPECT_TRUE(pos->is_legal(m)) << sfen << " " << m.to_usi();
  }
  std::sort(out.begin(), out.end());
  EXPECT_EQ(std::set<std::string>(out.begin(), out.end()).size(), out.size()) << "duplicates in " << sfen;
  return out;
}

bool is_legal(const std::string& sfen, const std::string& usi) {
  auto pos = Position::from_sfen(sfen);
  auto move = Move::parse_usi(usi);
  EXPECT_TRUE(pos.ok() && move.ok());
  bool listed = std::ranges::count(legal(sfen), usi) == 1;
  EXPECT_EQ(pos->is_legal(*move), listed) << sfen << " " << usi;
  return listed;
}

using Moves = std::vector<std::string>;

TEST(Movegen, StartposHasThirtyMoves) {
  Moves m = legal("startpos");
  EXPECT_EQ(m.size(), 30u);
  EXPECT_TRUE(std::ranges::count(m, "7g7f"));
  EXPECT_FALSE(std::ranges::count(m, "8h2b"));
}

TEST(Movegen, PawnDropMateIsIllegal) {
  // White's king on 1a; the knight on 3c covers 2a, the gold on 2c covers 2b
  // and guards 1b: P*1b would mate, so it is not a legal move.
  EXPECT_FALSE(is_legal("8k/9/6NG1/9/9/9/9/9/4K4 b P 1", "P*1b"));
  EXPECT_TRUE(is_legal("8k/9/6NG1/9/9/9/9/9/4K4 b P 1", "P*1c"));
  EXPECT_EQ(legal("8k/9/6NG1/9/9/9/9/9/4K4 b P 1").size(), 80u);
  // Without the knight the king escapes to 2a: a pawn-drop check, legal.
  EXPECT_TRUE(is_legal("8k/9/7G1/9/9/9/9/9/4K4 b P 1", "P*1b"));
  // The gold on 2a could take the pawn but is pinned by the rook on 5a.
  EXPECT_FALSE(is_legal("4R2gk/9/8G/9/9/9/9/9/4K4 b P 1", "P*1b"));
  EXPECT_TRUE(is_legal("7gk/9/8G/9/9/9/9/9/4K4 b P 1", "P*1b"));
  // The gold on 1c is pinned by the lance on 1e until the pawn lands on 1b;
  // then it may take the pawn, so the drop does not mate.
  EXPECT_TRUE(is_legal("8k/6G2/7Sg/9/8L/9/9/9/4K4 b P 1", "P*1b"));
  // The first position turned round, White to drop.
  EXPECT_FALSE(is_legal("4k4/9/9/9/9/9/1gn6/9/K8 w p 1", "P*9h"));
  EXPECT_TRUE(is_legal("4k4/9/9/9/9/9/1gn6/9/K8 w p 1", "P*9g"));
}

TEST(Movegen, Nifu) {
  EXPECT_FALSE(is_legal("4k4/9/9/9/9/9/4P4/9/4K4 b P 1", "P*5e"));
  EXPECT_TRUE(is_legal("4k4/9/9/9/9/9/4P4/9/4K4 b P 1", "P*4e"));
  EXPECT_EQ(legal("4k4/9/9/9/9/9/4P4/9/4K4 b P 1").size(), 70u);
  // A tokin is not a pawn, and the opponent's pawn is not ours.
  EXPECT_TRUE(is_legal("4k4/9/9/9/9/9/4+P4/9/4K4 b P 1", "P*5e"));
  EXPECT_TRUE(is_legal("4k4/4p4/9/9/9/9/9/9/4K4 b P 1", "P*5e"));
}

TEST(Movegen, NoDropWhereThePieceCouldNeverMove) {
  const std::string black = "4k4/9/9/9/9/9/9/9/4K4 b PLN 1";
  EXPECT_FALSE(is_legal(black, "P*9a"));
  EXPECT_TRUE(is_legal(black, "P*9b"));
  EXPECT_FALSE(is_legal(black, "L*9a"));
  EXPECT_TRUE(is_legal(black, "L*9b"));
  EXPECT_FALSE(is_legal(black, "N*9a"));
  EXPECT_FALSE(is_legal(black, "N*9b"));
  EXPECT_TRUE(is_legal(black, "N*9c"));
  EXPECT_EQ(legal(black).size(), 209u);
  const std::string white = "4k4/9/9/9/9/9/9/9/4K4 w pln 1";
  EXPECT_FALSE(is_legal(white, "P*1i"));
  EXPECT_TRUE(is_legal(white, "P*1h"));
  EXPECT_FALSE(is_legal(white, "L*1i"));
  EXPECT_TRUE(is_legal(white, "L*1h"));
  EXPECT_FALSE(is_legal(white, "N*1i"));
  EXPECT_FALSE(is_legal(white, "N*1h"));
  EXPECT_TRUE(is_legal(white, "N*1g"));
  EXPECT_EQ(legal(white).size(), 209u);
}

TEST(Movegen, ForcedAndOptionalPromotion) {
  // Black pawn on 9b, knight on 7d, lance on 1d.
  EXPECT_EQ(legal("4k4/P8/9/2N5L/9/9/9/9/4K4 b - 1"),
            (Moves{"1d1a+", "1d1b", "1d1b+", "1d1c", "1d1c+", "5i4h", "5i4i", "5i5h", "5i6h", "5i6i",
                   "7d6b+", "7d8b+", "9b9a+"}));
  // The same turned round for White.
  EXPECT_EQ(legal("4k4/9/9/9/9/l5n2/9/8p/4K4 w - 1"),
            (Moves{"1h1i+", "3f2h+", "3f4h+", "5a4a", "5a4b", "5a5b", "5a6a", "5a6b", "9f9g", "9f9g+",
                   "9f9h", "9f9h+", "9f9i+"}));
  // A bishop leaving the zone may promote; a pawn entering it may decline.
  EXPECT_TRUE(is_legal("4k4/7B1/9/9/9/9/9/9/4K4 b - 1", "2b5e+"));
  EXPECT_TRUE(is_legal("4k4/7B1/9/9/9/9/9/9/4K4 b - 1", "2b5e"));
  EXPECT_TRUE(is_legal("4k4/9/9/4P4/9/9/9/9/4K4 b - 1", "5d5c"));
  EXPECT_TRUE(is_legal("4k4/9/9/4P4/9/9/9/9/4K4 b - 1", "5d5c+"));
  // Gold, king and promoted pieces never promote.
  EXPECT_FALSE(is_legal("4k4/9/3G5/9/9/9/9/9/4K4 b - 1", "6c6b+"));
  EXPECT_FALSE(is_legal("4k4/9/3+P5/9/9/9/9/9/4K4 b - 1", "6c6b+"));
  // Outside the zone nothing promotes.
  EXPECT_FALSE(is_legal("startpos", "7g7f+"));
}

TEST(Movegen, PinnedPiecesStayOnTheirLine) {
  // Gold on 5h pinned by the rook on 5b: only along the file.
  EXPECT_EQ(legal("8k/4r4/9/9/9/9/9/4G4/4K4 b - 1"), (Moves{"5h5g", "5i4h", "5i4i", "5i6h", "5i6i"}));
  // Bishop on 4h pinned by the bishop on 1e: along the diagonal, capture included.
  EXPECT_EQ(legal("8k/9/9/9/8b/9/9/5B3/4K4 b - 1"),
            (Moves{"4h1e", "4h2f", "4h3g", "5i4i", "5i5h", "5i6h", "5i6i"}));
  // Silver on 5h pinned by the lance on 5a.
  EXPECT_EQ(legal("4l3k/9/9/9/9/9/9/4S4/4K4 b - 1"), (Moves{"5h5g", "5i4h", "5i4i", "5i6h", "5i6i"}));
}

TEST(Movegen, Evasions) {
  // Rook check down the file: drops between, king aside, never 5h (still on the file).
  EXPECT_EQ(legal("4r3k/9/9/9/9/9/9/9/4K4 b G 1"),
            (Moves{"5i4h", "5i4i", "5i6h", "5i6i", "G*5b", "G*5c", "G*5d", "G*5e", "G*5f", "G*5g", "G*5h"}));
  // Double check (rook and knight on 6g): only the king moves, although the
  // gold could take the knight and a drop could block the rook.
  EXPECT_EQ(legal("4r3k/9/9/9/9/9/3n5/3G5/4K4 b G 1"), (Moves{"5i4h", "5i4i", "5i6i"}));
  // The king takes an unguarded checker but not a guarded one.
  EXPECT_EQ(legal("4k4/9/9/9/9/9/9/4r4/4K4 b - 1"), (Moves{"5i4i", "5i5h", "5i6i"}));
  EXPECT_EQ(legal("4k4/9/9/9/9/9/4g4/4r4/4K4 b - 1"), (Moves{"5i4i", "5i6i"}));
}

TEST(Movegen, IsLegalRefusesGarbage) {
  Position pos = Position::startpos();
  EXPECT_FALSE(pos.is_legal(MOVE_NONE));
  EXPECT_FALSE(pos.is_legal(Move{uint16_t(3095 | 0x8000)}));
  EXPECT_FALSE(pos.is_legal(*Move::parse_usi("P*5e")));   // empty hand
  EXPECT_FALSE(pos.is_legal(*Move::parse_usi("7c7d")));   // White's pawn
  EXPECT_FALSE(pos.is_legal(*Move::parse_usi("5e5d")));   // empty square
  EXPECT_FALSE(pos.is_legal(*Move::parse_usi("8h2b")));   // blocked
  EXPECT_FALSE(pos.is_legal(*Move::parse_usi("7g7e")));   // not a pawn move
  EXPECT_TRUE(pos.is_legal(*Move::parse_usi("7g7f")));
}

TEST(Movegen, LegalMaskHasTheListedMoves) {
  Position pos = Position::startpos();
  auto mask = legal_mask(pos);
  EXPECT_EQ(mask.count(), 30u);
  EXPECT_TRUE(mask.test(3095));  // 7g7f
}

}  // namespace
}  // namespace manaka::shogi
