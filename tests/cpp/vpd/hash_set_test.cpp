#include "vpd/hash_set.h"

#include <gtest/gtest.h>

#include <unordered_set>
#include <vector>

#include "core/splitmix64.h"

namespace manaka::vpd {
namespace {

// Random inserts, erases and lookups against std::unordered_set. Keys share
// their low bits (few home slots, long runs that wrap around the table's
// end) or are 0 (the empty marker), so every path of erase's backward shift
// is taken.
TEST(HashSet64, AgreesWithUnorderedSet) {
  for (uint64_t low_bits : {uint64_t{0x3FF}, uint64_t{0x3F0}, uint64_t{0x300}, ~uint64_t{0}}) {
    SplitMix64 rng(low_bits);
    HashSet64 set;
    std::unordered_set<uint64_t> oracle;
    std::vector<uint64_t> keys;
    for (int i = 0; i < 3000; ++i) {
      uint64_t k = rng.next();
      // High bits random, low bits from a small pool; now and then 0.
      k = (k & ~uint64_t{0x3FF}) | (k & low_bits & 0x3FF);
      if (i % 97 == 0) k = 0;
      keys.push_back(k);
    }
    for (int step = 0; step < 60000; ++step) {
      const uint64_t k = keys[rng.next() % keys.size()];
      switch (rng.next() % 3) {
        case 0: set.insert(k); oracle.insert(k); break;
        case 1: set.erase(k); oracle.erase(k); break;
        default: break;
      }
      ASSERT_EQ(set.contains(k), oracle.contains(k)) << step;
      ASSERT_EQ(set.size(), oracle.size()) << step;
    }
    for (uint64_t k : keys) ASSERT_EQ(set.contains(k), oracle.contains(k));
    set.clear();
    EXPECT_EQ(set.size(), 0u);
    EXPECT_FALSE(set.contains(keys[1]));
  }
}

}  // namespace
}  // namespace manaka::vpd
