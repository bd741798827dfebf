#include "shogi/perft.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

namespace manaka::shogi {
namespace {

Position position(const char* sfen) {
  auto pos = Position::from_sfen(sfen);
  EXPECT_TRUE(pos.ok()) << pos.status().message();
  return *pos;
}

TEST(Perft, Startpos) {
  Position pos = Position::startpos();
  EXPECT_EQ(perft(pos, 0), 1u);
  EXPECT_EQ(perft(pos, 1), 30u);
  EXPECT_EQ(perft(pos, 2), 900u);
  EXPECT_EQ(perft(pos, 3), 25470u);
  EXPECT_EQ(perft(pos, 4), 719731u);
  EXPECT_EQ(pos.sfen(), Position::startpos().sfen());
}

TEST(Perft, StartposDepth5) {
  Position pos = Position::startpos();
  auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(perft(pos, 5), 19861490u);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("perft(startpos, 5): %.3f s, %.1f M nodes/s\n", s, 19861490 / s / 1e6);
}

// Expected counts below came from cshogi (a Python perft over
// cshogi.Board.legal_moves), not from this generator.
struct Case {
  const char* sfen;
  int depth;
  uint64_t nodes;
};

class PerftVsCshogi : public testing::TestWithParam<Case> {};

TEST_P(PerftVsCshogi, Matches) {
  Position pos = position(GetParam().sfen);
  EXPECT_EQ(perft(pos, GetParam().depth), GetParam().nodes) << GetParam().sfen;
  EXPECT_EQ(pos.sfen(), GetParam().sfen);
}

INSTANTIATE_TEST_SUITE_P(
    Positions, PerftVsCshogi,
    testing::Values(
        // 593 legal moves, the most any position has.
        Case{"R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1", 1, 593},
        Case{"R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1", 3, 53393368},
        Case{"l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1", 3, 4809015},
        Case{"ln1g5/1r2S1k2/p2pppn2/2ps2p2/1p7/2P6/PPSPPPPLP/2G2K1pr/LN4G1b w BGSLPnp 62", 4, 160541294},
        // Uchifuzume at the root: P*1b would mate.
        Case{"8k/9/6NG1/9/9/9/9/9/4K4 b P 1", 5, 275184},
        Case{"4R2gk/9/8G/9/9/9/9/9/4K4 b P 1", 3, 10514},
        // Reached by random play biased towards checks.
        Case{"2kgs4/l1b5l/1rnp1p1p1/1pn5p/p1p1p2P1/3P1PP1P/PP2Png2/2PSR1S2/L1+bK1G1NL b GSp 113", 4, 465355},
        Case{"2g+Pp4/2r2ks1l/3sP1npp/lPpng4/p1B2PR1P/2P3pP1/P1+b1KGS1L/L6G1/1N+p3PN1 b 2Ps 133", 4, 10378570},
        Case{"1n1g5/sr2k1gb1/s4n1PP/l2pp4/1pp2P2L/PPPPP1P2/5SL2/2SK1R3/LN2GG1b1 b N4Pp 123", 4, 16305892},
        Case{"lnsgk3l/r5gb1/1pppspnpp/6p2/p3p1P2/9/PPPPSP1PP/LBG1P1RKL/1NS2G1N1 w - 52", 3, 37247},
        Case{"3g2bn1/l1sr4l/n3g1k1p/2p1p1pp1/p2ps4/Pp4PP1/BSPP1G2P/L1N1GS1R1/1NK5L w P3p 84", 3, 99492},
        Case{"1b5nG/r1b1+R1s2/l2k1g2+S/pp4pp1/1Ppp1pP2/g7p/P+nnP4P/LS2G2KL/3+n5 w Ls5p 186", 3, 31264}));

TEST(Perft, DivideSumsToPerft) {
  Position pos = Position::startpos();
  auto divide = perft_divide(pos, 3);
  ASSERT_EQ(divide.size(), 30u);
  uint64_t total = 0;
  for (auto& [move, nodes] : divide) total += nodes;
  EXPECT_EQ(total, 25470u);
  // Per-move counts from cshogi: 7g7f opens the bishop's diagonal.
  for (auto& [move, nodes] : divide) {
    if (move.to_usi() == "7g7f") { EXPECT_EQ(nodes, 1110u); }
    if (move.to_usi() == "2h1h") { EXPECT_EQ(nodes, 900u); }
  }
}

}  // namespace
}  // namespace manaka::shogi
