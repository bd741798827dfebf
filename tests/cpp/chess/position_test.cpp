#include "chess/position.h"

#include <gtest/gtest.h>

#include <bitset>
#include <random>
#include <vector>

#include "chess/movegen.h"
#include "position_of.h"

namespace manaka::chess {
namespace {

// The FEN after playing the UCI moves from fen.
std::string after(const char* fen, std::initializer_list<const char*> ucis) {
  Position pos = position(fen);
  for (const char* uci : ucis) {
    auto m = Move::parse_uci(uci);
    EXPECT_TRUE(m.ok()) << uci;
    EXPECT_TRUE(pos.is_legal(*m)) << pos.fen() << " " << uci;
    pos.do_move(*m);
  }
  return pos.fen();
}

TEST(Position, CountersAndEnPassantSquare) {
  Position pos = Position::startpos();
  pos.do_move(*Move::parse_uci("e2e4"));
  // python-chess's ep_square is set after every double push; fen() prints it
  // only when a capture is legal.
  EXPECT_EQ(pos.ep_square(), make_square(4, 2));
  EXPECT_EQ(pos.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  EXPECT_EQ(after("startpos", {"e2e4", "e7e5", "g1f3"}),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
  EXPECT_EQ(after("startpos", {"g1f3", "g8f6", "f3g1", "f6g8"}),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 4 3");
  EXPECT_EQ(after("startpos", {"e2e4", "d7d5", "e4e5", "f7f5"}),
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
}

TEST(Position, EnPassantCaptureRemovesThePawn) {
  EXPECT_EQ(after("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", {"e5f6"}),
            "rnbqkbnr/ppp1p1pp/5P2/3p4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3");
  EXPECT_EQ(after("rnbqkbnr/pppp1ppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b Kq e3 0 3", {"d4e3"}),
            "rnbqkbnr/pppp1ppp/8/8/8/4p3/PPPP1PPP/RNBQKBNR w Kq - 0 4");
}

TEST(Position, CastlingMovesTheRookAndRightsFollowKingAndRooks) {
  const char* fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
  EXPECT_EQ(after(fen, {"e1g1"}), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
  EXPECT_EQ(after(fen, {"e1c1"}), "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1");
  EXPECT_EQ(after(fen, {"e1c1", "e8g8"}), "r4rk1/8/8/8/8/8/8/2KR3R w - - 2 2");
  EXPECT_EQ(after(fen, {"e1g1", "e8c8"}), "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2");
  // The rook on d1 now attacks d8, which the king would pass.
  Position pos = position(fen);
  pos.do_move(*Move::parse_uci("e1c1"));
  EXPECT_FALSE(pos.is_legal(*Move::parse_uci("e8c8")));
  EXPECT_EQ(after(fen, {"e1f1"}), "r3k2r/8/8/8/8/8/8/R4K1R b kq - 1 1");
  EXPECT_EQ(after(fen, {"h1h2"}), "r3k2r/8/8/8/8/8/7R/R3K3 b Qkq - 1 1");
  // A rook captured on its home square takes the right with it.
  EXPECT_EQ(after(fen, {"a1a8"}), "R3k2r/8/8/8/8/8/8/4K2R b Kk - 0 1");
  EXPECT_EQ(after(fen, {"h1h8"}), "r3k2R/8/8/8/8/8/8/R3K3 b Qq - 0 1");
}

TEST(Position, Promotions) {
  EXPECT_EQ(after("4k3/1P6/8/8/8/8/8/4K3 w - - 5 40", {"b7b8n"}), "1N2k3/8/8/8/8/8/8/4K3 b - - 0 40");
  Position pos = position("r3k3/1P6/8/8/8/8/8/4K3 w q - 0 1");
  pos.do_move(*Move::parse_uci("b7a8q"));
  EXPECT_EQ(pos.fen(), "Q3k3/8/8/8/8/8/8/4K3 b - - 0 1");
  EXPECT_TRUE(pos.in_check());
  EXPECT_EQ(pos.checkers(), square_bb(SQ_A8));
  EXPECT_EQ(after("4k3/8/8/8/8/8/6p1/4K2R b K - 0 1", {"g2h1r"}), "4k3/8/8/8/8/8/8/4K2r w - - 0 2");
}

TEST(Position, CopyMakeLeavesTheOriginal) {
  Position pos = Position::startpos();
  Position next = pos;
  next.do_move(*Move::parse_uci("e2e4"));
  EXPECT_EQ(pos.fen(), Position::startpos().fen());
  EXPECT_NE(next.fen(), pos.fen());
}

TEST(Position, Material) {
  Position pos = Position::startpos();
  EXPECT_EQ(pos.material(WHITE), 39);
  EXPECT_EQ(pos.material(BLACK), 39);
  EXPECT_EQ(pos.non_pawn_material(), 62);
  pos = position("4k3/8/8/8/8/8/PPP5/RNBQK3 w - - 0 1");
  EXPECT_EQ(pos.material(WHITE), 23);
  EXPECT_EQ(pos.material(BLACK), 0);
  EXPECT_EQ(pos.non_pawn_material(), 20);
}

TEST(Position, IsLegalRefusesGarbage) {
  Position pos = Position::startpos();
  EXPECT_FALSE(pos.is_legal(MOVE_NONE));
  EXPECT_FALSE(pos.is_legal(Move{0xFFFF}));
  EXPECT_FALSE(pos.is_legal(*Move::parse_uci("e2e5")));
  EXPECT_FALSE(pos.is_legal(*Move::parse_uci("e7e5")));  // not our pawn
  EXPECT_FALSE(pos.is_legal(*Move::parse_uci("e1g1")));  // the way is blocked
  EXPECT_FALSE(pos.is_legal(*Move::parse_uci("b1b3")));
  EXPECT_TRUE(pos.is_legal(*Move::parse_uci("b1c3")));
  // A pawn reaching the last rank must say what it becomes.
  pos = position("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
  EXPECT_FALSE(pos.is_legal(Move::make(make_square(1, 6), make_square(1, 7))));
  EXPECT_TRUE(pos.is_legal(Move::make(make_square(1, 6), make_square(1, 7), ROOK)));
}

// Random legal games from the published perft positions. At every
// position: is_legal (the rules applied directly) agrees with the generator
// on every well-formed move, count_legal agrees with the list, the FEN reads
// back to itself, and checkers agrees with a fresh read of the FEN.
TEST(Position, RandomPlayoutsAreSelfConsistent) {
  std::vector<Move> all;
  for (int raw = 0; raw < 1 << 15; ++raw)
    if (Move{uint16_t(raw)}.well_formed()) all.push_back(Move{uint16_t(raw)});
  const char* roots[] = {
      "startpos",
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
      "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
      "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
  };
  std::mt19937 rng(2024);
  int positions = 0, ep_positions = 0, checks = 0;
  for (int game = 0; game < 60; ++game) {
    Position pos = position(roots[game % 5]);
    for (int ply = 0; ply < 200; ++ply) {
      ++positions;
      MoveList list;
      generate_legal(pos, list);
      ASSERT_EQ(count_legal(pos), list.size) << pos.fen();
      std::bitset<1 << 15> legal;
      for (Move m : list) legal.set(m.raw);
      for (Move m : all) ASSERT_EQ(pos.is_legal(m), legal.test(m.raw)) << pos.fen() << " " << m.to_uci();
      auto back = Position::from_fen(pos.fen());
      ASSERT_TRUE(back.ok()) << back.status().message();
      ASSERT_EQ(back->fen(), pos.fen());
      ASSERT_EQ(back->checkers(), pos.checkers());
      ep_positions += pos.has_legal_en_passant();
      checks += pos.in_check();
      if (list.empty() || pos.halfmove_clock() >= 100) break;
      pos.do_move(list[int(rng() % unsigned(list.size))]);
    }
  }
  EXPECT_GT(positions, 3000);
  EXPECT_GT(ep_positions, 0);
  EXPECT_GT(checks, 100);
}

}  // namespace
}  // namespace manaka::chess
