// The client speaking USI to the scripted fake engine (crashes, stalls, a dead
// start) and against the real fairy-stockfish when it is installed.
#include "engine/engine.h"

#include <gtest/gtest.h>

#include <chrono>

#include "engine_fixture.h"

namespace manaka::engine {
namespace {

using manaka::testing::fake_engine;
using manaka::testing::Scratch;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(UsiEngine, HandshakeAndSearchWithTheFake) {
  auto eng = Engine::start(fake_engine({"normal"}));
  ASSERT_TRUE(eng.ok()) << eng.status().message();
  EXPECT_EQ((*eng)->name(), "fake_usi normal");
  ASSERT_TRUE((*eng)->new_game().ok());
  auto found = (*eng)->search("startpos moves 7g7f 3c3d", {.depth = 1});
  ASSERT_TRUE(found.ok()) << found.status().message();
  ASSERT_EQ(found->lines.size(), 1u);
  EXPECT_EQ(found->lines[0].move, "2g2f");
  EXPECT_EQ(found->lines[0].score, (Score{Score::Kind::Cp, 20, true}));
  EXPECT_EQ(found->bestmove, "2g2f");
  EXPECT_GT((*eng)->wait_seconds(), 0.0);
}

TEST(UsiEngine, ASearchNeedsALimit) {
  auto eng = Engine::start(fake_engine({"normal"}));
  ASSERT_TRUE(eng.ok());
  auto found = (*eng)->search("startpos", {});
  ASSERT_FALSE(found.ok());
  EXPECT_TRUE(contains(found.status().message(), "depth or a node limit"));
}

TEST(UsiEngine, ACrashMidSearchIsAnEngineErrorNamingTheEngine) {
  Scratch dir;
  auto eng = Engine::start(fake_engine({"crash", "1", dir.path("marker")}));
  ASSERT_TRUE(eng.ok());
  auto found = (*eng)->search("startpos", {.depth = 1});
  ASSERT_FALSE(found.ok());
  const std::string& msg = found.status().message();
  EXPECT_EQ(found.status().kind(), ErrorKind::Engine);
  EXPECT_TRUE(contains(msg, manaka::testing::fake_engine_path())) << msg;
  EXPECT_TRUE(contains(msg, "search (go depth 1)")) << msg;
  EXPECT_TRUE(contains(msg, "closed its output before bestmove")) << msg;
  EXPECT_TRUE(contains(msg, "exited with status 3")) << msg;
  EXPECT_FALSE((*eng)->alive());
  // Dead until restarted; the marker now exists, so the new process behaves.
  EXPECT_FALSE((*eng)->search("startpos", {.depth = 1}).ok());
  ASSERT_TRUE((*eng)->restart().ok());
  EXPECT_EQ((*eng)->restarts(), 1);
  auto again = (*eng)->search("startpos", {.depth = 1});
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(again->bestmove, "7g7f");
}

TEST(UsiEngine, AStalledEngineTimesOutAndRestarts) {
  Scratch dir;
  auto options = fake_engine({"stall", "1", dir.path("marker")});
  options.search_timeout_ms = 300;
  auto eng = Engine::start(options);
  ASSERT_TRUE(eng.ok());
  const auto t0 = std::chrono::steady_clock::now();
  auto found = (*eng)->search("startpos", {.nodes = 100});
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_FALSE(found.ok());
  EXPECT_TRUE(contains(found.status().message(), "no bestmove within 300 ms (stalled)"))
      << found.status().message();
  EXPECT_GE(waited, 0.29);
  EXPECT_LT(waited, 5.0);
  ASSERT_TRUE((*eng)->restart().ok());
  EXPECT_TRUE((*eng)->search("startpos", {.nodes = 100}).ok());
}

TEST(UsiEngine, AnEngineThatDiesAtStartIsRefused) {
  auto eng = Engine::start(fake_engine({"dead"}));
  ASSERT_FALSE(eng.ok());
  EXPECT_EQ(eng.status().kind(), ErrorKind::Engine);
  EXPECT_TRUE(contains(eng.status().message(), "handshake (usi)")) << eng.status().message();
  EXPECT_TRUE(contains(eng.status().message(), "exited with status 7")) << eng.status().message();
}

TEST(UsiEngine, AMissingProgramIsRefused) {
  EngineOptions o;
  o.path = "/nonexistent/engine";
  auto eng = Engine::start(o);
  ASSERT_FALSE(eng.ok());
  EXPECT_EQ(eng.status().message(), "engine /nonexistent/engine: cannot start: No such file or directory");
}

TEST(UsiEngine, FairyStockfishMultiPvAtDepthOne) {
  ASSERT_TRUE(manaka::testing::have_fairy_stockfish()) << "fairy-stockfish is not installed (make setup installs it)";
  EngineOptions o;
  o.path = manaka::testing::kFairyStockfish;
  o.multipv = 3;
  auto eng = Engine::start(o);
  ASSERT_TRUE(eng.ok()) << eng.status().message();
  EXPECT_TRUE(contains((*eng)->name(), "Fairy-Stockfish"));
  ASSERT_TRUE((*eng)->new_game().ok());
  auto found = (*eng)->search("startpos moves 7g7f", {.depth = 1});
  ASSERT_TRUE(found.ok()) << found.status().message();
  ASSERT_EQ(found->lines.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(found->lines[i].multipv, int(i) + 1);
    EXPECT_FALSE(found->lines[i].move.empty());
    if (i > 0) EXPECT_LE(found->lines[i].score.value, found->lines[i - 1].score.value);
  }
  EXPECT_EQ(found->bestmove, found->lines[0].move);
  (*eng)->quit();
  EXPECT_FALSE((*eng)->alive());
}

}  // namespace
}  // namespace manaka::engine
