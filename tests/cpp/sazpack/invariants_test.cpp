// Every invariant of the spec, refused when decoding and when writing, with
// the message pinned: game, position, entry, byte offset, rule.
#include <gtest/gtest.h>

#include "core/bytes.h"
#include "fixture.h"
#include "sazpack/codec.h"

namespace manaka::sazpack {
namespace {

using testing::from_hex;

// Offsets in the golden chunk.
constexpr size_t kResult = 42, kReason = 43, kRule = 44, kPos0 = 46;
constexpr size_t kPos0Entries = kPos0 + kPositionFixedSize + 1;  // 81
constexpr size_t kPos1 = kPos0Entries + 20;                     // 101

std::vector<uint8_t> golden() { return from_hex(testing::kGoldenChunkHex); }

std::string refusal(const std::vector<uint8_t>& bytes, ErrorKind kind = ErrorKind::Invalid) {
  auto games = deserialize_chunk(bytes);
  if (games.ok()) return "(accepted)";
  EXPECT_EQ(games.status().kind(), kind) << games.status().message();
  return games.status().message();
}

std::string write_refusal(const SazGame& g) {
  auto bytes = serialize_chunk(std::span<const SazGame>(&g, 1));
  return bytes.ok() ? "(accepted)" : bytes.status().message();
}

void fix_length(std::vector<uint8_t>& b) { store_u32(b.data() + 6, uint32_t(b.size() - kHeaderSize)); }

TEST(SazpackInvariants, Header) {
  auto b = golden();
  b[0] = 'X';
  EXPECT_EQ(refusal(b), "byte 0: magic is \"XAZ2\", a SAZ2 chunk starts with \"SAZ2\"");
  b = golden();
  b[4] = 3;
  EXPECT_EQ(refusal(b), "byte 4: version 3 is not supported; this reader accepts SAZ2 version 4 only");
  b = golden();
  b[5] = 1;
  EXPECT_EQ(refusal(b), "byte 5: flags are 1, must be 0");
  EXPECT_EQ(refusal({'S', 'A', 'Z'}, ErrorKind::Truncated), "chunk is 3 bytes, shorter than its 10-byte header");
}

TEST(SazpackInvariants, TruncationAndTrailingBytes) {
  auto b = golden();
  b.pop_back();
  EXPECT_EQ(refusal(b, ErrorKind::Truncated), "truncated chunk: payload_len 141 needs 151 bytes, the input has 150");
  b = golden();
  b.push_back(0);
  EXPECT_EQ(refusal(b), "1 trailing bytes after the chunk (payload_len 141 ends it at byte 151, the input has 152)");
  // payload_len itself shortened: the payload ends inside a game.
  b = golden();
  b.resize(b.size() - 3);
  fix_length(b);
  EXPECT_EQ(refusal(b, ErrorKind::Truncated),
            "game 0, position 1, policy entry 0, byte 144: truncated: the payload ends inside the ULEB128 visits");
  // Every prefix of the payload is refused, never read out of bounds.
  for (size_t n = kHeaderSize + 1; n < golden().size(); ++n) {
    b = golden();
    b.resize(n);
    fix_length(b);
    EXPECT_FALSE(deserialize_chunk(b).ok()) << n;
  }
}

TEST(SazpackInvariants, GameEnumerations) {
  auto b = golden();
  b[kResult] = 15;
  EXPECT_EQ(refusal(b), "game 0, byte 42: game_result 15 is not a known GameResult (0-14, 16, 17, 20, 21)");
  for (int v : {0, 14, 16, 17, 20, 21}) {
    b[kResult] = uint8_t(v);
    EXPECT_TRUE(deserialize_chunk(b).ok()) << v;
  }
  for (int v : {18, 19, 22, 255}) {
    b[kResult] = uint8_t(v);
    EXPECT_FALSE(deserialize_chunk(b).ok()) << v;
  }
  b = golden();
  b[kReason] = 10;
  EXPECT_EQ(refusal(b), "game 0, byte 43: termination_reason 10 is unknown, must be at most 9");
  b[kReason] = 9;
  EXPECT_TRUE(deserialize_chunk(b).ok());
  b = golden();
  b[kRule] = 7;
  EXPECT_EQ(refusal(b), "game 0, byte 44: entering_king_rule 7 is unknown, must be at most 6");

  SazGame g = testing::golden_game();
  g.game_result = GameResult(18);
  EXPECT_EQ(write_refusal(g), "game 0, game_result 18 is not a known GameResult (0-14, 16, 17, 20, 21)");
  g = testing::golden_game();
  g.termination_reason = TerminationReason(10);
  EXPECT_EQ(write_refusal(g), "game 0, termination_reason 10 is unknown, must be at most 9");
  g = testing::golden_game();
  g.entering_king_rule = EnteringKingRule(7);
  EXPECT_EQ(write_refusal(g), "game 0, entering_king_rule 7 is unknown, must be at most 6");
}

TEST(SazpackInvariants, WdlSums) {
  auto b = golden();
  b[kPos0 + 2] ^= 1;  // root_wdl.win 30000 -> 30001
  EXPECT_EQ(refusal(b), "game 0, position 0, byte 48: root_wdl 30001 + 5535 + 30000 = 65536, a WDL must sum to "
                        "exactly 65535");
  b = golden();
  b[kPos1 + 14] = 0;  // position 1 raw_wdl.win
  EXPECT_EQ(refusal(b), "game 0, position 1, byte 115: raw_wdl 29952 + 5535 + 30000 = 65487, a WDL must sum to "
                        "exactly 65535");
  SazGame g = testing::golden_game();
  g.positions[1].outcome_wdl.draw = 1;
  EXPECT_EQ(write_refusal(g), "game 0, position 1, outcome_wdl 65535 + 1 + 0 = 65536, a WDL must sum to exactly 65535");
}

TEST(SazpackInvariants, PriorBudgets) {
  auto b = golden();
  b[kPos0Entries + 2 + 10] += 1;  // entry 1's prior 25535 -> 25536
  EXPECT_EQ(refusal(b), "game 0, position 0, policy entry 1, byte 93: prior 25536 exceeds the 25535 left of 65535; "
                        "a position's priors must sum to exactly 65535");
  b = golden();
  b[kPos0Entries + 4 + 10] -= 1;  // entry 1's raw_prior 25534 -> 25533: the sum falls short
  EXPECT_EQ(refusal(b), "game 0, position 0, byte 101: raw_priors sum to 65534, must be exactly 65535");

  SazGame g = testing::golden_game();
  g.positions[0].policy[0].raw_prior = 65535;
  EXPECT_EQ(write_refusal(g), "game 0, position 0, policy entry 1: raw_prior 25534 exceeds the 0 left of 65535; a "
                              "position's raw_priors must sum to exactly 65535");
  g = testing::golden_game();
  g.positions[0].policy.pop_back();
  EXPECT_EQ(write_refusal(g), "game 0, position 0, priors sum to 40000, must be exactly 65535");
}

TEST(SazpackInvariants, HostilePriorListCannotWrapASum) {
  // 65539 entries whose priors total 2^32 + 65535: a u32 sum would wrap to
  // exactly 65535. The budget refuses at the second entry.
  SazGame g = testing::golden_game();
  g.positions.resize(1);
  g.positions[0].policy.assign(65539, {testing::usi("7g7f"), 65535, 0, OutcomeBound::Loss, OutcomeBound::Win, 0});
  g.positions[0].policy[0].raw_prior = 65535;
  EXPECT_EQ(write_refusal(g), "game 0, position 0, policy entry 1: prior 65535 exceeds the 0 left of 65535; a "
                              "position's priors must sum to exactly 65535");
}

TEST(SazpackInvariants, EmptyPolicy) {
  auto b = golden();
  // Position 1's policy: count 1 and its 12-byte entry become count 0.
  const size_t count_at = kPos1 + kPositionFixedSize + kMateSize;
  ASSERT_EQ(b[count_at], 1);
  b[count_at] = 0;
  b.erase(b.begin() + count_at + 1, b.end());
  fix_length(b);
  EXPECT_EQ(refusal(b), "game 0, position 1, byte 137: no policy entries; a position needs at least one, its priors "
                        "summing to 65535");
  SazGame g = testing::golden_game();
  g.positions[1].policy.clear();
  EXPECT_EQ(write_refusal(g), "game 0, position 1, no policy entries; a position needs at least one, its priors "
                              "summing to 65535");
}

TEST(SazpackInvariants, BoundsAndMateTag) {
  auto b = golden();
  b[kPos0Entries + 8] = 3;  // entry 0's lower
  EXPECT_EQ(refusal(b), "game 0, position 0, policy entry 0, byte 89: lower bound 3 is unknown, must be 0 (Loss), 1 "
                        "(Draw) or 2 (Win)");
  b = golden();
  b[kPos0Entries + 9] = 7;  // entry 0's upper
  EXPECT_EQ(refusal(b), "game 0, position 0, policy entry 0, byte 90: upper bound 7 is unknown, must be 0 (Loss), 1 "
                        "(Draw) or 2 (Win)");
  b = golden();
  b[kPos0 + 33] = 2;
  EXPECT_EQ(refusal(b), "game 0, position 0, byte 79: mate tag 2, must be 0 (no mate) or 1 (a mate follows)");
  SazGame g = testing::golden_game();
  g.positions[1].policy[0].upper = OutcomeBound(3);
  EXPECT_EQ(write_refusal(g), "game 0, position 1, policy entry 0: bound 3 is unknown, must be 0 (Loss), 1 (Draw) or "
                              "2 (Win)");
}

TEST(SazpackInvariants, Uleb128BoundedToU32) {
  // Position 1's visits are ff ff ff ff 0f (u32 max), at byte 144.
  auto b = golden();
  ASSERT_EQ(b[148], 0x0f);
  b[148] = 0x1f;
  EXPECT_EQ(refusal(b), "game 0, position 1, policy entry 0, byte 144: ULEB128 visits does not fit in u32 (its fifth "
                        "byte has bits above bit 31)");
  b[148] = 0x8f;
  b.insert(b.begin() + 149, 0x00);
  fix_length(b);
  EXPECT_EQ(refusal(b), "game 0, position 1, policy entry 0, byte 144: ULEB128 visits runs past 5 bytes; counts are "
                        "bounded to u32");
  // A position_count far beyond what the payload holds is refused as
  // truncation without allocating for it.
  b = golden();
  b[45] = 0xff;
  b.insert(b.begin() + 46, {0xff, 0xff, 0xff, 0x0f});
  fix_length(b);
  EXPECT_EQ(refusal(b, ErrorKind::Truncated).substr(0, 32), "game 0, position 2, byte 155: tr");
}

}  // namespace
}  // namespace manaka::sazpack
