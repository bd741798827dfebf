// A self-play game's SAZ2 result and termination (selfplay/shogi_selfplay.h,
// saz_ending). The perpetual checks below were checked against rsshogi
// 1.7.0's repetition_state() and cshogi's is_draw(): REPETITION_LOSE for the
// side to move in the first (the checker moves last), REPETITION_WIN in the
// second (the checked side moves last).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "selfplay/shogi_selfplay.h"
#include "shogi/game.h"

namespace manaka::selfplay {
namespace {

using sazpack::GameResult;
using sazpack::TerminationReason;

// Black's rook checks from 2a/1a, White's king steps 1b/2b: the 12th move
// makes the fourth occurrence.
constexpr const char* kStart = "lr2+R2G1/6g1k/p3ppppp/2p1b4/9/2P+b4P/P+p3PPP1/4G1SK1/LN3+p1NL b 2SNLgsn3p 1";

shogi::Game play(const std::vector<std::string>& moves, int times) {
  auto start = shogi::Position::from_sfen(kStart);
  EXPECT_TRUE(start.ok());
  shogi::Game g(*start);
  for (int t = 0; t < times; ++t) {
    for (const std::string& usi : moves) {
      EXPECT_FALSE(g.outcome()) << usi;
      auto m = shogi::Move::parse_usi(usi);
      EXPECT_TRUE(m.ok() && g.position().is_legal(*m)) << usi;
      g.push(*m);
    }
  }
  return g;
}

TEST(SazEnding, PerpetualCheckIsNamedFromTheSideToMoveAtTheEnd) {
  // The cycle begins with the checker to move: it moves last, and loses.
  shogi::Game a = play({"2a1a", "1b2b", "1a2a", "2b1b"}, 3);
  ASSERT_EQ(a.outcome(), (shogi::Outcome{shogi::Termination::PerpetualCheck, shogi::WHITE}));
  ASSERT_EQ(a.position().side_to_move(), shogi::BLACK);
  const SazEnding loss = saz_ending(a.outcome(), a.position().side_to_move());
  EXPECT_EQ(loss.result, GameResult::WhiteWin);
  EXPECT_EQ(loss.reason, TerminationReason::PerpetualCheckLoss);

  // One check earlier, the cycle begins with the checked side to move: it moves last, and wins.
  shogi::Game b = play({"2a1a"}, 1);
  for (int t = 0; t < 3; ++t) {
    for (const char* usi : {"1b2b", "1a2a", "2b1b", "2a1a"}) b.push(*shogi::Move::parse_usi(usi));
  }
  ASSERT_EQ(b.outcome(), (shogi::Outcome{shogi::Termination::PerpetualCheck, shogi::WHITE}));
  ASSERT_EQ(b.position().side_to_move(), shogi::WHITE);
  const SazEnding win = saz_ending(b.outcome(), b.position().side_to_move());
  EXPECT_EQ(win.result, GameResult::WhiteWin);
  EXPECT_EQ(win.reason, TerminationReason::PerpetualCheckWin);
}

TEST(SazEnding, MatesDrawsAndThePlyLimit) {
  const auto black_mates = shogi::Outcome{shogi::Termination::NoLegalMove, shogi::BLACK};
  EXPECT_EQ(saz_ending(black_mates, shogi::WHITE).result, GameResult::BlackWin);
  EXPECT_EQ(saz_ending(black_mates, shogi::WHITE).reason, TerminationReason::NoLegalMoves);
  const auto white_mates = shogi::Outcome{shogi::Termination::NoLegalMove, shogi::WHITE};
  EXPECT_EQ(saz_ending(white_mates, shogi::BLACK).result, GameResult::WhiteWin);
  const auto fourfold = shogi::Outcome{shogi::Termination::Repetition, std::nullopt};
  EXPECT_EQ(saz_ending(fourfold, shogi::BLACK).result, GameResult::DrawByRepetition);
  EXPECT_EQ(saz_ending(fourfold, shogi::BLACK).reason, TerminationReason::RepetitionDraw);
  EXPECT_EQ(saz_ending(std::nullopt, shogi::BLACK).result, GameResult::DrawByMaxPlies);
  EXPECT_EQ(saz_ending(std::nullopt, shogi::BLACK).reason, TerminationReason::MaxGamePlies);
}

}  // namespace
}  // namespace manaka::selfplay
