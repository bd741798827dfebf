// shard::load_set / write_set: a set written again by the writer alone is
// byte for byte the set pack's writer wrote, on any thread count.
#include <gtest/gtest.h>

#include "../fold/mpk_fixture.h"
#include "row_fixture.h"
#include "shard/rewrite.h"
#include "shard/row_group.h"
#include "shard/shard_writer.h"

namespace manaka::shard {
namespace {

namespace fs = std::filesystem;

// A set as pack leaves one: 20,000 rows in shards of 9,000 and a last of 2,000.
std::vector<std::string> written_set(const fs::path& dir, const std::string& pov) {
  ShardWriterOptions o;
  o.prefix = (dir / "orig").string();
  o.rows_per_shard = 9000;
  o.footer = {{"pov", pov}, {"seed", "7"}};
  o.set_id = 0x1234;
  o.set_rows = 20000;
  auto w = ShardWriter::create(std::move(o));
  EXPECT_TRUE(w.ok());
  for (uint32_t i = 0; i < 20000; ++i) EXPECT_TRUE((*w)->append(testing::numbered_row(i, i % 2 == 0)).ok());
  EXPECT_TRUE((*w)->finish().ok());
  return (*w)->shards();
}

TEST(Rewrite, WritesTheSetsOwnBytes) {
  auto dir = testing::scratch_dir();
  const auto orig = written_set(dir, "0");
  ASSERT_EQ(orig.size(), 3u);
  auto set = load_set(orig);
  ASSERT_TRUE(set.ok()) << set.status().message();
  EXPECT_EQ(set->rows, 20000u);
  EXPECT_EQ(set->rows_per_shard, 9000u);
  EXPECT_EQ(set->set_id, 0x1234u);
  EXPECT_EQ(set->groups.size(), 5u);  // 8192 + 808, twice, and 2000
  for (unsigned threads : {1u, 2u, 3u}) {
    const std::string prefix = (dir / ("again" + std::to_string(threads))).string();
    Status st = write_set(*set, prefix, threads);
    ASSERT_TRUE(st.ok()) << st.message();
    for (size_t k = 0; k < orig.size(); ++k)
      EXPECT_EQ(testing::slurp(orig[k]), testing::slurp(shard_path(prefix, k))) << threads << " threads, shard " << k;
  }
}

TEST(Rewrite, RefusesWhatItCouldNotWriteBack) {
  auto dir = testing::scratch_dir();
  // pov 1: the reader flips White's values, so they cannot be written back as read.
  const auto flipped = written_set(dir / "pov1", "1");
  auto refused = load_set(flipped);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("pov 1"), std::string::npos) << refused.status().message();
  EXPECT_NE(refused.status().message().find(flipped[0]), std::string::npos);
  // Shards out of order: a short shard before a full one is no set pack writes.
  const auto orig = written_set(dir / "pov0", "0");
  auto mixed = load_set({orig[2], orig[0]});
  ASSERT_FALSE(mixed.ok());
  EXPECT_NE(mixed.status().message().find(orig[0]), std::string::npos) << mixed.status().message();
}

TEST(Rewrite, ASinkTakesOnlyGroupsAtTheirBoundaries) {
  auto dir = testing::scratch_dir();
  ShardWriterOptions o;
  o.prefix = (dir / "g").string();
  o.rows_per_shard = 9000;
  o.set_rows = 9000;
  auto w = ShardWriter::create(std::move(o));
  ASSERT_TRUE(w.ok());
  auto group_of = [](uint32_t from, uint32_t n) {
    RowGroupBuffer b;
    for (uint32_t i = from; i < from + n; ++i) b.append(testing::numbered_row(i, i % 2 == 0));
    return std::shared_ptr<const RowGroupColumns>(std::move(b.take_columns()).value());
  };
  Status st = (*w)->write_shards(1, [&](ShardSink& sink) {
    // 100 rows where a group of 8192 belongs: refused, naming the shard.
    Status short_group = sink.append_group(group_of(0, 100));
    EXPECT_FALSE(short_group.ok());
    EXPECT_NE(short_group.message().find("g-00000.parquet"), std::string::npos) << short_group.message();
    MANAKA_RETURN_NOT_OK(sink.append_group(group_of(0, 8192)));
    // 900 rows past the shard's end.
    EXPECT_FALSE(sink.append_group(group_of(8192, 900)).ok());
    return sink.append_group(group_of(8192, 808));
  });
  ASSERT_TRUE(st.ok()) << st.message();
  ASSERT_TRUE((*w)->finish().ok());
  EXPECT_EQ(testing::read_rows((*w)->shards()).size(), 9000u);
}

}  // namespace
}  // namespace manaka::shard
