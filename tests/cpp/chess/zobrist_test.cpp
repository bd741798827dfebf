#include "chess/zobrist.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "chess/movegen.h"
#include "chess/position.h"
#include "position_of.h"
#include "random_walk.h"

namespace manaka::chess {
namespace {

uint64_t key_after(const char* fen, std::initializer_list<const char*> ucis) {
  Position pos = position(fen);
  for (const char* uci : ucis) {
    auto m = Move::parse_uci(uci);
    EXPECT_TRUE(m.ok() && pos.is_legal(*m)) << uci << " in " << pos.fen();
    if (!m.ok() || !pos.is_legal(*m)) break;
    pos.do_move(*m);
  }
  return pos.key();
}

// do_move's incremental key equals the key summed from scratch, on every
// position of random games (captures, castling, promotions, en passant).
TEST(Zobrist, IncrementalMatchesScratch) {
  auto positions = random_walk(11, 400, 300);
  ASSERT_GT(positions.size(), 50000u);
  for (const Position& pos : positions) ASSERT_EQ(pos.key(), compute_key(pos)) << pos.fen();
}

// Equal keys for the same position whatever the moves that led there; the
// counters are not part of the key.
TEST(Zobrist, Transpositions) {
  EXPECT_EQ(key_after("startpos", {"g1f3", "g8f6", "b1c3", "b8c6"}),
            key_after("startpos", {"b1c3", "b8c6", "g1f3", "g8f6"}));
  EXPECT_EQ(key_after("startpos", {"g1f3", "g8f6", "f3g1", "f6g8"}), position("startpos").key());
  EXPECT_EQ(position("4k3/8/8/8/8/8/8/4K3 w - - 0 1").key(), position("4k3/8/8/8/8/8/8/4K3 w - - 37 90").key());
}

TEST(Zobrist, SideCastlingAndBoardCount) {
  const uint64_t base = position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").key();
  std::set<uint64_t> keys = {base};
  for (const char* fen : {"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1",
                          "r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w KQq - 0 1",
                          "r3k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1",
                          "r3k2r/8/8/8/8/8/8/R4K1R w kq - 0 1", "r3k2r/8/8/8/8/8/8/R3K1R1 w Qkq - 0 1"})
    EXPECT_TRUE(keys.insert(position(fen).key()).second) << fen;
}

// The en-passant square counts only when a legal capture exists, as
// python-chess's _transposition_key.
TEST(Zobrist, EnPassantOnlyWhenLegal) {
  // 1. e4: no black pawn can capture; the same key as without the square.
  EXPECT_EQ(position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").key(),
            position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").key());
  // A capture exists: the square counts.
  EXPECT_NE(position("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1").key(), position("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1").key());
  // The capture would expose the king along the rank: it does not count.
  EXPECT_EQ(position("8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1").key(), position("8/8/8/8/k2Pp2Q/8/8/3K4 b - - 0 1").key());
  // After the double push in play, the same.
  EXPECT_EQ(key_after("4k3/8/8/8/5p2/8/4P3/4K3 w - - 0 1", {"e2e4"}),
            position("4k3/8/8/8/4Pp2/8/8/4K3 b - e3 0 1").key());
  EXPECT_NE(key_after("4k3/8/8/8/5p2/8/4P3/4K3 w - - 0 1", {"e2e4"}),
            position("4k3/8/8/8/4Pp2/8/8/4K3 b - - 0 1").key());
}

// No two distinct positions of random games share a key (distinct by the
// FEN without its counters).
TEST(Zobrist, NoCollisionsOnRandomGames) {
  std::map<uint64_t, std::string> seen;
  for (const Position& pos : random_walk(5, 300, 200)) {
    std::string fen = pos.fen();
    fen = fen.substr(0, fen.rfind(' ', fen.rfind(' ') - 1));
    auto [it, fresh] = seen.emplace(pos.key(), fen);
    if (!fresh) ASSERT_EQ(it->second, fen);
  }
  EXPECT_GT(seen.size(), 30000u);
}

}  // namespace
}  // namespace manaka::chess
