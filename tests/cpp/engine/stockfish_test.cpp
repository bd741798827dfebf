// The client speaking UCI to the real Stockfish (Debian's 15.1, installed by
// `make setup`); every move it returns is checked with our chess rules.
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>

#include "chess/move.h"
#include "chess/position.h"
#include "engine/engine.h"
#include "engine_fixture.h"

namespace manaka::engine {
namespace {

using manaka::testing::stockfish;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// Whether `uci` is a legal move in the position `fen` ("startpos" or a FEN).
::testing::AssertionResult legal_in(const std::string& fen, const std::string& uci) {
  auto pos = chess::Position::from_fen(fen);
  if (!pos.ok()) return ::testing::AssertionFailure() << pos.status().message();
  auto m = chess::Move::parse_uci(uci);
  if (!m.ok()) return ::testing::AssertionFailure() << m.status().message();
  if (!pos->is_legal(*m)) return ::testing::AssertionFailure() << uci << " is illegal in " << fen;
  return ::testing::AssertionSuccess();
}

std::unique_ptr<Engine> start(const EngineOptions& options) {
  auto eng = Engine::start(options);
  EXPECT_TRUE(eng.ok()) << eng.status().message();
  return eng.ok() ? std::move(*eng) : nullptr;
}

#define REQUIRE_STOCKFISH() \
  ASSERT_TRUE(manaka::testing::have_stockfish()) << "stockfish is not installed (make setup installs it)"

TEST(Stockfish, HandshakeAdvertisesTheEloRange) {
  REQUIRE_STOCKFISH();
  auto eng = start(stockfish());
  ASSERT_NE(eng, nullptr);
  EXPECT_TRUE(contains(eng->name(), "Stockfish")) << eng->name();
  const EngineOption* elo = eng->find_option("UCI_Elo");
  ASSERT_NE(elo, nullptr);
  EXPECT_EQ(elo->type, "spin");
  EXPECT_EQ(elo->min, 1350);
  EXPECT_EQ(elo->max, 2850);
  ASSERT_NE(eng->find_option("uci_limitstrength"), nullptr);
  EXPECT_EQ(eng->find_option("UCI_LimitStrength")->type, "check");
  ASSERT_NE(eng->find_option("Clear Hash"), nullptr);
  EXPECT_EQ(eng->find_option("Clear Hash")->type, "button");
}

TEST(Stockfish, DepthFiveFromStartposIsLegal) {
  REQUIRE_STOCKFISH();
  auto eng = start(stockfish());
  ASSERT_NE(eng, nullptr);
  ASSERT_TRUE(eng->new_game().ok());
  auto found = eng->search("startpos", {.depth = 5});
  ASSERT_TRUE(found.ok()) << found.status().message();
  ASSERT_EQ(found->lines.size(), 1u);
  EXPECT_EQ(found->lines[0].depth, 5);
  EXPECT_FALSE(found->lines[0].score.is_mate());
  EXPECT_TRUE(found->has_move());
  EXPECT_TRUE(legal_in("startpos", found->bestmove));
  EXPECT_EQ(found->bestmove, found->lines[0].move);
}

TEST(Stockfish, MultiPvThreeGivesThreeLegalLines) {
  REQUIRE_STOCKFISH();
  auto options = stockfish();
  options.multipv = 3;
  auto eng = start(options);
  ASSERT_NE(eng, nullptr);
  const std::string fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
  auto found = eng->search("fen " + fen, {.depth = 4});
  ASSERT_TRUE(found.ok()) << found.status().message();
  ASSERT_EQ(found->lines.size(), 3u);
  std::set<std::string> moves;
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(found->lines[i].multipv, int(i) + 1);
    EXPECT_TRUE(legal_in(fen, found->lines[i].move));
    moves.insert(found->lines[i].move);
    if (i > 0) {
      EXPECT_LE(found->lines[i].score.value, found->lines[i - 1].score.value);
    }
  }
  EXPECT_EQ(moves.size(), 3u);
  EXPECT_EQ(found->bestmove, found->lines[0].move);
}

TEST(Stockfish, MoveTimeIsRoughlyRespected) {
  REQUIRE_STOCKFISH();
  auto eng = start(stockfish());
  ASSERT_NE(eng, nullptr);
  auto found = eng->search("startpos moves e2e4 c7c5", {.movetime_ms = 200});
  ASSERT_TRUE(found.ok()) << found.status().message();
  EXPECT_GE(found->seconds, 0.15);
  EXPECT_LT(found->seconds, 1.0);
  EXPECT_TRUE(legal_in("rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", found->bestmove));
}

TEST(Stockfish, EloInRangeIsAcceptedAndOutsideRefused) {
  REQUIRE_STOCKFISH();
  auto options = stockfish();
  options.elo = 1500;
  auto eng = start(options);
  ASSERT_NE(eng, nullptr);
  auto found = eng->search("startpos", {.depth = 2});
  ASSERT_TRUE(found.ok()) << found.status().message();
  EXPECT_TRUE(legal_in("startpos", found->bestmove));

  options.elo = 100;
  auto refused = Engine::start(options);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().kind(), ErrorKind::Invalid);
  const std::string& msg = refused.status().message();
  EXPECT_TRUE(contains(msg, "engine Stockfish")) << msg;
  EXPECT_TRUE(contains(msg, "(" + manaka::testing::kStockfish + "): UCI_Elo 100 is out of range 1350..2850")) << msg;
}

TEST(Stockfish, AnOptionItDoesNotAdvertiseIsRefused) {
  REQUIRE_STOCKFISH();
  auto options = stockfish();
  options.options = {{"USI_Hash", "64"}};
  auto refused = Engine::start(options);
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(contains(refused.status().message(), "does not advertise the option \"USI_Hash\""))
      << refused.status().message();
}

TEST(Stockfish, MateInOneIsMateOne) {
  REQUIRE_STOCKFISH();
  auto options = stockfish();
  options.options = {{"UCI_ShowWDL", "true"}};
  auto eng = start(options);
  ASSERT_NE(eng, nullptr);
  auto found = eng->search("fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", {.depth = 5});
  ASSERT_TRUE(found.ok()) << found.status().message();
  EXPECT_EQ(found->bestmove, "a1a8");
  ASSERT_EQ(found->lines.size(), 1u);
  EXPECT_EQ(found->lines[0].score, (Score{Score::Kind::Mate, 1, true})) << "mate 1: one ply";
  EXPECT_EQ(found->lines[0].score.mate_moves(), 1);
  EXPECT_EQ(found->lines[0].wdl, (Wdl{1000, 0, 0}));
}

TEST(Stockfish, MatedInOneIsMinusTwoPlies) {
  REQUIRE_STOCKFISH();
  auto eng = start(stockfish());
  ASSERT_NE(eng, nullptr);
  // Black's only move is Kb8, and Rh8 mates.
  auto found = eng->search("fen k7/8/1K6/8/8/8/8/7R b - - 0 1", {.depth = 5});
  ASSERT_TRUE(found.ok()) << found.status().message();
  EXPECT_EQ(found->bestmove, "a8b8");
  ASSERT_EQ(found->lines.size(), 1u);
  EXPECT_EQ(found->lines[0].score, (Score{Score::Kind::Mate, -2, true})) << "mate -1: two plies";
  EXPECT_EQ(found->lines[0].score.mate_moves(), -1);
  EXPECT_FALSE(found->lines[0].wdl.has_value()) << "UCI_ShowWDL is off by default";
}

TEST(Stockfish, NoMoveWhenMatedOrStalemated) {
  REQUIRE_STOCKFISH();
  auto eng = start(stockfish());
  ASSERT_NE(eng, nullptr);
  for (const char* fen : {"R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"}) {
    auto found = eng->search(std::string("fen ") + fen, {.depth = 3});
    ASSERT_TRUE(found.ok()) << found.status().message();
    EXPECT_EQ(found->bestmove, "(none)") << fen;
    EXPECT_FALSE(found->has_move());
    EXPECT_TRUE(found->lines.empty());
  }
}

}  // namespace
}  // namespace manaka::engine
