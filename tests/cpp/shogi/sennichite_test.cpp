// Sennichite (shogi/sennichite.h) over key and check sequences, and over a
// real game of shuffled kings.
#include "shogi/sennichite.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <vector>

#include "shogi/move.h"
#include "shogi/position.h"

namespace manaka::shogi {
namespace {

// Repetition: keys of positions 0..n; a cycle of four plies back to the start.
TEST(Sennichite, TheFourthOccurrenceIsADraw) {
  std::vector<uint64_t> keys;
  std::vector<uint8_t> checks;
  for (int i = 0; i <= 12; ++i) {
    keys.push_back(uint64_t(i % 4) + 100);
    checks.push_back(0);
    Repetition r = check_repetition(keys, checks, BLACK);
    EXPECT_EQ(r, i == 12 ? Repetition::Draw : Repetition::None) << i;
  }
}

TEST(Sennichite, PerpetualCheckLosesForTheChecker) {
  // Move i leads to position i; moves 1, 3, 5, ... are Black's (Black moves
  // first). Black checks with every move: positions 1, 3, 5, ... in check.
  std::vector<uint64_t> keys;
  std::vector<uint8_t> checks;
  for (int i = 0; i <= 12; ++i) {
    keys.push_back(uint64_t(i % 4));
    checks.push_back(i % 2 == 1);
  }
  EXPECT_EQ(check_repetition(keys, checks, BLACK), Repetition::BlackChecked);
  for (int i = 0; i <= 12; ++i) checks[size_t(i)] = i % 2 == 0 && i > 0;
  EXPECT_EQ(check_repetition(keys, checks, BLACK), Repetition::WhiteChecked);
  // One of Black's moves without check in the span: a plain draw.
  for (int i = 0; i <= 12; ++i) checks[size_t(i)] = i % 2 == 1 && i != 7;
  EXPECT_EQ(check_repetition(keys, checks, BLACK), Repetition::Draw);
  // Checks before the first occurrence do not matter; the span does.
  keys.insert(keys.begin(), {900, 901});
  checks.insert(checks.begin(), {0, 0});
  for (size_t i = 2; i < checks.size(); ++i) checks[i] = (i - 2) % 2 == 1;
  EXPECT_EQ(check_repetition(keys, checks, BLACK), Repetition::BlackChecked);
}

TEST(Sennichite, AGameOfShuffledKingsEndsInARepetitionDraw) {
  // Real moves through the rule: king steps repeated from the initial position.
  auto pos = Position::startpos();
  std::deque<StateInfo> states;
  std::vector<uint64_t> keys = {pos.key()};
  std::vector<uint8_t> checks = {0};
  const char* cycle[] = {"5i5h", "5a5b", "5h5i", "5b5a"};
  int ended_at = -1;
  for (int ply = 0; ply < 16 && ended_at < 0; ++ply) {
    states.emplace_back();
    pos.do_move(Move::parse_usi(cycle[ply % 4]).value(), states.back());
    keys.push_back(pos.key());
    checks.push_back(pos.in_check());
    if (check_repetition(keys, checks, BLACK) != Repetition::None) ended_at = ply + 1;
  }
  EXPECT_EQ(ended_at, 12);
}

}  // namespace
}  // namespace manaka::shogi
