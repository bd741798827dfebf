#include "vpd/features.h"

#include <gtest/gtest.h>

namespace manaka::vpd {
namespace {

Features of(const char* fen) {
  auto pos = chess::Position::from_fen(fen);
  EXPECT_TRUE(pos.ok()) << pos.status().message();
  return features_of(*pos);
}

TEST(PhaseRule, OpeningNeedsEarlyPlyAndMaterial) {
  EXPECT_EQ(phase_of(0, 62, 32), OPENING);
  EXPECT_EQ(phase_of(20, 50, 30), OPENING);
  EXPECT_EQ(phase_of(21, 50, 30), MIDDLEGAME);  // ply 21 is past the opening
  EXPECT_EQ(phase_of(20, 49, 30), MIDDLEGAME);  // too little material
}

TEST(PhaseRule, EndgameByMaterialOrPieces) {
  EXPECT_EQ(phase_of(40, 20, 30), ENDGAME);
  EXPECT_EQ(phase_of(40, 21, 13), MIDDLEGAME);
  EXPECT_EQ(phase_of(40, 21, 12), ENDGAME);
  EXPECT_EQ(phase_of(5, 20, 20), ENDGAME);  // early, but little material
}

TEST(PhaseRule, OpeningTakesPrecedenceOverFewPieces) {
  // 12 pieces carrying 50 non-pawn material at ply <= 20 (from a FEN tag):
  // both the opening and the endgame rule hold; the spec lists opening first.
  EXPECT_EQ(phase_of(10, 50, 12), OPENING);
  EXPECT_EQ(phase_of(21, 50, 12), ENDGAME);
}

TEST(GamePly, FromFullmoveAndSide) {
  auto white = chess::Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 40");
  auto black = chess::Position::from_fen("4k3/8/8/8/8/8/8/R3K3 b Q - 0 40");
  EXPECT_EQ(game_ply(*white), 78);
  EXPECT_EQ(game_ply(*black), 79);
  EXPECT_EQ(game_ply(chess::Position::startpos()), 0);
}

TEST(GamePly, FenAtPlyGivesTheFullmoveBack) {
  for (const char* fen : {"4k3/8/8/8/8/8/8/R3K3 w Q - 0 40", "4k3/8/8/8/8/8/8/R3K3 b Q - 3 40"}) {
    auto pos = chess::Position::from_fen(fen);
    ASSERT_TRUE(pos.ok());
    EXPECT_EQ(fen_at_ply(pos->normalized_fen(), game_ply(*pos)), fen);
  }
  EXPECT_EQ(fen_at_ply(chess::Position::startpos().normalized_fen(), 0), chess::Position::startpos().fen());
}

TEST(Features, StartPosition) {
  const Features f = features_of(chess::Position::startpos());
  EXPECT_EQ(f.fen, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  EXPECT_EQ(f.side_to_move, 1);
  EXPECT_EQ(f.piece_count, 32);
  EXPECT_EQ(f.non_pawn_material, 62);
  EXPECT_EQ(f.material_balance, 0);
  EXPECT_EQ(f.legal_moves, 20);
  EXPECT_FALSE(f.in_check);
  EXPECT_EQ(f.castling_mask, 15);
  EXPECT_EQ(f.halfmove_clock, 0);
}

TEST(Features, KiwipeteBlackToMove) {
  const Features f = of("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b Kq - 3 17");
  EXPECT_EQ(f.fen, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b Kq - 3 1");
  EXPECT_EQ(f.side_to_move, 0);
  EXPECT_EQ(f.piece_count, 32);
  EXPECT_EQ(f.castling_mask, 1 | 8);
  EXPECT_EQ(f.halfmove_clock, 3);
  EXPECT_EQ(f.material_balance, 0);
}

TEST(Features, CheckmateAndMaterial) {
  // Fool's mate: White to move, in check, no legal move.
  const Features mate = of("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
  EXPECT_TRUE(mate.in_check);
  EXPECT_EQ(mate.legal_moves, 0);
  EXPECT_EQ(mate.halfmove_clock, 1);
  // A rook up, pawns counted in the balance, not in non-pawn material.
  const Features rook = of("4k3/pp6/8/8/8/8/P7/R3K3 w Q - 7 40");
  EXPECT_EQ(rook.piece_count, 6);
  EXPECT_EQ(rook.non_pawn_material, 5);
  EXPECT_EQ(rook.material_balance, 5 + 1 - 2);
  EXPECT_EQ(rook.castling_mask, 2);
  EXPECT_EQ(rook.fen, "4k3/pp6/8/8/8/8/P7/R3K3 w Q - 7 1");
  // Queens against bishops and knights.
  const Features q = of("1n2k1b1/8/8/8/8/8/8/3QK3 b - - 0 1");
  EXPECT_EQ(q.non_pawn_material, 9 + 3 + 3);
  EXPECT_EQ(q.material_balance, 9 - 6);
  EXPECT_EQ(q.castling_mask, 0);
}

}  // namespace
}  // namespace manaka::vpd
