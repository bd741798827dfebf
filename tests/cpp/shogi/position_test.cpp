// Self-consistency over positions reached by seeded random play: is_legal
// against the generator for all 32768 move16 values, gives_check against
// do_move, undo_move against the position before, the incremental key
// against one computed from scratch.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "shogi/movegen.h"
#include "shogi/position.h"

namespace manaka::shogi {
namespace {

// A small fixed generator, so the walk is the same on every run.
struct Rng {
  uint64_t s;
  uint64_t next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  }
};

// Positions from random games from startpos and from a few middle games.
std::vector<Position> walk(int games, int plies) {
  const char* roots[] = {
      "startpos",
      "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
      "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
      "8k/9/6NG1/9/9/9/9/9/4K4 b P 1",
  };
  Rng rng{0x9E3779B97F4A7C15ULL};
  std::vector<Position> out;
  std::vector<StateInfo> states(plies);
  for (int g = 0; g < games; ++g) {
    Position pos = *Position::from_sfen(roots[g % 4]);
    for (int ply = 0; ply < plies; ++ply) {
      out.push_back(pos);
      MoveList list;
      generate_legal(pos, list);
      if (!list.size) break;
      // Prefer checks half the time, to reach evasions and mates.
      Move m = list.moves[rng.next() % list.size];
      if (rng.next() % 2)
        for (Move c : list)
          if (pos.gives_check(c) && rng.next() % 3 == 0) m = c;
      pos.do_move(m, states[ply]);
    }
  }
  return out;
}

TEST(Position, IsLegalAgreesWithTheGenerator) {
  int checked = 0;
  for (const Position& pos : walk(24, 60)) {
    auto mask = legal_mask(pos);
    ASSERT_EQ(int(mask.count()), count_legal(pos)) << pos.sfen();
    for (uint32_t raw = 0; raw < 32768; ++raw) {
      Move m{uint16_t(raw)};
      ASSERT_EQ(pos.is_legal(m), mask.test(raw)) << pos.sfen() << " raw " << raw << " " << m.to_usi();
      if (mask.test(raw)) { ASSERT_FALSE(pos.is_legal(Move{uint16_t(raw | 0x8000)})); }
    }
    ++checked;
  }
  EXPECT_GT(checked, 300);
}

TEST(Position, DoUndoGivesCheckAndKeys) {
  int moves = 0, checks = 0;
  for (Position pos : walk(24, 80)) {
    const std::string before = pos.sfen();
    const uint64_t key = pos.key();
    EXPECT_EQ(key, Position::from_sfen(before)->key());
    MoveList list;
    generate_legal(pos, list);
    for (Move m : list) {
      StateInfo st;
      bool check = pos.gives_check(m);
      pos.do_move(m, st);
      ASSERT_EQ(pos.in_check(), check) << before << " " << m.to_usi();
      ASSERT_EQ(pos.key(), Position::from_sfen(pos.sfen())->key()) << before << " " << m.to_usi();
      ASSERT_NE(pos.key(), key);
      pos.undo_move(m);
      ASSERT_EQ(pos.sfen(), before) << m.to_usi();
      ASSERT_EQ(pos.key(), key);
      ++moves;
      checks += check;
    }
  }
  EXPECT_GT(moves, 50000);
  EXPECT_GT(checks, 1000);
}

TEST(Position, KeyIgnoresMoveNumberButNotHandsOrSide) {
  auto key = [](const char* sfen) { return Position::from_sfen(sfen)->key(); };
  EXPECT_EQ(key("4k4/9/9/9/9/9/9/9/4K4 b P 1"), key("4k4/9/9/9/9/9/9/9/4K4 b P 40"));
  EXPECT_NE(key("4k4/9/9/9/9/9/9/9/4K4 b P 1"), key("4k4/9/9/9/9/9/9/9/4K4 w P 1"));
  EXPECT_NE(key("4k4/9/9/9/9/9/9/9/4K4 b P 1"), key("4k4/9/9/9/9/9/9/9/4K4 b p 1"));
  EXPECT_NE(key("4k4/9/9/9/9/9/9/9/4K4 b P 1"), key("4k4/9/9/9/9/9/9/9/4K4 b 2P 1"));
}

TEST(Position, TranspositionsShareAKey) {
  Position a = Position::startpos(), b = Position::startpos();
  StateInfo st[4];
  const char* order_a[] = {"7g7f", "3c3d", "2g2f", "8c8d"};
  const char* order_b[] = {"2g2f", "8c8d", "7g7f", "3c3d"};
  for (int i = 0; i < 4; ++i) a.do_move(*Move::parse_usi(order_a[i]), st[i]);
  StateInfo st_b[4];
  for (int i = 0; i < 4; ++i) b.do_move(*Move::parse_usi(order_b[i]), st_b[i]);
  EXPECT_EQ(a.key(), b.key());
  EXPECT_EQ(a.sfen(), b.sfen());
  EXPECT_EQ(a.move_number(), 5);
}

TEST(Position, CopyKeepsThePositionNotTheHistory) {
  Position a = Position::startpos();
  StateInfo st;
  a.do_move(*Move::parse_usi("7g7f"), st);
  Position b = a;
  EXPECT_EQ(b.sfen(), a.sfen());
  EXPECT_EQ(b.key(), a.key());
  StateInfo st2;
  Move m = *Move::parse_usi("3c3d");
  b.do_move(m, st2);
  b.undo_move(m);
  EXPECT_EQ(b.sfen(), a.sfen());
  a.undo_move(*Move::parse_usi("7g7f"));
  EXPECT_EQ(a.sfen(), Position::startpos().sfen());
}

TEST(Position, CapturesGoToHandUnpromoted) {
  auto pos = Position::from_sfen("4k4/9/9/9/9/9/4+p4/4R4/4K4 b - 1");
  ASSERT_TRUE(pos.ok()) << pos.status().message();
  StateInfo st;
  Move m = *Move::parse_usi("5h5g");
  ASSERT_TRUE(pos->is_legal(m));
  pos->do_move(m, st);
  EXPECT_EQ(pos->sfen(), "4k4/9/9/9/9/9/4R4/9/4K4 w P 2");
  pos->undo_move(m);
  EXPECT_EQ(pos->sfen(), "4k4/9/9/9/9/9/4+p4/4R4/4K4 b - 1");
}

}  // namespace
}  // namespace manaka::shogi
