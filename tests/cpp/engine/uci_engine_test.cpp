// The client speaking UCI to the scripted fake engine: the words on the wire,
// mate units, options and their ranges, crashes, stalls and a dead start.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine_fixture.h"

namespace manaka::engine {
namespace {

using manaka::testing::fake_engine;
using manaka::testing::Scratch;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

EngineOptions fake_uci(std::vector<std::string> args) { return fake_engine(std::move(args), Protocol::Uci); }

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

constexpr const char* kRuyLopez = "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5 a4b3 d7d6 c2c3 e8g8";

TEST(UciEngine, HandshakeAndSearchWithTheFake) {
  auto eng = Engine::start(fake_uci({"normal"}));
  ASSERT_TRUE(eng.ok()) << eng.status().message();
  EXPECT_EQ((*eng)->name(), "fake_uci normal");
  EXPECT_EQ((*eng)->dialect().name, "UCI");
  ASSERT_EQ((*eng)->advertised_options().size(), 6u);
  const EngineOption* overhead = (*eng)->find_option("move overhead");
  ASSERT_NE(overhead, nullptr);
  EXPECT_EQ(overhead->name, "Move Overhead");
  EXPECT_EQ(overhead->max, 5000);
  ASSERT_TRUE((*eng)->new_game().ok());
  auto found = (*eng)->search("startpos moves e2e4", {.depth = 1});
  ASSERT_TRUE(found.ok()) << found.status().message();
  ASSERT_EQ(found->lines.size(), 1u);
  EXPECT_EQ(found->lines[0].move, "e7e5");
  EXPECT_EQ(found->lines[0].score, (Score{Score::Kind::Cp, 10, true}));
  EXPECT_FALSE(found->lines[0].wdl.has_value()) << "UCI_ShowWDL was not set";
  EXPECT_EQ(found->bestmove, "e7e5");
  EXPECT_TRUE(found->has_move());
}

TEST(UciEngine, TheWordsOnTheWire) {
  Scratch dir;
  const std::string log = dir.path("sent.txt");
  auto options = fake_uci({"log", log});
  options.multipv = 2;
  options.elo = 1500;
  options.options = {{"UCI_ShowWDL", "true"}, {"Move Overhead", "0"}};
  auto eng = Engine::start(options);
  ASSERT_TRUE(eng.ok()) << eng.status().message();
  ASSERT_TRUE((*eng)->new_game().ok());
  const std::string fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  auto found = (*eng)->search("fen " + fen + " moves e2e4", {.depth = 3, .nodes = 1000, .movetime_ms = 50});
  ASSERT_TRUE(found.ok()) << found.status().message();
  ASSERT_EQ(found->lines.size(), 1u);
  EXPECT_EQ(found->lines[0].wdl, (Wdl{600, 300, 100}));
  (*eng)->quit();
  EXPECT_EQ(lines_of(log), (std::vector<std::string>{
                               "uci",
                               "setoption name MultiPV value 2",
                               "setoption name UCI_LimitStrength value true",
                               "setoption name UCI_Elo value 1500",
                               "setoption name UCI_ShowWDL value true",
                               "setoption name Move Overhead value 0",
                               "isready",
                               "ucinewgame",
                               "isready",
                               "position fen " + fen + " moves e2e4",
                               "go depth 3 nodes 1000 movetime 50",
                               "quit",
                           }));
}

TEST(UciEngine, MateScoresAreKeptInPliesInBothDialects) {
  // The fake reports "score mate 2" and "score mate -3" in either dialect.
  auto uci = Engine::start(fake_uci({"mates"}));
  ASSERT_TRUE(uci.ok()) << uci.status().message();
  auto found = (*uci)->search("startpos", {.depth = 3});
  ASSERT_TRUE(found.ok()) << found.status().message();
  ASSERT_EQ(found->lines.size(), 2u);
  EXPECT_EQ(found->lines[0].score, (Score{Score::Kind::Mate, 3, true})) << "mate in 2 moves: 3 plies";
  EXPECT_EQ(found->lines[0].score.mate_moves(), 2);
  EXPECT_EQ(found->lines[1].score, (Score{Score::Kind::Mate, -6, true})) << "mated in 3 moves: 6 plies";
  EXPECT_EQ(found->lines[1].score.mate_moves(), -3);

  auto usi = Engine::start(fake_engine({"mates"}));
  ASSERT_TRUE(usi.ok()) << usi.status().message();
  auto usi_found = (*usi)->search("startpos", {.depth = 3});
  ASSERT_TRUE(usi_found.ok()) << usi_found.status().message();
  ASSERT_EQ(usi_found->lines.size(), 2u);
  EXPECT_EQ(usi_found->lines[0].score.value, 2) << "USI counts plies already";
  EXPECT_EQ(usi_found->lines[1].score.value, -3);
}

TEST(UciEngine, NoMoveIsBestmoveNone) {
  auto eng = Engine::start(fake_uci({"normal"}));
  ASSERT_TRUE(eng.ok()) << eng.status().message();
  auto found = (*eng)->search(std::string("startpos moves ") + kRuyLopez, {.depth = 1});
  ASSERT_TRUE(found.ok()) << found.status().message();
  EXPECT_EQ(found->bestmove, "(none)");
  EXPECT_FALSE(found->has_move());
  EXPECT_TRUE(found->lines.empty()) << "\"info depth 0 score mate 0\" has no pv";
}

TEST(UciEngine, APositionInTheOtherDialectIsRefused) {
  auto uci = Engine::start(fake_uci({"normal"}));
  ASSERT_TRUE(uci.ok());
  auto found = (*uci)->search("sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", {.depth = 1});
  ASSERT_FALSE(found.ok());
  EXPECT_EQ(found.status().kind(), ErrorKind::Invalid);
  EXPECT_TRUE(contains(found.status().message(), "is neither \"startpos ...\" nor \"fen ...\" (UCI)"))
      << found.status().message();
  EXPECT_TRUE((*uci)->alive()) << "nothing was sent";

  auto usi = Engine::start(fake_engine({"normal"}));
  ASSERT_TRUE(usi.ok());
  auto usi_found = (*usi)->search("fen 8/8/8/8/8/8/8/K6k w - - 0 1", {.depth = 1});
  ASSERT_FALSE(usi_found.ok());
  EXPECT_TRUE(contains(usi_found.status().message(), "nor \"sfen ...\" (USI)")) << usi_found.status().message();
}

TEST(UciEngine, EloOutsideTheAdvertisedRangeIsRefused) {
  auto options = fake_uci({"normal"});
  options.elo = 100;
  auto eng = Engine::start(options);
  ASSERT_FALSE(eng.ok());
  EXPECT_EQ(eng.status().kind(), ErrorKind::Invalid);
  EXPECT_EQ(eng.status().message(), "engine fake_uci normal (" + manaka::testing::fake_engine_path() +
                                        "): UCI_Elo 100 is out of range 1350..2850");
}

TEST(UciEngine, AnOptionTheEngineDoesNotAdvertiseIsRefused) {
  auto options = fake_uci({"normal"});
  options.options = {{"Hash", "64"}};
  auto eng = Engine::start(options);
  ASSERT_FALSE(eng.ok());
  EXPECT_EQ(eng.status().kind(), ErrorKind::Invalid);
  const std::string& msg = eng.status().message();
  EXPECT_TRUE(contains(msg, "engine fake_uci normal (" + manaka::testing::fake_engine_path() +
                                ") does not advertise the option \"Hash\""))
      << msg;
  EXPECT_TRUE(contains(msg, "it advertises: Move Overhead, MultiPV, UCI_LimitStrength")) << msg;

  // USI reserves USI_Hash and USI_Ponder for the GUI: engines need not list them.
  auto usi = fake_engine({"normal"});
  usi.options = {{"USI_Hash", "64"}, {"USI_Ponder", "false"}};
  EXPECT_TRUE(Engine::start(usi).ok());
  usi.options = {{"Hash", "64"}};
  auto refused = Engine::start(usi);
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(contains(refused.status().message(), "does not advertise the option \"Hash\""));
}

TEST(UciEngine, ACrashMidSearchIsAnEngineErrorAndRestarts) {
  Scratch dir;
  auto eng = Engine::start(fake_uci({"crash", "1", dir.path("marker")}));
  ASSERT_TRUE(eng.ok());
  auto found = (*eng)->search("startpos", {.movetime_ms = 10});
  ASSERT_FALSE(found.ok());
  const std::string& msg = found.status().message();
  EXPECT_EQ(found.status().kind(), ErrorKind::Engine);
  EXPECT_TRUE(contains(msg, "search (go movetime 10): closed its output before bestmove (exited with status 3)"))
      << msg;
  EXPECT_FALSE((*eng)->alive());
  ASSERT_TRUE((*eng)->restart().ok());
  EXPECT_EQ((*eng)->restarts(), 1);
  EXPECT_EQ((*eng)->advertised_options().size(), 6u) << "advertised again, not twice";
  auto again = (*eng)->search("startpos", {.depth = 1});
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(again->bestmove, "e2e4");
}

TEST(UciEngine, AStalledEngineTimesOutAfterItsMoveTime) {
  // The deadline is the search timeout on top of the move time.
  Scratch dir;
  auto options = fake_uci({"stall", "1", dir.path("marker")});
  options.search_timeout_ms = 200;
  auto eng = Engine::start(options);
  ASSERT_TRUE(eng.ok());
  const auto t0 = std::chrono::steady_clock::now();
  auto found = (*eng)->search("startpos", {.movetime_ms = 300});
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_FALSE(found.ok());
  EXPECT_TRUE(contains(found.status().message(), "no bestmove within 500 ms (stalled)")) << found.status().message();
  EXPECT_GE(waited, 0.49);
  EXPECT_LT(waited, 5.0);
  ASSERT_TRUE((*eng)->restart().ok());
  EXPECT_TRUE((*eng)->search("startpos", {.nodes = 100}).ok());
}

TEST(UciEngine, AnEngineThatDiesAtStartIsRefused) {
  auto eng = Engine::start(fake_uci({"dead"}));
  ASSERT_FALSE(eng.ok());
  EXPECT_EQ(eng.status().kind(), ErrorKind::Engine);
  EXPECT_TRUE(contains(eng.status().message(), "handshake (uci)")) << eng.status().message();
  EXPECT_TRUE(contains(eng.status().message(), "exited with status 7")) << eng.status().message();
}

TEST(UciEngine, ASearchNeedsALimit) {
  auto eng = Engine::start(fake_uci({"normal"}));
  ASSERT_TRUE(eng.ok());
  auto found = (*eng)->search("startpos", {});
  ASSERT_FALSE(found.ok());
  EXPECT_EQ(found.status().message(), "search: a limit is required (a depth or a node limit, or a move time)");
}

}  // namespace
}  // namespace manaka::engine
