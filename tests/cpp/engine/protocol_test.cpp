// The engine-to-GUI lines of USI and UCI, parsed without a process.
#include "engine/protocol.h"

#include <gtest/gtest.h>

namespace manaka::engine {
namespace {

TEST(ParseInfo, MultiPvLineWithCentipawns) {
  auto info = parse_info(
      "info depth 2 seldepth 2 multipv 3 score cp -176 nodes 301 nps 100333 tbhits 0 time 3 pv 5a6b 7i7h",
      MateUnit::Plies);
  ASSERT_TRUE(info.has_value());
  EXPECT_EQ(info->depth, 2);
  EXPECT_EQ(info->multipv, 3);
  EXPECT_EQ(info->score, (Score{Score::Kind::Cp, -176, true}));
  EXPECT_EQ(info->nodes, 301u);
  EXPECT_FALSE(info->bound);
  EXPECT_EQ(info->first_move, "5a6b");
}

TEST(ParseInfo, MateScoresKeepTheirSign) {
  auto win = parse_info("info depth 5 multipv 1 score mate 3 pv G*5b", MateUnit::Plies);
  ASSERT_TRUE(win.has_value());
  EXPECT_TRUE(win->score.is_mate());
  EXPECT_EQ(win->score.value, 3);
  auto loss = parse_info("info depth 5 score mate -2 pv 5a4b 6c5b", MateUnit::Plies);
  ASSERT_TRUE(loss.has_value());
  EXPECT_EQ(loss->score.value, -2);
  EXPECT_EQ(loss->multipv, 1) << "multipv defaults to 1";
  auto unknown = parse_info("info depth 5 score mate + pv 5a4b", MateUnit::Plies);
  ASSERT_TRUE(unknown.has_value());
  EXPECT_FALSE(unknown->score.mate_distance_known);
  EXPECT_EQ(unknown->score.to_string(), "mate +");
  EXPECT_EQ(loss->score.to_string(), "mate -2");
}

TEST(ParseInfo, BoundsAreFlagged) {
  auto info = parse_info("info depth 7 multipv 1 score cp 80 lowerbound nodes 9 pv 7g7f", MateUnit::Plies);
  ASSERT_TRUE(info.has_value());
  EXPECT_TRUE(info->bound);
  EXPECT_EQ(info->score.value, 80);
}

TEST(ParseInfo, LinesWithoutScoreOrPvAreNotCandidates) {
  EXPECT_FALSE(parse_info("info string NNUE evaluation enabled", MateUnit::Plies).has_value());
  EXPECT_FALSE(parse_info("info depth 3 currmove 7g7f currmovenumber 1", MateUnit::Plies).has_value());
  EXPECT_FALSE(parse_info("info depth 3 score cp 10", MateUnit::Plies).has_value()) << "no pv";
  EXPECT_FALSE(parse_info("info depth 3 score cp 10 pv", MateUnit::Plies).has_value()) << "empty pv";
  EXPECT_FALSE(parse_info("info depth x score cp 10 pv 7g7f", MateUnit::Plies).has_value()) << "bad number";
  EXPECT_FALSE(parse_info("info depth 3 score cp 1O pv 7g7f", MateUnit::Plies).has_value()) << "bad score";
  EXPECT_FALSE(parse_info("bestmove 7g7f", MateUnit::Plies).has_value());
  EXPECT_FALSE(parse_info("", MateUnit::Plies).has_value());
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

TEST(ParseInfo, UciMatesInMovesBecomePlies) {
  // UCI "mate N" counts moves: mate 1 is the mover's next move (1 ply),
  // mate 2 its second (3 plies); mate -3 is mated on the opponent's third
  // move (6 plies).
  auto mate1 = parse_info("info depth 5 multipv 1 score mate 1 pv a1a8", MateUnit::Moves);
  ASSERT_TRUE(mate1.has_value());
  EXPECT_EQ(mate1->score, (Score{Score::Kind::Mate, 1, true}));
  EXPECT_EQ(mate1->score.mate_moves(), 1);
  auto mate2 = parse_info("info depth 5 score mate 2 pv a1a8", MateUnit::Moves);
  ASSERT_TRUE(mate2.has_value());
  EXPECT_EQ(mate2->score.value, 3);
  EXPECT_EQ(mate2->score.mate_moves(), 2);
  auto mated3 = parse_info("info depth 9 score mate -3 pv e1e2", MateUnit::Moves);
  ASSERT_TRUE(mated3.has_value());
  EXPECT_EQ(mated3->score.value, -6);
  EXPECT_EQ(mated3->score.mate_moves(), -3);
  EXPECT_EQ(mated3->score.to_string(), "mate -6");
  // The same line from a USI engine is kept as sent (plies).
  auto usi = parse_info("info depth 9 score mate -3 pv 5a4b", MateUnit::Plies);
  ASSERT_TRUE(usi.has_value());
  EXPECT_EQ(usi->score.value, -3);
  EXPECT_EQ(usi->score.mate_moves(), -2);
  EXPECT_FALSE(parse_info("info depth 1 score mate 2000000000 pv a1a8", MateUnit::Moves).has_value())
      << "a distance whose plies overflow";
}

TEST(ParseInfo, MateMovesAndPliesRoundTrip) {
  for (int moves = -40; moves <= 40; ++moves) {
    Score s{Score::Kind::Mate, mate_plies_from_moves(moves), true};
    EXPECT_EQ(s.mate_moves(), moves) << moves;
  }
  EXPECT_EQ((Score{Score::Kind::Mate, 4, true}).mate_moves(), 2);
  EXPECT_EQ((Score{Score::Kind::Mate, -1, true}).mate_moves(), -1);
}

TEST(ParseInfo, WinDrawLossWhenReported) {
  auto info = parse_info(
      "info depth 5 seldepth 2 multipv 2 score cp 291 wdl 998 2 0 nodes 844 nps 422000 hashfull 1 tbhits 0 "
      "time 2 pv a1c1 g7g6",
      MateUnit::Moves);
  ASSERT_TRUE(info.has_value());
  ASSERT_TRUE(info->wdl.has_value());
  EXPECT_EQ(*info->wdl, (Wdl{998, 2, 0}));
  EXPECT_EQ(info->nodes, 844u);
  EXPECT_EQ(info->first_move, "a1c1");
  auto plain = parse_info("info depth 5 score cp 291 pv a1c1", MateUnit::Moves);
  ASSERT_TRUE(plain.has_value());
  EXPECT_FALSE(plain->wdl.has_value());
  EXPECT_FALSE(parse_info("info depth 5 score cp 1 wdl 998 2 pv a1c1", MateUnit::Moves).has_value())
      << "two numbers";
}

TEST(ParseBestmove, UciMovesAndNoMove) {
  EXPECT_EQ(parse_bestmove("bestmove e7e8q ponder d2d1"), "e7e8q");
  EXPECT_EQ(parse_bestmove("bestmove (none)"), "(none)");
  EXPECT_TRUE(bestmove_is_move("e1g1"));
  EXPECT_FALSE(bestmove_is_move("0000"));
  EXPECT_FALSE(bestmove_is_move("(none)"));
}

TEST(Dialect, TheTwoTablesOfWords) {
  EXPECT_EQ(dialect_of(Protocol::Usi).hello, "usi");
  EXPECT_EQ(dialect_of(Protocol::Usi).hello_ok, "usiok");
  EXPECT_EQ(dialect_of(Protocol::Usi).new_game, "usinewgame");
  EXPECT_EQ(dialect_of(Protocol::Usi).position_word, "sfen");
  EXPECT_EQ(dialect_of(Protocol::Usi).mate_unit, MateUnit::Plies);
  EXPECT_EQ(dialect_of(Protocol::Uci).hello, "uci");
  EXPECT_EQ(dialect_of(Protocol::Uci).hello_ok, "uciok");
  EXPECT_EQ(dialect_of(Protocol::Uci).new_game, "ucinewgame");
  EXPECT_EQ(dialect_of(Protocol::Uci).position_word, "fen");
  EXPECT_EQ(dialect_of(Protocol::Uci).mate_unit, MateUnit::Moves);
  EXPECT_EQ(parse_protocol("UCI"), Protocol::Uci);
  EXPECT_EQ(parse_protocol("usi"), Protocol::Usi);
  EXPECT_FALSE(parse_protocol("xboard").has_value());
}

TEST(ParseOption, StockfishsLines) {
  auto elo = parse_option("option name UCI_Elo type spin default 1350 min 1350 max 2850");
  ASSERT_TRUE(elo.has_value());
  EXPECT_EQ(elo->name, "UCI_Elo");
  EXPECT_EQ(elo->type, "spin");
  EXPECT_EQ(elo->default_value, "1350");
  EXPECT_EQ(elo->min, 1350);
  EXPECT_EQ(elo->max, 2850);

  auto log = parse_option("option name Debug Log File type string default ");
  ASSERT_TRUE(log.has_value());
  EXPECT_EQ(log->name, "Debug Log File");
  EXPECT_EQ(log->type, "string");
  EXPECT_EQ(log->default_value, "");
  auto path = parse_option("option name SyzygyPath type string default <empty>");
  ASSERT_TRUE(path.has_value());
  EXPECT_EQ(path->default_value, "<empty>");

  auto button = parse_option("option name Clear Hash type button");
  ASSERT_TRUE(button.has_value());
  EXPECT_EQ(button->name, "Clear Hash");
  EXPECT_EQ(button->type, "button");
  EXPECT_FALSE(button->min.has_value());

  auto combo = parse_option("option name Analysis Contempt type combo default Both var Both var Off var White");
  ASSERT_TRUE(combo.has_value());
  EXPECT_EQ(combo->default_value, "Both");
  EXPECT_EQ(combo->vars, (std::vector<std::string>{"Both", "Off", "White"}));

  auto contempt = parse_option("option name Contempt type spin default 24 min -100 max 100");
  ASSERT_TRUE(contempt.has_value());
  EXPECT_EQ(contempt->min, -100);
}

TEST(ParseOption, MalformedLines) {
  EXPECT_FALSE(parse_option("option name type spin").has_value()) << "no name";
  EXPECT_FALSE(parse_option("option name Hash").has_value()) << "no type";
  EXPECT_FALSE(parse_option("option name Hash type").has_value()) << "empty type";
  EXPECT_FALSE(parse_option("option name Hash type spin min x max 9").has_value()) << "bad min";
  EXPECT_FALSE(parse_option("id name Stockfish 15.1").has_value());
}

TEST(CheckOptionValue, RangesChecksAndChoices) {
  auto elo = *parse_option("option name UCI_Elo type spin default 1350 min 1350 max 2850");
  EXPECT_TRUE(check_option_value(elo, "1500").ok());
  EXPECT_TRUE(check_option_value(elo, "1350").ok());
  EXPECT_TRUE(check_option_value(elo, "2850").ok());
  Status low = check_option_value(elo, "100");
  ASSERT_FALSE(low.ok());
  EXPECT_EQ(low.kind(), ErrorKind::Invalid);
  EXPECT_EQ(low.message(), "UCI_Elo 100 is out of range 1350..2850");
  EXPECT_EQ(check_option_value(elo, "strong").message(), "UCI_Elo strong is not an integer (a spin option)");

  auto ponder = *parse_option("option name Ponder type check default false");
  EXPECT_TRUE(check_option_value(ponder, "true").ok());
  EXPECT_EQ(check_option_value(ponder, "yes").message(), "Ponder yes is neither true nor false (a check option)");

  auto combo = *parse_option("option name Analysis Contempt type combo default Both var Both var Off");
  EXPECT_TRUE(check_option_value(combo, "off").ok());
  EXPECT_EQ(check_option_value(combo, "On").message(), "Analysis Contempt On is not one of its choices (Both, Off)");

  auto file = *parse_option("option name EvalFile type string default nn-ad9b42354671.nnue");
  EXPECT_TRUE(check_option_value(file, "any text at all").ok());
}

TEST(FindOption, IgnoresCase) {
  std::vector<EngineOption> options{*parse_option("option name UCI_Elo type spin default 1350 min 1350 max 2850"),
                                    *parse_option("option name Move Overhead type spin default 10 min 0 max 5000")};
  ASSERT_NE(find_option(options, "uci_elo"), nullptr);
  EXPECT_EQ(find_option(options, "move overhead")->name, "Move Overhead");
  EXPECT_EQ(find_option(options, "Hash"), nullptr);
}

}  // namespace
}  // namespace manaka::engine
