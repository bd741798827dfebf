#include "chess/movegen.h"
#include "position_of.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace manaka::chess {
namespace {

// The legal moves in UCI, sorted.
std::vector<std::string> moves(const char* fen) {
  Position pos = position(fen);
  MoveList list;
  generate_legal(pos, list);
  EXPECT_EQ(count_legal(pos), list.size) << fen;
  std::vector<std::string> out;
  for (Move m : list) {
    EXPECT_TRUE(pos.is_legal(m)) << fen << " " << m.to_uci();
    out.push_back(m.to_uci());
  }
  std::sort(out.begin(), out.end());
  EXPECT_EQ(std::adjacent_find(out.begin(), out.end()), out.end()) << fen << ": a move listed twice";
  return out;
}

bool has(const std::vector<std::string>& list, const char* uci) {
  return std::find(list.begin(), list.end(), uci) != list.end();
}

TEST(Movegen, Startpos) {
  auto list = moves("startpos");
  EXPECT_EQ(list, (std::vector<std::string>{"a2a3", "a2a4", "b1a3", "b1c3", "b2b3", "b2b4", "c2c3",
                                            "c2c4", "d2d3", "d2d4", "e2e3", "e2e4", "f2f3", "f2f4",
                                            "g1f3", "g1h3", "g2g3", "g2g4", "h2h3", "h2h4"}));
}

// The two pawns leave the fourth (fifth) rank together, exposing the king
// to a rook or queen on it: the capture is illegal though neither pawn is
// pinned on its own.
TEST(Movegen, EnPassantHorizontalPin) {
  EXPECT_FALSE(has(moves("8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1"), "e4d3"));
  EXPECT_FALSE(has(moves("8/8/8/8/Q2Pp2k/8/8/3K4 b - d3 0 1"), "e4d3"));
  EXPECT_FALSE(has(moves("8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 1"), "e5d6"));
  EXPECT_FALSE(has(moves("8/8/8/r2pP2K/8/8/8/4k3 w - d6 0 1"), "e5d6"));
  // Another piece between: legal.
  EXPECT_TRUE(has(moves("8/8/8/8/k1nPp2Q/8/8/3K4 b - d3 0 1"), "e4d3"));
  EXPECT_TRUE(has(moves("8/8/8/8/k2Pp3/8/8/3K4 b - d3 0 1"), "e4d3"));
  // The king's rank is not the pawns' rank: the slider does not matter.
  EXPECT_TRUE(has(moves("8/8/8/k7/3Pp2Q/8/8/3K4 b - d3 0 1"), "e4d3"));
}

TEST(Movegen, EnPassantPins) {
  // Pinned on its file: cannot capture.
  EXPECT_FALSE(has(moves("2k5/8/8/8/2pP4/8/8/2R1K3 b - d3 0 1"), "c4d3"));
  // Pinned on the diagonal it captures along: can.
  EXPECT_TRUE(has(moves("8/8/8/1k6/2pP4/8/8/5BK1 b - d3 0 1"), "c4d3"));
  // The captured pawn shields the king from a bishop on the diagonal.
  EXPECT_FALSE(has(moves("8/8/5B2/8/3Pp3/8/1k6/7K b - d3 0 1"), "e4d3"));
  EXPECT_TRUE(has(moves("8/8/8/8/3Pp3/8/1k6/7K b - d3 0 1"), "e4d3"));
}

TEST(Movegen, EnPassantOutOfCheck) {
  // The pawn that just moved gives check; taking it en passant is legal.
  Position pos = position("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1");
  EXPECT_TRUE(pos.in_check());
  EXPECT_EQ(pos.checkers(), square_bb(make_square(3, 3)));
  EXPECT_TRUE(has(moves("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1"), "e4d3"));
  // The double push uncovered a bishop's check (e1-b4 through d2): the
  // capture neither takes nor blocks the checker.
  EXPECT_FALSE(has(moves("8/8/8/8/1k1Pp3/8/8/4B2K b - d3 0 1"), "e4d3"));
}

TEST(Movegen, Castling) {
  auto list = moves("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  EXPECT_TRUE(has(list, "e1g1"));
  EXPECT_TRUE(has(list, "e1c1"));
  // Through check (f1 attacked), and into check (g1 attacked).
  list = moves("r3k2r/8/8/8/8/8/5r2/R3K2R w KQ - 0 1");
  EXPECT_FALSE(has(list, "e1g1"));
  EXPECT_TRUE(has(list, "e1c1"));
  list = moves("r3k2r/8/8/8/8/8/6r1/R3K2R w KQ - 0 1");
  EXPECT_FALSE(has(list, "e1g1"));
  // Out of check.
  list = moves("r3k2r/8/8/8/8/8/4r3/R3K2R w KQ - 0 1");
  EXPECT_FALSE(has(list, "e1g1"));
  EXPECT_FALSE(has(list, "e1c1"));
  // b1 attacked does not matter; b1 occupied does.
  list = moves("r3k2r/8/8/8/8/8/1r6/R3K2R w KQ - 0 1");
  EXPECT_TRUE(has(list, "e1c1"));
  list = moves("r3k2r/8/8/8/8/8/8/RN2K2R w KQ - 0 1");
  EXPECT_FALSE(has(list, "e1c1"));
  // No right, no castling.
  list = moves("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1");
  EXPECT_FALSE(has(list, "e1g1"));
  EXPECT_FALSE(has(list, "e1c1"));
  list = moves("r3k2r/8/8/8/8/8/8/R3K2R b kq - 0 1");
  EXPECT_TRUE(has(list, "e8g8"));
  EXPECT_TRUE(has(list, "e8c8"));
}

TEST(Movegen, Promotions) {
  auto list = moves("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
  EXPECT_EQ(list, (std::vector<std::string>{"b7b8b", "b7b8n", "b7b8q", "b7b8r", "e1d1", "e1d2", "e1e2", "e1f1",
                                            "e1f2"}));
  list = moves("r1n1k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
  EXPECT_TRUE(has(list, "b7a8q"));
  EXPECT_TRUE(has(list, "b7c8n"));
  EXPECT_TRUE(has(list, "b7b8r"));
  list = moves("4k3/8/8/8/8/8/6p1/4K2R b K - 0 1");
  EXPECT_TRUE(has(list, "g2h1q"));
  EXPECT_TRUE(has(list, "g2g1n"));
}

TEST(Movegen, PinsChecksAndMates) {
  auto list = moves("4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1");
  EXPECT_EQ(list, (std::vector<std::string>{"e1d1", "e1d2", "e1f1", "e1f2", "e2e3", "e2e4", "e2e5", "e2e6",
                                            "e2e7"}));
  // Double check: only the king moves.
  Position pos = position("4k3/8/8/8/8/5n2/8/r3K3 w - - 0 1");
  EXPECT_EQ(popcount(pos.checkers()), 2);
  EXPECT_EQ(moves("4k3/8/8/8/8/5n2/8/r3K3 w - - 0 1"), (std::vector<std::string>{"e1e2", "e1f2"}));
  // Stalemate and mate.
  EXPECT_TRUE(moves("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").empty());
  EXPECT_FALSE(position("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").in_check());
  EXPECT_TRUE(moves("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").empty());
  EXPECT_TRUE(position("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").in_check());
}

// The most moves of any legal position (218) fit the list.
TEST(Movegen, MostMovesFit) {
  const char* fen = "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1";
  EXPECT_EQ(moves(fen).size(), 218u);
}

}  // namespace
}  // namespace manaka::chess
