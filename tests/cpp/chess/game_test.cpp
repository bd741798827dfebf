#include "chess/game.h"

#include <gtest/gtest.h>

#include <optional>

#include "position_of.h"

namespace manaka::chess {
namespace {

Game game_after(const char* fen, std::initializer_list<const char*> ucis) {
  Game game(position(fen));
  for (const char* uci : ucis) {
    auto m = Move::parse_uci(uci);
    EXPECT_TRUE(m.ok() && game.position().is_legal(*m)) << uci << " in " << game.position().fen();
    if (!m.ok() || !game.position().is_legal(*m)) break;
    game.push(*m);
  }
  return game;
}

std::optional<Outcome> outcome_of(const char* fen, bool claim_draw = false) {
  return Game(position(fen)).outcome(claim_draw);
}

constexpr Outcome draw(Termination t) { return Outcome{t, std::nullopt}; }

// The knights' shuffle: Nf3 Nf6 Ng1 Ng8 brings the start position back.
constexpr const char* SHUFFLE[] = {"g1f3", "g8f6", "f3g1", "f6g8"};

Game shuffled(int plies) {
  Game game;
  for (int i = 0; i < plies; ++i) game.push(*Move::parse_uci(SHUFFLE[i % 4]));
  return game;
}

TEST(Game, PushPop) {
  Game game = game_after("startpos", {"e2e4", "e7e5", "g1f3"});
  EXPECT_EQ(game.ply(), 3);
  EXPECT_EQ(game.pop().to_uci(), "g1f3");
  EXPECT_EQ(game.position().fen(), "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
  EXPECT_EQ(game.moves().size(), 2u);
  EXPECT_EQ(game.start().fen(), Position::startpos().fen());
}

TEST(Game, Threefold) {
  // After 7 plies the start position has occurred twice; Ng8 would make it
  // three times, so Black may claim already.
  Game seven = shuffled(7);
  EXPECT_FALSE(seven.is_repetition(3));
  EXPECT_TRUE(seven.can_claim_threefold_repetition());
  EXPECT_EQ(seven.outcome(true), draw(Termination::THREEFOLD_REPETITION));
  EXPECT_EQ(seven.outcome(false), std::nullopt);
  // After 6 plies no move repeats a position a third time.
  Game six = shuffled(6);
  EXPECT_FALSE(six.can_claim_threefold_repetition());
  EXPECT_EQ(six.outcome(true), std::nullopt);
  EXPECT_TRUE(six.is_repetition(2));

  Game eight = shuffled(8);
  EXPECT_TRUE(eight.is_repetition(3));
  EXPECT_FALSE(eight.is_repetition(4));
  EXPECT_EQ(eight.outcome(true), draw(Termination::THREEFOLD_REPETITION));
  EXPECT_EQ(eight.outcome(false), std::nullopt);
  eight.pop();
  EXPECT_FALSE(eight.is_repetition(3));
}

TEST(Game, Fivefold) {
  Game game = shuffled(15);
  EXPECT_EQ(game.outcome(false), std::nullopt);
  game.push(*Move::parse_uci("f6g8"));
  EXPECT_TRUE(game.is_fivefold_repetition());
  EXPECT_EQ(game.outcome(false), draw(Termination::FIVEFOLD_REPETITION));
  EXPECT_EQ(game.outcome(true), draw(Termination::FIVEFOLD_REPETITION));
}

// A capture or pawn move ends the stretch positions are compared over.
TEST(Game, IrreversibleMoveResetsRepetition) {
  Game game = game_after("startpos", {"g1f3", "g8f6", "f3g1", "f6g8", "e2e3", "e7e6", "g1f3", "g8f6", "f3g1",
                                      "f6g8"});
  EXPECT_TRUE(game.is_repetition(2));
  EXPECT_FALSE(game.is_repetition(3));
}

// python-chess's key drops an en-passant square no pawn can use; a position
// after a double push that allows no capture equals the same board reached
// otherwise.
TEST(Game, RepetitionIgnoresUnusableEnPassant) {
  // e2e4 e7e5 (no captures possible), then shuffles: the position after
  // e7e5 (ep e6 unusable) returns.
  Game game = game_after("startpos", {"e2e4", "e7e5", "g1f3", "g8f6", "f3g1", "f6g8"});
  EXPECT_TRUE(game.is_repetition(2));
  // A usable square: after d7d5 White could take en passant, so the
  // position after d7d5 never returns, though the board does.
  Game ep = game_after("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", {"d7d5", "e1d1", "e8d8", "d1e1", "d8e8"});
  EXPECT_FALSE(ep.is_repetition(2));
  ep = game_after("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", {"d7d5", "e1d1", "e8d8", "d1e1", "d8e8", "e1d1", "e8d8",
                                                        "d1e1", "d8e8"});
  EXPECT_TRUE(ep.is_repetition(2));
  EXPECT_FALSE(ep.is_repetition(3));
}

TEST(Game, FiftyMoves) {
  // Clock at 99: a king move brings it to 100, so White may claim.
  const char* fen99 = "4k3/8/8/8/8/8/4P3/4K3 w - - 99 80";
  Game game(position(fen99));
  EXPECT_FALSE(game.is_fifty_moves());
  EXPECT_TRUE(game.can_claim_fifty_moves());
  EXPECT_EQ(game.outcome(true), draw(Termination::FIFTY_MOVES));
  EXPECT_EQ(game.outcome(false), std::nullopt);
  // Only pawn moves at 99 do not count (the black king has no move).
  EXPECT_FALSE(Game(position("k7/2K4p/1P6/8/8/8/8/8 b - - 99 80")).can_claim_fifty_moves());
  EXPECT_EQ(outcome_of("k7/2K4p/1P6/8/8/8/8/8 b - - 99 80", true), std::nullopt);
  EXPECT_EQ(outcome_of("4k3/8/8/8/8/8/4P3/4K3 w - - 98 80", true), std::nullopt);
  EXPECT_EQ(outcome_of("4k3/8/8/8/8/8/4P3/4K3 w - - 100 80", true), draw(Termination::FIFTY_MOVES));
  EXPECT_EQ(outcome_of("4k3/8/8/8/8/8/4P3/4K3 w - - 100 80", false), std::nullopt);
  // The fifty-move claim comes before threefold repetition.
  Game both(position("4k3/8/8/8/8/8/4P3/4K3 w - - 91 80"));
  for (int i = 0; i < 2; ++i)
    for (const char* uci : {"e1d1", "e8d8", "d1e1", "d8e8"}) both.push(*Move::parse_uci(uci));
  both.push(*Move::parse_uci("e1d1"));  // clock 100, and the third time of the position after e1d1
  EXPECT_TRUE(both.is_repetition(3));
  EXPECT_TRUE(both.is_fifty_moves());
  EXPECT_EQ(both.outcome(true), draw(Termination::FIFTY_MOVES));
}

TEST(Game, SeventyFiveMoves) {
  EXPECT_EQ(outcome_of("4k3/8/8/8/8/8/4P3/4K3 w - - 150 80"), draw(Termination::SEVENTYFIVE_MOVES));
  EXPECT_EQ(outcome_of("4k3/8/8/8/8/8/4P3/4K3 w - - 149 80"), std::nullopt);
  // Mate takes precedence.
  EXPECT_EQ(outcome_of("R5k1/5ppp/8/8/8/8/8/6K1 b - - 150 80"), (Outcome{Termination::CHECKMATE, WHITE}));
}

TEST(Game, CheckmateAndStalemate) {
  Game fools = game_after("startpos", {"f2f3", "e7e5", "g2g4", "d8h4"});
  EXPECT_EQ(fools.outcome(false), (Outcome{Termination::CHECKMATE, BLACK}));
  EXPECT_STREQ(fools.outcome(false)->result(), "0-1");
  EXPECT_EQ(outcome_of("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), draw(Termination::STALEMATE));
  // Insufficient material is tried before stalemate (K+B v K, stalemated).
  EXPECT_EQ(outcome_of("7k/5K2/6B1/8/8/8/8/8 b - - 0 1"), draw(Termination::INSUFFICIENT_MATERIAL));
  EXPECT_EQ(outcome_of("startpos", true), std::nullopt);
}

TEST(Game, InsufficientMaterial) {
  struct Case {
    const char* fen;
    bool white, black;
  };
  const Case cases[] = {
      {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", true, true},
      {"4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", true, true},
      {"4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", true, true},
      {"1b2k3/8/8/8/8/8/8/2B1K3 w - - 0 1", true, true},      // b8 and c1: both dark
      {"2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", false, false},    // c8 light, c1 dark
      {"4k3/8/8/8/8/8/8/B1B1K3 w - - 0 1", true, true},       // two bishops on dark squares
      {"4k3/8/8/8/8/8/8/BB2K3 w - - 0 1", false, true},       // a dark and a light bishop
      {"1n2k3/8/8/8/8/8/8/2B1K3 w - - 0 1", false, false},    // a knight, a bishop: selfmate possible
      {"1n2k3/8/8/8/8/8/8/1N2K3 w - - 0 1", false, false},
      {"3qk3/8/8/8/8/8/8/1N2K3 w - - 0 1", true, false},      // a queen allows no selfmate
      {"3rk3/8/8/8/8/8/8/1N2K3 w - - 0 1", false, false},
      {"4k3/8/8/8/8/8/8/NN2K3 w - - 0 1", false, true},
      {"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false, true},
      {"4k3/4p3/8/8/8/8/8/2B1K3 w - - 0 1", false, false},
  };
  for (const Case& c : cases) {
    Position pos = position(c.fen);
    EXPECT_EQ(has_insufficient_material(pos, WHITE), c.white) << c.fen;
    EXPECT_EQ(has_insufficient_material(pos, BLACK), c.black) << c.fen;
    EXPECT_EQ(is_insufficient_material(pos), c.white && c.black) << c.fen;
    if (c.white && c.black) EXPECT_EQ(outcome_of(c.fen), draw(Termination::INSUFFICIENT_MATERIAL)) << c.fen;
  }
}

TEST(Game, TerminationNames) {
  EXPECT_STREQ(termination_name(Termination::CHECKMATE), "CHECKMATE");
  EXPECT_STREQ(termination_name(Termination::THREEFOLD_REPETITION), "THREEFOLD_REPETITION");
  EXPECT_STREQ(draw(Termination::STALEMATE).result(), "1/2-1/2");
  EXPECT_STREQ((Outcome{Termination::CHECKMATE, WHITE}).result(), "1-0");
}

}  // namespace
}  // namespace manaka::chess
