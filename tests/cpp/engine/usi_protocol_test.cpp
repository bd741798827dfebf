// The engine-to-GUI lines of USI, parsed without a process.
#include "engine/usi_protocol.h"

#include <gtest/gtest.h>

namespace manaka::engine {
namespace {

TEST(ParseInfo, MultiPvLineWithCentipawns) {
  auto info = parse_info(
      "info depth 2 seldepth 2 multipv 3 score cp -176 nodes 301 nps 100333 tbhits 0 time 3 pv 5a6b 7i7h");
  ASSERT_TRUE(info.has_value());
  EXPECT_EQ(info->depth, 2);
  EXPECT_EQ(info->multipv, 3);
  EXPECT_EQ(info->score, (Score{Score::Kind::Cp, -176, true}));
  EXPECT_EQ(info->nodes, 301u);
  EXPECT_FALSE(info->bound);
  EXPECT_EQ(info->first_move, "5a6b");
}

TEST(ParseInfo, MateScoresKeepTheirSign) {
  auto win = parse_info("info depth 5 multipv 1 score mate 3 pv G*5b");
  ASSERT_TRUE(win.has_value());
  EXPECT_TRUE(win->score.is_mate());
  EXPECT_EQ(win->score.value, 3);
  auto loss = parse_info("info depth 5 score mate -2 pv 5a4b 6c5b");
  ASSERT_TRUE(loss.has_value());
  EXPECT_EQ(loss->score.value, -2);
  EXPECT_EQ(loss->multipv, 1) << "multipv defaults to 1";
  auto unknown = parse_info("info depth 5 score mate + pv 5a4b");
  ASSERT_TRUE(unknown.has_value());
  EXPECT_FALSE(unknown->score.mate_distance_known);
  EXPECT_EQ(unknown->score.to_string(), "mate +");
  EXPECT_EQ(loss->score.to_string(), "mate -2");
}

TEST(ParseInfo, BoundsAreFlagged) {
  auto info = parse_info("info depth 7 multipv 1 score cp 80 lowerbound nodes 9 pv 7g7f");
  ASSERT_TRUE(info.has_value());
  EXPECT_TRUE(info->bound);
  EXPECT_EQ(info->score.value, 80);
}

TEST(ParseInfo, LinesWithoutScoreOrPvAreNotCandidates) {
  EXPECT_FALSE(parse_info("info string NNUE evaluation enabled").has_value());
  EXPECT_FALSE(parse_info("info depth 3 currmove 7g7f currmovenumber 1").has_value());
  EXPECT_FALSE(parse_info("info depth 3 score cp 10").has_value()) << "no pv";
  EXPECT_FALSE(parse_info("info depth 3 score cp 10 pv").has_value()) << "empty pv";
  EXPECT_FALSE(parse_info("info depth x score cp 10 pv 7g7f").has_value()) << "bad number";
  EXPECT_FALSE(parse_info("info depth 3 score cp 1O pv 7g7f").has_value()) << "bad score";
  EXPECT_FALSE(parse_info("bestmove 7g7f").has_value());
  EXPECT_FALSE(parse_info("").has_value());
}

TEST(ParseBestmove, MoveAndVerdicts) {
  EXPECT_EQ(parse_bestmove("bestmove 7g7f ponder 3c3d"), "7g7f");
  EXPECT_EQ(parse_bestmove("bestmove resign"), "resign");
  EXPECT_EQ(parse_bestmove("bestmove"), "");
  EXPECT_FALSE(parse_bestmove("info depth 1").has_value());
  EXPECT_TRUE(bestmove_is_move("P*5e"));
  EXPECT_FALSE(bestmove_is_move("resign"));
  EXPECT_FALSE(bestmove_is_move("win"));
  EXPECT_FALSE(bestmove_is_move("(none)"));
  EXPECT_FALSE(bestmove_is_move(""));
}

}  // namespace
}  // namespace manaka::engine
