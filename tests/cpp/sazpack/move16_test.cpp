// YaneuraOu Move16: USI both ways as rsshogi 1.7.0 does, and MPK1 move16.
#include <gtest/gtest.h>

#include "sazpack/move16.h"

namespace manaka::sazpack {
namespace {

TEST(SazpackMove16, KnownValues) {
  // Values rsshogi 1.7.0 writes for these USI moves.
  const std::pair<const char*, uint16_t> known[] = {
      {"7g7f", 0x1e3b}, {"2g2f", 0x078e}, {"8h2b+", 0xa30a}, {"P*5e", 0x40a8}, {"L*1a", 0x4100},
      {"N*5e", 0x41a8}, {"S*5e", 0x4228}, {"B*5e", 0x42a8},  {"R*9i", 0x4350}, {"G*5e", 0x43a8},
      {"1a1b+", 0x8001}, {"none", 0},     {"null", 129},     {"resign", 258},  {"win", 387},
      {"end", 516}};
  for (auto [usi, raw] : known) {
    auto mv = Move16::parse_usi(usi);
    ASSERT_TRUE(mv.ok()) << usi;
    EXPECT_EQ(mv->raw, raw) << usi;
    EXPECT_EQ(Move16{raw}.to_usi(), usi);
  }
  EXPECT_EQ(Move16::parse_usi("0000")->raw, Move16::kNull);
  EXPECT_EQ(Move16::parse_usi("p*5e")->raw, 0x40a8);
}

TEST(SazpackMove16, EveryValueHasTheReferenceName) {
  // rsshogi names 13,527 values as moves (81*80 board moves, each with and
  // without promotion, 81*7 drops), five as specials, the rest "none".
  int moves = 0, none = 0;
  for (uint32_t raw = 0; raw < 65536; ++raw) {
    Move16 mv{uint16_t(raw)};
    std::string usi = mv.to_usi();
    if (mv.is_move()) {
      ++moves;
      EXPECT_EQ(Move16::parse_usi(usi)->raw, raw) << usi;
    } else if (usi == "none") {
      ++none;
    }
  }
  EXPECT_EQ(moves, 81 * 80 * 2 + 81 * 7);
  EXPECT_EQ(none, 65536 - moves - 4);
}

TEST(SazpackMove16, RefusesWhatTheReferenceRefuses) {
  for (const char* bad : {"7G7F", "P*5E", "k*5e", "K*5e", "7g7f=", "7g7f++", "NONE", "Resign", "00000", " 7g7f",
                          "P*5e+", "+7g7f", "1j1a", "0a1a", "1a1a+", "5e5e", "", "pass"}) {
    auto mv = Move16::parse_usi(bad);
    EXPECT_FALSE(mv.ok()) << bad;
  }
  EXPECT_EQ(Move16::parse_usi("7g7f ").status().message(),
            "move \"7g7f \" is not USI (\"7g7f\", \"8h2b+\", \"P*5e\", or none/null/resign/win/end)");
}

TEST(SazpackMove16, ConvertsToAndFromMpk) {
  // The same USI text on both sides, for every MPK1 move that is well formed.
  int checked = 0;
  for (uint32_t raw = 0; raw < 32768; ++raw) {
    shogi::Move m{uint16_t(raw)};
    if (!m.well_formed()) continue;
    Move16 yo = Move16::from_mpk(m);
    ASSERT_EQ(yo.to_usi(), m.to_usi()) << raw;
    ASSERT_EQ(yo.to_mpk()->raw, raw);
    ++checked;
  }
  EXPECT_EQ(checked, 81 * 80 * 2 + 81 * 7);
  EXPECT_EQ(Move16{Move16::kResign}.to_mpk().status().message(),
            "move16 0x0102 (\"resign\") is not a board move or a drop");
  EXPECT_FALSE(Move16{0xc0a8}.to_mpk().ok());  // a promoting drop
}

}  // namespace
}  // namespace manaka::sazpack
