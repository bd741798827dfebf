#include "chess/encode.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <string>

#include "chess/game.h"
#include "chess/movegen.h"
#include "core/splitmix64.h"
#include "position_of.h"
#include "random_walk.h"

namespace manaka::chess {
namespace {

using Planes = std::array<int8_t, PLANES_SIZE>;

Planes planes_of(const Position& pos, bool repeated = false) {
  Planes out;
  out.fill(int8_t(-7));  // encode_planes must write every value
  encode_planes(pos, repeated, out.data());
  return out;
}

int at(const Planes& p, int plane, int row, int column) { return p[size_t(plane * 64 + row * 8 + column)]; }

int plane_sum(const Planes& p, int plane) {
  int sum = 0;
  for (int cell = 0; cell < 64; ++cell) sum += p[size_t(plane * 64 + cell)];
  return sum;
}

// The FEN without the fullmove number (decoding sets it to 1) and with the
// halfmove clock capped at 100 as plane 18 holds it.
std::string comparable_fen(const Position& pos) {
  std::string fen = pos.fen();
  fen = fen.substr(0, fen.rfind(' '));
  const size_t clock_at = fen.rfind(' ') + 1;
  return fen.substr(0, clock_at) + std::to_string(std::min(pos.halfmove_clock(), 100));
}

std::string refusal(const Planes& p) {
  auto d = decode_planes(p.data());
  return d.ok() ? "accepted" : d.status().message();
}

TEST(Planes, Startpos) {
  Planes p = planes_of(Position::startpos());
  for (int c = 0; c < 8; ++c) {
    EXPECT_EQ(at(p, PLANE_OUR_PIECES + PAWN - 1, 1, c), 1);
    EXPECT_EQ(at(p, PLANE_THEIR_PIECES + PAWN - 1, 6, c), 1);
  }
  EXPECT_EQ(at(p, PLANE_OUR_PIECES + KING - 1, 0, 4), 1);
  EXPECT_EQ(at(p, PLANE_OUR_PIECES + QUEEN - 1, 0, 3), 1);
  EXPECT_EQ(at(p, PLANE_THEIR_PIECES + KING - 1, 7, 4), 1);
  EXPECT_EQ(at(p, PLANE_OUR_PIECES + KNIGHT - 1, 0, 1), 1);
  EXPECT_EQ(at(p, PLANE_OUR_PIECES + KNIGHT - 1, 0, 6), 1);
  constexpr int SET[6] = {8, 2, 2, 2, 1, 1};  // P N B R Q K
  for (int plane = 0; plane < 12; ++plane) EXPECT_EQ(plane_sum(p, plane), SET[plane % 6]) << plane;
  EXPECT_EQ(plane_sum(p, PLANE_WHITE_TO_MOVE), 64);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(plane_sum(p, PLANE_CASTLING + i), 64);
  EXPECT_EQ(plane_sum(p, PLANE_EN_PASSANT), 0);
  EXPECT_EQ(plane_sum(p, PLANE_HALFMOVE), 0);
  EXPECT_EQ(plane_sum(p, PLANE_REPETITION), 0);
}

// Black to move: the board flipped vertically, files kept; "our" planes are
// Black's, the castling planes swap, the en-passant square is seen from
// Black's side too.
TEST(Planes, BlackToMoveIsFlipped) {
  Planes p = planes_of(position("rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b Kq d3 0 3"));
  EXPECT_EQ(plane_sum(p, PLANE_WHITE_TO_MOVE), 0);
  EXPECT_EQ(at(p, PLANE_OUR_PIECES + KING - 1, 0, 4), 1);         // e8
  EXPECT_EQ(at(p, PLANE_OUR_PIECES + PAWN - 1, 4, 4), 1);         // e4 (rank index 3): row 7 - 3 = 4
  EXPECT_EQ(at(p, PLANE_OUR_PIECES + PAWN - 1, 1, 0), 1);         // a7: row 1
  EXPECT_EQ(at(p, PLANE_THEIR_PIECES + PAWN - 1, 4, 3), 1);       // d4, White's pawn: row 4
  EXPECT_EQ(at(p, PLANE_THEIR_PIECES + PAWN - 1, 6, 0), 1);       // a2: row 6
  EXPECT_EQ(at(p, PLANE_THEIR_PIECES + KING - 1, 7, 4), 1);       // e1
  EXPECT_EQ(at(p, PLANE_EN_PASSANT, 5, 3), 1);                    // d3: row 7 - 2 = 5
  EXPECT_EQ(plane_sum(p, PLANE_EN_PASSANT), 1);
  EXPECT_EQ(plane_sum(p, PLANE_CASTLING + 0), 0);   // our (Black's) king-side: k absent
  EXPECT_EQ(plane_sum(p, PLANE_CASTLING + 1), 64);  // our queen-side: q
  EXPECT_EQ(plane_sum(p, PLANE_CASTLING + 2), 64);  // their king-side: K
  EXPECT_EQ(plane_sum(p, PLANE_CASTLING + 3), 0);   // their queen-side: Q absent
}

TEST(Planes, CountersAndRepetition) {
  Planes p = planes_of(position("4k3/8/8/8/8/8/4P3/4K3 w - - 37 80"), true);
  EXPECT_EQ(at(p, PLANE_HALFMOVE, 5, 5), 37);
  EXPECT_EQ(plane_sum(p, PLANE_REPETITION), 64);
  p = planes_of(position("4k3/8/8/8/8/8/4P3/4K3 w - - 140 80"));
  EXPECT_EQ(plane_sum(p, PLANE_HALFMOVE), 6400);
  // An en-passant square no pawn can use is not marked.
  p = planes_of(position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"));
  EXPECT_EQ(plane_sum(p, PLANE_EN_PASSANT), 0);
}

// Every position of random games decodes back to itself (the FEN without
// the fullmove number), and the repetition flag travels.
TEST(Planes, DecodeRoundTrip) {
  auto positions = random_walk(3, 300, 250);
  ASSERT_GT(positions.size(), 30000u);
  int i = 0;
  for (const Position& pos : positions) {
    const bool repeated = ++i % 3 == 0;
    Planes p = planes_of(pos, repeated);
    auto d = decode_planes(p.data());
    ASSERT_TRUE(d.ok()) << pos.fen() << ": " << d.status().message();
    ASSERT_EQ(comparable_fen(d->position), comparable_fen(pos));
    ASSERT_EQ(d->repeated_before, repeated);
    ASSERT_EQ(d->position.key(), pos.key());
    ASSERT_EQ(planes_of(d->position, repeated), p) << pos.fen();
  }
}

// Repetition in a Game: the plane the corpus writes is is_repetition(2).
TEST(Planes, RepetitionFromGame) {
  Game game;
  for (const char* uci : {"g1f3", "g8f6", "f3g1", "f6g8"}) game.push(*Move::parse_uci(uci));
  EXPECT_TRUE(game.is_repetition(2));
  EXPECT_EQ(plane_sum(planes_of(game.position(), game.is_repetition(2)), PLANE_REPETITION), 64);
}

TEST(Planes, DecodeRefusals) {
  const Planes good = planes_of(Position::startpos());
  Planes p = good;
  p[size_t(PLANE_WHITE_TO_MOVE * 64 + 9)] = 0;
  EXPECT_EQ(refusal(p), "plane 12 (white to move), row 1, column 1: the plane must be uniform, got 0 after 1");
  p = good;
  p[size_t((PLANE_OUR_PIECES + KNIGHT - 1) * 64 + 4)] = 1;
  EXPECT_EQ(refusal(p), "plane 5 (our king), row 0, column 4: a second piece on e1");  // the knight came first
  p = good;
  p[size_t((PLANE_OUR_PIECES + PAWN - 1) * 64 + 8)] = 2;
  EXPECT_EQ(refusal(p), "plane 0 (our pawns), row 1, column 0: expected 0 or 1, got 2");
  p = good;
  p[size_t((PLANE_OUR_PIECES + KING - 1) * 64 + 4)] = 0;
  EXPECT_EQ(refusal(p), "planes: White has 0 kings, expected exactly one");
  p = good;
  std::fill_n(p.begin() + PLANE_HALFMOVE * 64, 64, int8_t(101));
  EXPECT_EQ(refusal(p), "plane 18 (halfmove clock), row 0, column 0: expected 0 to 100, got 101");
  p = good;
  std::fill_n(p.begin() + PLANE_REPETITION * 64, 64, int8_t(-1));
  EXPECT_EQ(refusal(p), "plane 19 (repetition), row 0, column 0: expected 0 or 1, got -1");
  // 1. e4 with the e3 square marked: no black pawn can take there.
  p = planes_of(position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"));
  p[size_t(PLANE_EN_PASSANT * 64 + 5 * 8 + 4)] = 1;
  EXPECT_EQ(refusal(p), "planes: plane 17 (en passant) marks e3, but no legal en-passant capture exists there");
  p[size_t(PLANE_EN_PASSANT * 64 + 5 * 8 + 3)] = 1;
  EXPECT_EQ(refusal(p), "plane 17 (en passant), row 5, column 4: a second en-passant square after d3");
}

}  // namespace
}  // namespace manaka::chess
