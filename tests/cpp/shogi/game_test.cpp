// shogi::Game: push/pop, repetition counts, the outcome rules on constructed
// positions, and copies that share nothing with the original. (The random
// games against cshogi are in tests/python/test_shogi_encode.py.)
#include "shogi/game.h"

#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "shogi/movegen.h"

namespace manaka::shogi {
namespace {

Position position(const std::string& sfen) {
  auto pos = Position::from_sfen(sfen);
  EXPECT_TRUE(pos.ok()) << pos.status().message();
  return pos.ok() ? *pos : Position::startpos();
}

void play(Game& game, const std::string& usi) {
  auto m = Move::parse_usi(usi);
  ASSERT_TRUE(m.ok() && game.position().is_legal(*m)) << usi << " in " << game.position().sfen();
  game.push(*m);
}

// Plays `plies` random legal moves (fewer if the game ends).
void random_moves(Game& game, int plies, std::mt19937_64& rng) {
  for (int i = 0; i < plies; ++i) {
    MoveList list;
    generate_legal(game.position(), list);
    if (list.empty()) return;
    game.push(list[int(rng() % uint64_t(list.size))]);
  }
}

TEST(Game, PushAndPopRestoreThePosition) {
  Game game;
  std::mt19937_64 rng(7);
  std::vector<std::string> sfens = {game.position().sfen()};
  std::vector<uint64_t> keys = {game.position().key()};
  for (int i = 0; i < 120; ++i) {
    MoveList list;
    generate_legal(game.position(), list);
    if (list.empty()) break;
    game.push(list[int(rng() % uint64_t(list.size))]);
    sfens.push_back(game.position().sfen());
    keys.push_back(game.position().key());
  }
  ASSERT_EQ(game.ply() + 1, int(sfens.size()));
  while (game.ply() > 0) {
    const Move last = game.moves().back();
    EXPECT_EQ(game.pop(), last);
    EXPECT_EQ(game.position().sfen(), sfens[size_t(game.ply())]);
    EXPECT_EQ(game.position().key(), keys[size_t(game.ply())]);
  }
}

TEST(Game, ACopyIsIndependent) {
  std::mt19937_64 rng(11);
  auto original = std::make_unique<Game>();
  random_moves(*original, 40, rng);
  ASSERT_EQ(original->ply(), 40);
  Game copy(*original);
  Game assigned;
  assigned = *original;
  EXPECT_EQ(copy.position().key(), original->position().key());
  EXPECT_EQ(copy.moves(), original->moves());

  // Diverge: the original pops 10 and plays others, the copy pops 5.
  std::vector<uint64_t> copy_keys;
  for (int i = 0; i < 10; ++i) original->pop();
  random_moves(*original, 20, rng);
  for (int i = 0; i < 5; ++i) copy.pop();
  EXPECT_EQ(copy.ply(), 35);
  EXPECT_NE(copy.position().key(), original->position().key());
  // The copies still hold the first game; check by replaying it.
  Game replay;
  for (int i = 0; i < 35; ++i) replay.push(assigned.moves()[size_t(i)]);
  EXPECT_EQ(copy.position().key(), replay.position().key());
  EXPECT_EQ(copy.position().sfen(), replay.position().sfen());

  // The copy unwinds to the start on its own, the original gone.
  original.reset();
  while (copy.ply() > 0) {
    copy.pop();
    replay.pop();
    EXPECT_EQ(copy.position().key(), replay.position().key());
    EXPECT_EQ(copy.position().sfen(), replay.position().sfen());
  }
  EXPECT_EQ(copy.position().key(), Position::startpos().key());
  while (assigned.ply() > 0) assigned.pop();
  EXPECT_EQ(assigned.position().sfen(), Position::startpos().sfen());
}

TEST(Game, ACopyOfAGameFromAnotherStart) {
  const Position start = position("4k4/9/9/9/9/9/9/9/4K4 w G 1");
  Game game(start);
  play(game, "5a5b");
  play(game, "G*5h");
  Game copy(game);
  EXPECT_EQ(copy.start().sfen(), start.sfen());
  copy.pop();
  copy.pop();
  EXPECT_EQ(copy.position().sfen(), start.sfen());
  EXPECT_EQ(game.ply(), 2);
  EXPECT_EQ(game.position().hand_count(BLACK, H_GOLD), 0);
}

TEST(Game, RepetitionCountsEveryOccurrenceSinceTheStart) {
  Game game;
  const char* cycle[] = {"5i5h", "5a5b", "5h5i", "5b5a"};
  EXPECT_FALSE(game.is_repetition(2));
  EXPECT_TRUE(game.is_repetition(1));
  for (int ply = 0; ply < 12; ++ply) {
    play(game, cycle[ply % 4]);
    const int occurrences = game.ply() % 4 == 0 ? game.ply() / 4 + 1 : (game.ply() - 1) / 4 + 1;
    EXPECT_TRUE(game.is_repetition(occurrences)) << game.ply();
    EXPECT_FALSE(game.is_repetition(occurrences + 1)) << game.ply();
  }
}

// A cycle of king steps from the initial position: the fourth occurrence of
// the start, at ply 12, is a draw; nothing ends the game before.
TEST(Game, FourfoldRepetitionIsADraw) {
  Game game;
  const char* cycle[] = {"5i5h", "5a5b", "5h5i", "5b5a"};
  for (int ply = 0; ply < 12; ++ply) {
    EXPECT_EQ(game.outcome(), std::nullopt) << ply;
    EXPECT_EQ(game.repetition(), Repetition::None) << ply;
    play(game, cycle[ply % 4]);
  }
  EXPECT_EQ(game.repetition(), Repetition::Draw);
  EXPECT_EQ(game.outcome(), (Outcome{Termination::Repetition, std::nullopt}));
  // Popping back undoes the verdict.
  game.pop();
  EXPECT_EQ(game.outcome(), std::nullopt);
}

// Black's rook checks the king between 1a and 2a: position 1 (the first
// check) comes back every four plies, its fourth occurrence at ply 13, and
// Black gave check with every move since the first: Black loses.
TEST(Game, PerpetualCheckLosesForTheChecker) {
  Game game(position("8k/9/9/9/4R4/9/9/9/K8 b - 1"));
  play(game, "5e1e");
  const char* cycle[] = {"1a2a", "1e2e", "2a1a", "2e1e"};
  for (int ply = 1; ply < 13; ++ply) {
    EXPECT_EQ(game.outcome(), std::nullopt) << ply;
    play(game, cycle[(ply - 1) % 4]);
  }
  EXPECT_EQ(game.repetition(), Repetition::BlackChecked);
  EXPECT_EQ(game.outcome(), (Outcome{Termination::PerpetualCheck, WHITE}));
  EXPECT_STREQ(termination_name(game.outcome()->termination), "perpetual_check");
}

// A cycle where every other rook move is quiet (1e3e does not check the
// king on 2a): a plain draw.
TEST(Game, ACycleWithOneQuietMoveIsADraw) {
  Game quiet(position("8k/9/9/9/4R4/9/9/9/K8 b - 1"));
  const char* quiet_moves[] = {"5e1e", "1a2a", "1e3e", "2a1a", "3e1e", "1a2a", "1e3e", "2a1a", "3e1e",
                               "1a2a", "1e3e", "2a1a", "3e1e"};
  for (const char* m : quiet_moves) play(quiet, m);
  EXPECT_EQ(quiet.outcome(), (Outcome{Termination::Repetition, std::nullopt}));
}

TEST(Game, NoLegalMoveLosesForTheSideToMove) {
  // White's king on 5a, a gold on 5b held by the pawn on 5c: mate.
  Game mated(position("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1"));
  EXPECT_EQ(mated.outcome(), (Outcome{Termination::NoLegalMove, BLACK}));
  // The same reached by a drop from the position before.
  Game game(position("4k4/9/4P4/9/9/9/9/9/4K4 b G 1"));
  EXPECT_EQ(game.outcome(), std::nullopt);
  play(game, "G*5b");
  EXPECT_EQ(game.outcome(), (Outcome{Termination::NoLegalMove, BLACK}));
}

TEST(Game, ThePlyLimitIsADrawOnlyWhenSet) {
  Game game;
  play(game, "7g7f");
  play(game, "3c3d");
  EXPECT_EQ(game.outcome(), std::nullopt);
  EXPECT_EQ(game.outcome(3), std::nullopt);
  EXPECT_EQ(game.outcome(2), (Outcome{Termination::PlyLimit, std::nullopt}));
  EXPECT_EQ(game.outcome(1), (Outcome{Termination::PlyLimit, std::nullopt}));
  // Mate takes precedence over the limit.
  Game mated(position("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1"));
  EXPECT_EQ(mated.outcome(1), (Outcome{Termination::NoLegalMove, BLACK}));
}

}  // namespace
}  // namespace manaka::shogi
