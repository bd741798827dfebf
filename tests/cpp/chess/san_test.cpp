#include "chess/san.h"

#include <gtest/gtest.h>

#include <random>

#include "chess/movegen.h"
#include "position_of.h"

namespace manaka::chess {
namespace {

Move uci(const char* text) {
  auto m = Move::parse_uci(text);
  EXPECT_TRUE(m.ok()) << text;
  return m.ok() ? *m : MOVE_NONE;
}

// The UCI of the move san names, or the refusal's message.
std::string parsed(const Position& pos, const char* san) {
  auto m = parse_san(pos, san);
  return m.ok() ? m->to_uci() : m.status().message();
}

constexpr const char* TWO_KNIGHTS = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1";
constexpr const char* TWO_ROOKS = "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1";
constexpr const char* THREE_QUEENS = "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1";
constexpr const char* PROMOTION = "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1";
constexpr const char* CASTLING = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
constexpr const char* START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

TEST(San, DisambiguatesByFile) {
  Position pos = position(TWO_KNIGHTS);
  EXPECT_EQ(to_san(pos, uci("b1d2")), "Nbd2");
  EXPECT_EQ(to_san(pos, uci("f3d2")), "Nfd2");
  EXPECT_EQ(to_san(pos, uci("f3e5")), "Ne5");  // only one knight reaches e5
  EXPECT_EQ(parsed(pos, "Nbd2"), "b1d2");
  EXPECT_EQ(parsed(pos, "Nfxd2"), "f3d2");
  EXPECT_EQ(parsed(pos, "Nb1d2"), "b1d2");
  EXPECT_EQ(parsed(pos, "Nd2"),
            "ambiguous san: 'Nd2' in 4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1: knights on b1 and f3 can both move to d2");
}

TEST(San, DisambiguatesByRank) {
  Position pos = position(TWO_ROOKS);
  EXPECT_EQ(to_san(pos, uci("a1a3")), "R1a3");
  EXPECT_EQ(to_san(pos, uci("a5a3")), "R5a3");
  EXPECT_EQ(to_san(pos, uci("a1b1")), "Rb1");
  EXPECT_EQ(parsed(pos, "R1a3"), "a1a3");
  EXPECT_EQ(parsed(pos, "R5a3"), "a5a3");
  EXPECT_EQ(parsed(pos, "Ra3"),
            "ambiguous san: 'Ra3' in 4k3/8/8/R7/8/8/8/R3K3 w - - 0 1: rooks on a1 and a5 can both move to a3");
}

TEST(San, DisambiguatesBySquare) {
  Position pos = position(THREE_QUEENS);
  // a1 shares its file with a3 and its rank with c1: both are needed.
  EXPECT_EQ(to_san(pos, uci("a1b2")), "Qa1b2");
  EXPECT_EQ(to_san(pos, uci("a3b2")), "Q3b2");
  EXPECT_EQ(to_san(pos, uci("c1b2")), "Qcb2");
  EXPECT_EQ(parsed(pos, "Qa1b2"), "a1b2");
  EXPECT_EQ(parsed(pos, "Qa1xb2"), "a1b2");
  EXPECT_EQ(parsed(pos, "Qab2"),
            "ambiguous san: 'Qab2' in 4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1: queens on a1 and a3 can both move to b2");
  EXPECT_EQ(parsed(pos, "Qb2"),
            "ambiguous san: 'Qb2' in 4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1: queens on a1, c1 and a3 can all move to b2");
}

TEST(San, PromotionsWithAndWithoutEquals) {
  Position pos = position(PROMOTION);
  EXPECT_EQ(to_san(pos, uci("e7e8q")), "e8=Q+");
  EXPECT_EQ(to_san(pos, uci("e7e8n")), "e8=N");
  EXPECT_EQ(to_san(pos, uci("e7d8r")), "exd8=R+");  // the rook sees h8
  for (const char* text : {"e8=Q", "e8Q", "e8q", "e8=Q+", "e8Q+!", "e7e8=Q", "e7e8q"})
    EXPECT_EQ(parsed(pos, text), "e7e8q") << text;
  EXPECT_EQ(parsed(pos, "exd8=N"), "e7d8n");
  EXPECT_EQ(parsed(pos, "exd8N"), "e7d8n");
  EXPECT_EQ(parsed(pos, "ed8b"), "e7d8b");
  EXPECT_EQ(parsed(pos, "e8"),
            "illegal san: 'e8' in 3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1: a pawn reaching the last rank must name its "
            "promotion (=Q, =R, =B or =N)");
  EXPECT_EQ(parsed(pos, "e8=K"),
            "invalid san: 'e8=K' in 3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1: 'K' is not a promotion piece (Q, R, B or N)");
  EXPECT_EQ(parsed(pos, "Kd2=Q"), "illegal san: 'Kd2=Q' in 3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1: a king cannot promote");
}

TEST(San, CastlingSpellings) {
  Position pos = position(CASTLING);
  EXPECT_EQ(to_san(pos, uci("e1g1")), "O-O");
  EXPECT_EQ(to_san(pos, uci("e1c1")), "O-O-O");
  for (const char* text : {"O-O", "0-0", "O-O+", "0-0!", "e1g1"}) EXPECT_EQ(parsed(pos, text), "e1g1") << text;
  for (const char* text : {"O-O-O", "0-0-0", "O-O-O#"}) EXPECT_EQ(parsed(pos, text), "e1c1") << text;
  // A king move to g1 is not castling.
  EXPECT_EQ(parsed(pos, "Kg1"),
            "illegal san: 'Kg1' in r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1: no legal king move to g1");
  Position black = position("r3k2r/8/8/8/8/8/8/R3K2R b Kq - 0 1");
  EXPECT_EQ(parsed(black, "O-O-O"), "e8c8");
  EXPECT_EQ(parsed(black, "O-O"),
            "illegal san: 'O-O' in r3k2r/8/8/8/8/8/8/R3K2R b Kq - 0 1: kingside castling is not legal");
}

TEST(San, CheckAndMateSuffixes) {
  // Fool's mate: 1. f3 e5 2. g4 Qh4#.
  Position pos = position("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2");
  EXPECT_EQ(to_san(pos, uci("d8h4")), "Qh4#");
  for (const char* text : {"Qh4#", "Qh4+", "Qh4", "Qh4!?", "Qh4#!!", "Qd8h4"})
    EXPECT_EQ(parsed(pos, text), "d8h4") << text;
  Position check = position("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
  EXPECT_EQ(to_san(check, uci("a1a8")), "Ra8+");
  EXPECT_EQ(to_san(check, uci("e1c1")), "O-O-O");
}

TEST(San, PawnCapturesAndEnPassant) {
  Position pos = position("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
  EXPECT_EQ(to_san(pos, uci("e5d6")), "exd6");
  EXPECT_EQ(to_san(pos, uci("e5e6")), "e6");
  EXPECT_EQ(parsed(pos, "exd6"), "e5d6");
  EXPECT_EQ(parsed(pos, "ed6"), "e5d6");
  EXPECT_EQ(parsed(pos, "exd6e.p."),
            "invalid san: 'exd6e.p.' in 4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1: expected a destination square (a1 .. h8) "
            "or O-O / O-O-O");
}

TEST(San, LongAlgebraicAndFullySpecifiedMoves) {
  Position pos = position(START);
  EXPECT_EQ(parsed(pos, "e2e4"), "e2e4");
  EXPECT_EQ(parsed(pos, "e2-e4"), "e2e4");
  EXPECT_EQ(parsed(pos, "Ng1-f3"), "g1f3");
  EXPECT_EQ(parsed(pos, "g1f3"), "g1f3");
  EXPECT_EQ(parsed(pos, "Nf3"), "g1f3");
  EXPECT_EQ(to_san(pos, uci("g1f3")), "Nf3");
  EXPECT_EQ(to_san(pos, uci("e2e4")), "e4");
}

TEST(San, RefusalsNameTheTextTheFenAndTheReason) {
  Position pos = position(START);
  const std::string fen = START;
  EXPECT_EQ(parsed(pos, "Nf4"), "illegal san: 'Nf4' in " + fen + ": no legal knight move to f4");
  EXPECT_EQ(parsed(pos, "e5"), "illegal san: 'e5' in " + fen + ": no legal pawn move to e5");
  EXPECT_EQ(parsed(pos, "dxe3"), "illegal san: 'dxe3' in " + fen + ": no legal pawn move from the d-file to e3");
  EXPECT_EQ(parsed(pos, "Nc3=Q"), "illegal san: 'Nc3=Q' in " + fen + ": a knight cannot promote");
  EXPECT_EQ(parsed(pos, "e2e5"), "illegal san: 'e2e5' in " + fen + ": no legal move from e2 to e5");
  EXPECT_EQ(parsed(pos, "O-O"), "illegal san: 'O-O' in " + fen + ": kingside castling is not legal");
  EXPECT_EQ(parsed(pos, "Zf3"),
            "invalid san: 'Zf3' in " + fen +
                ": expected a piece letter (N B R Q K), a file or a rank before the destination");
  EXPECT_EQ(parsed(pos, "hello"),
            "invalid san: 'hello' in " + fen + ": expected a destination square (a1 .. h8) or O-O / O-O-O");
  EXPECT_EQ(parsed(pos, ""), "invalid san: '' in " + fen + ": no move before the check or annotation marks");
  EXPECT_EQ(parsed(pos, "+"), "invalid san: '+' in " + fen + ": no move before the check or annotation marks");
  EXPECT_EQ(parsed(pos, "--"), "invalid san: '--' in " + fen + ": the null move is not supported");
  EXPECT_EQ(parsed(pos, "Pe4"),
            "invalid san: 'Pe4' in " + fen +
                ": expected a piece letter (N B R Q K), a file or a rank before the destination");
}

// Every legal move of the positions along seeded random games: its SAN reads
// back to it, and is unique among the position's moves.
TEST(San, RoundTripsOnRandomGames) {
  std::mt19937_64 rng(7);
  int moves = 0;
  for (int game = 0; game < 200; ++game) {
    Position pos = position(game % 2 ? START : "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    for (int ply = 0; ply < 200; ++ply) {
      MoveList list;
      generate_legal(pos, list);
      if (list.empty()) break;
      for (Move m : list) {
        std::string san = to_san(pos, m);
        auto back = parse_san(pos, san);
        ASSERT_TRUE(back.ok()) << san << ": " << back.status().message();
        ASSERT_EQ(*back, m) << san << " in " << pos.fen();
        ++moves;
      }
      pos.do_move(list[int(rng() % uint64_t(list.size))]);
    }
  }
  EXPECT_GT(moves, 100000);
}

}  // namespace
}  // namespace manaka::chess
