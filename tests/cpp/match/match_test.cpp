// The match runner against the real Stockfish (movetime 20 ms) with scripted
// players, its score arithmetic, and the PGN text of a game.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "../engine/engine_fixture.h"
#include "chess/movegen.h"
#include "chess/pgn_text.h"
#include "match/match.h"
#include "match/score.h"

namespace manaka::match {
namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// The scripted player: the first legal move in generation order.
Result<chess::Move> first_legal(const chess::Game& game) {
  chess::MoveList list;
  chess::generate_legal(game.position(), list);
  return list[0];
}

MatchOptions quick(int games) {
  MatchOptions o;
  o.engine_path = manaka::testing::kStockfish;
  o.limit = {.movetime_ms = 20};
  o.games = games;
  o.seed = 7;
  return o;
}

#define REQUIRE_STOCKFISH() \
  ASSERT_TRUE(manaka::testing::have_stockfish()) << "stockfish is not installed (make setup installs it)"

TEST(Match, APairSharesItsOpeningWithColoursSwappedAndEndsByTheRules) {
  REQUIRE_STOCKFISH();
  std::vector<std::string> pgns;
  auto report = play_match(quick(2), first_legal, [&](const MatchGame&, const std::string& pgn) {
    pgns.push_back(pgn);
    return Status();
  });
  ASSERT_TRUE(report.ok()) << report.status().message();
  ASSERT_EQ(report->games.size(), 2u);
  ASSERT_EQ(pgns.size(), 2u);
  const MatchGame& a = report->games[0];
  const MatchGame& b = report->games[1];
  EXPECT_EQ(a.player, chess::WHITE);
  EXPECT_EQ(b.player, chess::BLACK);
  ASSERT_EQ(a.opening_plies, 4);
  ASSERT_EQ(b.opening_plies, 4);
  EXPECT_TRUE(std::equal(a.moves.begin(), a.moves.begin() + 4, b.moves.begin()));
  for (const MatchGame* g : {&a, &b}) {
    // Replayed: no position before the last has an outcome, the last has
    // the game's.
    chess::Game replay(g->start);
    for (chess::Move m : g->moves) {
      ASSERT_FALSE(replay.outcome(true).has_value());
      ASSERT_TRUE(replay.position().is_legal(m)) << m.to_uci();
      replay.push(m);
    }
    auto outcome = replay.outcome(true);
    ASSERT_TRUE(outcome.has_value());
    EXPECT_EQ(*outcome, g->outcome);
  }
  EXPECT_TRUE(contains(pgns[0], "[White \"manaka\"]")) << pgns[0];
  EXPECT_TRUE(contains(pgns[1], "[Black \"manaka\"]")) << pgns[1];
  EXPECT_TRUE(contains(pgns[0], "[Opening \"random, 4 plies\"]")) << pgns[0];
  EXPECT_TRUE(contains(pgns[0], "{ random opening ends }")) << pgns[0];
}

TEST(Match, AnIllegalMoveFromThePlayerIsRefusedNamingIt) {
  REQUIRE_STOCKFISH();
  MatchOptions o = quick(1);
  o.opening_plies = 0;
  Player bad = [](const chess::Game&) -> Result<chess::Move> { return *chess::Move::parse_uci("e2e5"); };
  auto report = play_match(o, bad, nullptr);
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.status().kind(), ErrorKind::Invalid);
  EXPECT_EQ(report.status().message(),
            "game 1, ply 1: the player's move e2e5 is illegal in "
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
}

TEST(Match, ThePlayersErrorEndsTheMatchWithItsPlace) {
  REQUIRE_STOCKFISH();
  Player failing = [](const chess::Game&) -> Result<chess::Move> { return Status::usage("no network"); };
  auto report = play_match(quick(1), failing, nullptr);
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.status().message(), "game 1, ply 5: no network");
}

// The last legal move in generation order: a second scripted player.
Result<chess::Move> last_legal(const chess::Game& game) {
  chess::MoveList list;
  chess::generate_legal(game.position(), list);
  return list[list.size - 1];
}

TEST(HeadToHead, TwoPlayersGetThePairsOpeningsAndRulesOfTheEngineMatch) {
  MatchOptions o;
  o.games = 4;
  o.seed = 7;
  o.engine_path = "";  // no engine is looked at
  std::vector<std::string> pgns;
  Opponent other{last_legal, nullptr, "manaka B.pt"};
  auto report = play_head_to_head(o, first_legal, other, [&](const MatchGame&, const std::string& pgn) {
    pgns.push_back(pgn);
    return Status();
  });
  ASSERT_TRUE(report.ok()) << report.status().message();
  ASSERT_EQ(report->games.size(), 4u);
  EXPECT_EQ(report->engine_name, "manaka B.pt");
  for (const MatchGame& g : report->games) {
    EXPECT_EQ(g.player, g.index % 2 == 0 ? chess::WHITE : chess::BLACK);
    // Each side's moves are its own script's, after the opening.
    chess::Game replay(g.start);
    for (size_t i = 0; i < g.moves.size(); ++i) {
      if (int(i) >= g.opening_plies) {
        const bool mine = replay.position().side_to_move() == g.player;
        EXPECT_EQ(g.moves[i], *(mine ? first_legal : last_legal)(replay)) << "game " << g.index << " ply " << i;
      }
      replay.push(g.moves[i]);
    }
    EXPECT_EQ(*replay.outcome(true), g.outcome);
  }
  // The same openings as the engine match with this seed: pair p's.
  EXPECT_TRUE(std::equal(report->games[0].moves.begin(), report->games[0].moves.begin() + 4,
                         report->games[1].moves.begin()));
  EXPECT_FALSE(std::equal(report->games[0].moves.begin(), report->games[0].moves.begin() + 4,
                          report->games[2].moves.begin()));
  EXPECT_TRUE(contains(pgns[0], "[White \"manaka\"]") && contains(pgns[0], "[Black \"manaka B.pt\"]")) << pgns[0];
  EXPECT_TRUE(contains(pgns[1], "[White \"manaka B.pt\"]") && contains(pgns[1], "[Black \"manaka\"]")) << pgns[1];
}

TEST(HeadToHead, AnIllegalMoveOfTheOpponentIsRefusedNamingIt) {
  MatchOptions o;
  o.games = 2;
  o.opening_plies = 0;
  Opponent bad{[](const chess::Game&) -> Result<chess::Move> { return *chess::Move::parse_uci("e7e4"); }, nullptr,
               "B"};
  auto report = play_head_to_head(o, first_legal, bad, nullptr);
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.status().kind(), ErrorKind::Invalid);
  EXPECT_TRUE(contains(report.status().message(), "game 1, ply 2: the opponent's move e7e4 is illegal in "))
      << report.status().message();
  o.games = 0;
  EXPECT_EQ(play_head_to_head(o, first_legal, bad, nullptr).status().kind(), ErrorKind::Usage);
}

TEST(Match, OptionsOutOfRangeAreRefusedNamingTheRange) {
  MatchOptions o = quick(2);
  o.elo = 1000;
  Status st = check_options(o);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(), "elo: 1000 is out of range 1350..2850");
  o.elo = 1500;
  o.games = 0;
  EXPECT_EQ(check_options(o).message(), "games: 0 is out of range 1..1000000");
  o.games = 2;
  o.limit = {};
  EXPECT_FALSE(check_options(o).ok());
}

TEST(MatchScore, KnownValues) {
  MatchScore even = score_match(3, 4, 3);
  EXPECT_DOUBLE_EQ(even.score, 0.5);
  EXPECT_NEAR(even.elo, 0.0, 1e-12);
  EXPECT_NEAR(even.elo_low, -even.elo_high, 1e-9);
  EXPECT_FALSE(even.passed);  // win rate 0.3

  MatchScore three_quarters = score_match(75, 0, 25);
  EXPECT_NEAR(three_quarters.elo, 190.848501887865, 1e-9);
  // Wilson's interval of 75 / 100: 0.6570 .. 0.8245, as published tables give it.
  EXPECT_NEAR(three_quarters.score_low, 0.656955, 1e-6);
  EXPECT_NEAR(three_quarters.score_high, 0.824548, 1e-6);
  EXPECT_NEAR(three_quarters.elo_low, elo_of_score(three_quarters.score_low), 1e-9);
  EXPECT_TRUE(three_quarters.passed);
  EXPECT_DOUBLE_EQ(three_quarters.win_rate, 0.75);

  MatchScore all = score_match(4, 0, 0);
  EXPECT_TRUE(std::isinf(all.elo) && all.elo > 0);
  // Every game won: the interval still has width (1 .. 1 would claim certainty).
  EXPECT_NEAR(all.score_low, 0.510109, 1e-6);
  EXPECT_EQ(all.score_high, 1.0);
  EXPECT_TRUE(std::isinf(all.elo_high));
  MatchScore none = score_match(0, 0, 2);  // the 0 of 2: 0 .. 0.658, not 0 .. 0
  EXPECT_EQ(none.score_low, 0.0);
  EXPECT_NEAR(none.score_high, 0.657620, 1e-6);
  EXPECT_TRUE(std::isfinite(none.elo_high));
  EXPECT_TRUE(score_match(50, 0, 50).passed);  // exactly 0.50 passes
}

TEST(PgnText, MovesCommentsAndASetUpStart) {
  auto start = chess::Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 7");
  ASSERT_TRUE(start.ok());
  std::vector<chess::Move> moves = {*chess::Move::parse_uci("e8d7"), *chess::Move::parse_uci("e2e4"),
                                    *chess::Move::parse_uci("d7d6")};
  std::string text = chess::game_pgn(*start, moves, {{"Event", "a \"quoted\" name"}, {"Result", "*"}}, "*",
                                     {{1, "first"}, {2, "then }"}});
  EXPECT_EQ(text,
            "[Event \"a \\\"quoted\\\" name\"]\n[Result \"*\"]\n[SetUp \"1\"]\n"
            "[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 7\"]\n\n"
            "7... Kd7 { first } 8. e4 { then ) } 8... Kd6 *\n\n");
}

}  // namespace
}  // namespace manaka::match
