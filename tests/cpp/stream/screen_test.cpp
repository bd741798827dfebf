// The screens (prefix_passes, candidates_pass, position_passes) against the
// full checks they stand in for (validate_prefix, validate_candidates,
// validate_position): the same verdict on every move16, every presence
// pattern of visits and cp, repeated moves at every pair of places, random
// candidate lists of every length, the special floats, and positions valid
// and not. The reader trusts a passing screen without running the full
// check, so any disagreement here is a rule the reader would stop enforcing.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "../shogi/random_positions.h"
#include "core/bytes.h"
#include "stream/format.h"
#include "stream/record.h"
#include "stream/validate.h"

namespace manaka::stream {
namespace {

std::vector<uint8_t> wire(const std::vector<Candidate>& cands) {
  std::vector<uint8_t> out(cands.size() * kCandidateSize);
  uint8_t* p = out.data();
  for (const Candidate& c : cands) {
    store_u16(p, c.mv);
    store_u32(p + 2, c.visits);
    store_i16(p + 6, c.cp);
    p += kCandidateSize;
  }
  return out;
}

// One working set for every check of the file, as a reader keeps one for a
// whole stream: its stamps wrap many times over.
MoveSeen& seen() {
  static MoveSeen s;
  return s;
}

// Checks one list under both policy sources; returns false on a mismatch.
::testing::AssertionResult agree(const std::vector<Candidate>& cands) {
  std::vector<uint8_t> bytes = wire(cands);
  for (PolicySource source : {PolicySource::Visits, PolicySource::Cp}) {
    Header h;
    h.policy_source = source;
    Status full = validate_candidates(h, cands, seen());
    bool screen = candidates_pass(source, bytes.data(), cands.size(), seen());
    if (screen != full.ok()) {
      std::string why = full.ok() ? "ok" : full.message();
      return ::testing::AssertionFailure() << "source " << static_cast<int>(source) << ", n " << cands.size()
                                           << ": screen " << screen << ", full check: " << why;
    }
  }
  return ::testing::AssertionSuccess();
}

Candidate good(uint16_t mv = 0x0A33) { return {mv, 10, kNoCp}; }
// Distinct moves beside it (0x0A34.. : the same origin, destinations 52..).
Candidate other(int i) { return good(static_cast<uint16_t>(0x0A34 + i)); }

TEST(Screen, NoCandidatesIsTheFullChecksAnswer) { EXPECT_TRUE(agree({})); }

TEST(Screen, EveryMove16AtEveryKindOfPosition) {
  // Alone (n = 1 fills both vector slots), in a pair, and first, in the
  // middle and last of an odd list (whose last pair overlaps). The other
  // moves are distinct, so mv repeats one of them only when it equals it.
  for (uint32_t m = 0; m <= 0xFFFF; ++m) {
    uint16_t mv = static_cast<uint16_t>(m);
    ASSERT_TRUE(agree({good(mv)})) << "mv " << m;
    ASSERT_TRUE(agree({other(0), good(mv)})) << "mv " << m;
    ASSERT_TRUE(agree({good(mv), other(0), other(1), other(2), other(3)})) << "mv " << m;
    ASSERT_TRUE(agree({other(0), other(1), good(mv), other(2), other(3)})) << "mv " << m;
    ASSERT_TRUE(agree({other(0), other(1), other(2), other(3), good(mv)})) << "mv " << m;
  }
}

TEST(Screen, RepeatedMovesAtEveryPairOfPlaces) {
  // Lists of distinct moves, then one move copied over another at every
  // pair of places: both checks refuse, and the full one names both.
  for (size_t n = 2; n <= 40; ++n) {
    std::vector<Candidate> distinct(n);
    for (size_t i = 0; i < n; ++i) distinct[i] = good(static_cast<uint16_t>((80 - i) | i << 7));
    ASSERT_TRUE(agree(distinct));
    ASSERT_TRUE(validate_candidates(Header{}, distinct, seen()).ok());
    for (size_t a = 0; a < n; ++a) {
      for (size_t b = a + 1; b < n; ++b) {
        std::vector<Candidate> cands = distinct;
        cands[b].mv = cands[a].mv;
        ASSERT_TRUE(agree(cands)) << n << " " << a << " " << b;
        Status st = validate_candidates(Header{}, cands, seen());
        char want[80];
        std::snprintf(want, sizeof want, "mv 0x%04X is listed twice (candidates %zu and %zu)", cands[a].mv, a, b);
        ASSERT_FALSE(st.ok());
        ASSERT_EQ(st.message().rfind(want, 0), 0u) << st.message();
      }
    }
  }
  // A long list (the largest self-play lists reach several hundred).
  std::vector<Candidate> cands;
  for (int to = 0; to < 81; ++to) {
    for (int from = 0; from < 8; ++from) cands.push_back(good(static_cast<uint16_t>(to | from << 7)));
  }
  ASSERT_TRUE(agree(cands));
  cands[647].mv = cands[3].mv;
  ASSERT_TRUE(agree(cands));
  EXPECT_FALSE(validate_candidates(Header{}, cands, seen()).ok());
}

TEST(Screen, EveryPresencePatternOfVisitsAndCp) {
  // Present values chosen to stress the lanes: a visit count whose low or
  // high u16 is zero, cp values next to NO_CP.
  const uint32_t visits[] = {1, 0xFFFF, 0x10000, 0xFFFF0000u, 0xFFFFFFFFu};
  const int16_t cps[] = {0, -32767, 32767, -1, 1};
  for (size_t n = 1; n <= 6; ++n) {
    for (uint32_t vmask = 0; vmask < (1u << n); ++vmask) {
      for (uint32_t cmask = 0; cmask < (1u << n); ++cmask) {
        std::vector<Candidate> cands(n);
        for (size_t i = 0; i < n; ++i) {
          cands[i].mv = static_cast<uint16_t>(i * 9);
          cands[i].visits = (vmask >> i) & 1 ? visits[(i + cmask) % 5] : kNoVisits;
          cands[i].cp = (cmask >> i) & 1 ? cps[(i + vmask) % 5] : kNoCp;
        }
        ASSERT_TRUE(agree(cands)) << "visits mask " << vmask << ", cp mask " << cmask;
      }
    }
  }
}

TEST(Screen, RandomListsOfEveryLength) {
  std::mt19937_64 rng(7);
  auto u = [&](uint64_t lo, uint64_t hi) { return std::uniform_int_distribution<uint64_t>(lo, hi)(rng); };
  for (int iter = 0; iter < 100000; ++iter) {
    size_t n = u(1, iter % 100 == 0 ? 700 : 40);
    bool visits = u(0, 1), cp = u(0, 1);
    std::vector<Candidate> cands(n);
    const size_t shift = u(0, 80);
    for (size_t i = 0; i < n; ++i) {
      Candidate& c = cands[i];
      // Distinct moves: origin field i % 88, destination (i / 88 + shift) %
      // 81, sometimes promoting (not a drop).
      c.mv = static_cast<uint16_t>((i / 88 + shift) % 81 | (i % 88) << 7 |
                                   (i % 88 < 81 && u(0, 7) == 0 ? 1u << 14 : 0));
      c.visits = visits ? static_cast<uint32_t>(u(1, 0xFFFFFFFFu)) : kNoVisits;
      c.cp = cp ? static_cast<int16_t>(static_cast<int>(u(0, 65534)) - 32767) : kNoCp;
    }
    // Usually one defect, rarely none: each rule's boundary, at any index.
    Candidate& hit = cands[u(0, n - 1)];
    switch (u(0, 8)) {
      case 0: hit.mv = static_cast<uint16_t>(u(0, 0xFFFF)); break;
      case 1: hit.mv ^= static_cast<uint16_t>(1u << u(0, 15)); break;
      case 2:  // absent where present, or present (low or high half only) where absent
        hit.visits = hit.visits == kNoVisits ? static_cast<uint32_t>(u(1, 3) << (16 * u(0, 1))) : kNoVisits;
        break;
      case 3: hit.cp = hit.cp == kNoCp ? static_cast<int16_t>(u(0, 1) ? 32767 : -32767) : kNoCp; break;
      case 4: hit.mv = static_cast<uint16_t>(u(81, 87) << 7 | 1u << 14 | u(0, 80)); break;
      case 5: hit.mv = cands[u(0, n - 1)].mv; break;  // a repeat, unless it picked itself
      case 6: hit.mv = static_cast<uint16_t>(cands[u(0, n - 1)].mv | 0x8000); break;  // a repeat but for bit 15
      default: break;
    }
    ASSERT_TRUE(agree(cands)) << "iteration " << iter;
  }
}

// position_passes against validate_position: positions from random games,
// whole sets scattered at random, both changed at random; any packed_len
// other than 96 passes whatever the bytes.
TEST(Screen, PositionAgreesWithUnpack) {
  std::mt19937_64 rng(23);
  Header shogi_header, other_width;
  other_width.packed_len = 95;
  size_t refused = 0;
  auto agree_on = [&](const shogi::Packed& b) {
    Status full = validate_position(shogi_header, b);
    ASSERT_EQ(position_passes(shogi_header, b.data()), full.ok()) << (full.ok() ? "ok" : full.message());
    ASSERT_TRUE(position_passes(other_width, b.data()));
    ASSERT_TRUE(validate_position(other_width, std::span<const uint8_t>(b.data(), 95)).ok());
    refused += !full.ok();
  };
  for (const shogi::Packed& b : testing::random_game_positions(5000, 3)) {
    agree_on(b);
    shogi::Packed c = b;
    testing::mutate(c, rng);
    agree_on(c);
  }
  for (int i = 0; i < 20000; ++i) {
    shogi::Packed b = testing::random_setup(rng);
    agree_on(b);
    testing::mutate(b, rng);
    agree_on(b);
  }
  EXPECT_GT(refused, 5000u);
}

TEST(Screen, PrefixAgreesOnSpecialFloats) {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> values = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -0.5f, 2.0f, -2.0f, inf, -inf,
                               std::nanf(""), -std::nanf(""), std::nextafter(1.0f, 2.0f),
                               std::nextafter(-1.0f, -2.0f), std::nextafter(1.0f, 0.0f),
                               std::numeric_limits<float>::denorm_min(), std::numeric_limits<float>::max()};
  std::mt19937 rng(3);
  for (int i = 0; i < 300; ++i) values.push_back(std::bit_cast<float>(static_cast<uint32_t>(rng())));
  for (size_t n : {size_t{0}, size_t{1}, size_t{65535}, size_t{65536}}) {
    for (float z : values) {
      for (float q : values) {
        ASSERT_EQ(prefix_passes(z, q, n), validate_prefix(z, q, n).ok())
            << "z " << std::bit_cast<uint32_t>(z) << " q " << std::bit_cast<uint32_t>(q) << " n " << n;
      }
    }
  }
}

}  // namespace
}  // namespace manaka::stream
