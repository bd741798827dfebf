// The screens (prefix_passes, candidates_pass) against the full checks they
// stand in for (validate_prefix, validate_candidates): the same verdict on
// every move16, every presence pattern of visits and cp, random candidate
// lists of every length, and the special floats. The reader trusts a passing
// screen without running the full check, so any disagreement here is a rule
// the reader would stop enforcing.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

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

// Checks one list under both policy sources; returns false on a mismatch.
::testing::AssertionResult agree(const std::vector<Candidate>& cands) {
  std::vector<uint8_t> bytes = wire(cands);
  for (PolicySource source : {PolicySource::Visits, PolicySource::Cp}) {
    Header h;
    h.policy_source = source;
    Status full = validate_candidates(h, cands);
    bool screen = candidates_pass(source, bytes.data(), cands.size());
    if (screen != full.ok()) {
      std::string why = full.ok() ? "ok" : full.message();
      return ::testing::AssertionFailure() << "source " << static_cast<int>(source) << ", n " << cands.size()
                                           << ": screen " << screen << ", full check: " << why;
    }
  }
  return ::testing::AssertionSuccess();
}

Candidate good(uint16_t mv = 0x0A33) { return {mv, 10, kNoCp}; }

TEST(Screen, NoCandidatesIsTheFullChecksAnswer) { EXPECT_TRUE(agree({})); }

TEST(Screen, EveryMove16AtEveryKindOfPosition) {
  // Alone (n = 1 fills both vector slots), in a pair, and first, in the
  // middle and last of an odd list (whose last pair overlaps).
  for (uint32_t m = 0; m <= 0xFFFF; ++m) {
    uint16_t mv = static_cast<uint16_t>(m);
    ASSERT_TRUE(agree({good(mv)})) << "mv " << m;
    ASSERT_TRUE(agree({good(), good(mv)})) << "mv " << m;
    ASSERT_TRUE(agree({good(mv), good(), good(), good(), good()})) << "mv " << m;
    ASSERT_TRUE(agree({good(), good(), good(mv), good(), good()})) << "mv " << m;
    ASSERT_TRUE(agree({good(), good(), good(), good(), good(mv)})) << "mv " << m;
  }
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
    for (Candidate& c : cands) {
      c.mv = static_cast<uint16_t>(u(0, 80) | u(0, 87) << 7 | (u(0, 7) == 0 ? 1u << 14 : 0));
      c.visits = visits ? static_cast<uint32_t>(u(1, 0xFFFFFFFFu)) : kNoVisits;
      c.cp = cp ? static_cast<int16_t>(static_cast<int>(u(0, 65534)) - 32767) : kNoCp;
    }
    // Usually one defect, rarely none: each rule's boundary, at any index.
    Candidate& hit = cands[u(0, n - 1)];
    switch (u(0, 7)) {
      case 0: hit.mv = static_cast<uint16_t>(u(0, 0xFFFF)); break;
      case 1: hit.mv ^= static_cast<uint16_t>(1u << u(0, 15)); break;
      case 2:  // absent where present, or present (low or high half only) where absent
        hit.visits = hit.visits == kNoVisits ? static_cast<uint32_t>(u(1, 3) << (16 * u(0, 1))) : kNoVisits;
        break;
      case 3: hit.cp = hit.cp == kNoCp ? static_cast<int16_t>(u(0, 1) ? 32767 : -32767) : kNoCp; break;
      case 4: hit.mv = static_cast<uint16_t>(u(81, 87) << 7 | 1u << 14 | u(0, 80)); break;
      default: break;
    }
    ASSERT_TRUE(agree(cands)) << "iteration " << iter;
  }
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
