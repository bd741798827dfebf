#include "stream/inspect.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "stream/header.h"
#include "stream/reader.h"
#include "stream/record.h"

namespace manaka::stream {
namespace {

Record make(uint8_t board, float z, float q, uint16_t ply, std::vector<uint32_t> visits) {
  Record r;
  r.ply = ply;
  r.value_z = z;
  r.value_q = q;
  // Kings on 5a and 5i, and `board` pawns in Black's hand to tell boards apart.
  r.packed.assign(96, 0);
  std::fill(r.packed.begin(), r.packed.begin() + 81, 0xFF);
  r.packed[36] = 0x10;
  r.packed[44] = 0x00;
  r.packed[81] = board;
  for (size_t i = 0; i < visits.size(); ++i) {
    r.candidates.push_back({static_cast<uint16_t>(i), visits[i], kNoCp});
  }
  return r;
}

std::vector<uint8_t> stream_of(const Header& h, const std::vector<Record>& recs) {
  std::vector<uint8_t> b(kHeaderSize);
  encode_header(h, std::span<uint8_t, kHeaderSize>(b.data(), kHeaderSize));
  for (const Record& r : recs) encode_record(r.view(), b);
  return b;
}

TEST(Inspect, CountsByHand) {
  // Boards 1, 2, 1, 3, 1, 2: board 1 three times, board 2 twice, so five of
  // the six records share a board with another; three are distinct.
  std::vector<Record> recs = {
      make(1, 1, 0.5f, 10, {1, 2, 797}),       // total 800
      make(2, -1, -0.5f, 11, {800}),           // total 800
      make(1, 0, 0.0f, 3, {3, 3, 1, 1, 792}),  // total 800
      make(3, 1, 1.0f, 40, {400, 400}),        // total 800
      make(1, -1, -1.0f, 12, {2, 798}),        // total 800
      make(2, 1, 0.25f, 13, {1, 1, 1, 97}),    // total 100
  };
  std::vector<uint8_t> bytes = stream_of(selfplay_header(), recs);
  auto reader = Reader::from_memory(bytes);
  ASSERT_TRUE(reader.ok());
  auto stats = inspect(*reader);
  ASSERT_TRUE(stats.ok()) << stats.status().message();
  const StreamStats& s = *stats;
  EXPECT_EQ(s.records, 6u);
  EXPECT_EQ(s.candidates, 17u);
  EXPECT_DOUBLE_EQ(s.cand_mean, 17.0 / 6.0);
  // n_cand sorted: 1 2 2 3 4 5 -> p50 (rank 3) 2, p99 (rank 6) 5.
  EXPECT_EQ(s.cand_min, 1u);
  EXPECT_EQ(s.cand_p50, 2u);
  EXPECT_EQ(s.cand_p99, 5u);
  EXPECT_EQ(s.cand_max, 5u);
  EXPECT_EQ(s.visit_total_min, 100u);
  EXPECT_EQ(s.visit_total_max, 800u);
  EXPECT_DOUBLE_EQ(s.visit_total_mean, 4100.0 / 6.0);
  EXPECT_EQ(s.visited_1, 6u);
  EXPECT_EQ(s.visited_2, 2u);
  EXPECT_EQ(s.visited_3, 2u);
  EXPECT_EQ(s.z_loss, 2u);
  EXPECT_EQ(s.z_draw, 1u);
  EXPECT_EQ(s.z_win, 3u);
  EXPECT_EQ(s.value_q_min, -1.0f);
  EXPECT_EQ(s.value_q_max, 1.0f);
  EXPECT_EQ(s.ply_min, 3);
  EXPECT_EQ(s.ply_max, 40);
  EXPECT_TRUE(s.duplicates_counted);
  EXPECT_EQ(s.distinct_boards, 3u);
  EXPECT_EQ(s.records_sharing_board, 5u);
  EXPECT_EQ(s.bytes, kHeaderSize + 6 * 108 + 17 * 8);
  EXPECT_EQ(s.header, selfplay_header());
}

TEST(Inspect, DuplicatesCanBeSkipped) {
  std::vector<Record> recs = {make(1, 1, 0, 0, {5}), make(1, 1, 0, 0, {5})};
  std::vector<uint8_t> bytes = stream_of(selfplay_header(), recs);
  auto reader = Reader::from_memory(bytes);
  auto stats = inspect(*reader, InspectOptions{.count_duplicates = false});
  ASSERT_TRUE(stats.ok());
  EXPECT_FALSE(stats->duplicates_counted);
  EXPECT_EQ(stats->records_sharing_board, 0u);
}

TEST(Inspect, ManyBoardsGrowTheSet) {
  StatsAccumulator acc(selfplay_header());
  Record r = make(0, 1, 0, 0, {1});
  for (uint32_t i = 0; i < 300000; ++i) {
    std::memcpy(r.packed.data() + 4, &i, sizeof i);
    acc.add(r.view());
    if (i % 3 == 0) acc.add(r.view());  // a third of them twice
  }
  StreamStats s = acc.finish(0);
  EXPECT_EQ(s.records, 400000u);
  EXPECT_EQ(s.distinct_boards, 300000u);
  EXPECT_EQ(s.records_sharing_board, 200000u);
}

TEST(Inspect, EmptyStream) {
  std::vector<uint8_t> bytes = stream_of(Header{}, {});
  auto reader = Reader::from_memory(bytes);
  auto stats = inspect(*reader);
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->records, 0u);
  EXPECT_EQ(stats->cand_p50, 0u);
}

TEST(Inspect, HashDependsOnEveryByte) {
  std::vector<uint8_t> a(96, 0xFF);
  uint64_t h0 = hash_packed(a);
  for (size_t i = 0; i < a.size(); ++i) {
    std::vector<uint8_t> b = a;
    b[i] ^= 1;
    EXPECT_NE(hash_packed(b), h0) << i;
  }
}

}  // namespace
}  // namespace manaka::stream
