// ShardStream: every row group of a list of shards, in order, whatever the
// thread count; only the columns asked for; a bad file fails at its place.
#include "shard/shard_stream.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <utility>

#include "../fold/mpk_fixture.h"
#include "row_fixture.h"
#include "shard/shard_writer.h"

namespace manaka::shard {
namespace {

namespace fs = std::filesystem;

// A set of `n` rows in shards of `per_shard`, written by append().
std::vector<std::string> write_set(const fs::path& dir, uint32_t n, uint64_t per_shard, std::vector<Row>& rows) {
  ShardWriterOptions o;
  o.prefix = (dir / "s").string();
  o.rows_per_shard = per_shard;
  o.row_group_rows = 1000;
  o.set_rows = n;
  auto w = ShardWriter::create(o);
  EXPECT_TRUE(w.ok());
  for (uint32_t i = 0; i < n; ++i) {
    rows.push_back(testing::numbered_row(i, i % 2 == 0));
    EXPECT_TRUE((*w)->append(rows.back()).ok());
  }
  EXPECT_TRUE((*w)->finish().ok());
  return (*w)->shards();
}

// With `give_back`, each batch's buffers go back to the stream's pool once
// read, as the Python binding's arrays do when freed.
std::vector<Row> read_all(const std::vector<std::string>& paths, const ShardStreamOptions& o,
                          std::vector<int64_t>* batch_rows = nullptr, bool give_back = false) {
  std::vector<Row> out;
  auto s = ShardStream::open(paths, o);
  EXPECT_TRUE(s.ok()) << s.status().message();
  if (!s.ok()) return out;
  ShardBatch b;
  while (true) {
    auto more = (*s)->next(b);
    EXPECT_TRUE(more.ok()) << more.status().message();
    if (!more.ok() || !*more) break;
    if (batch_rows) batch_rows->push_back(b.rows);
    for (int64_t i = 0; i < b.rows; ++i) out.push_back(b.row(i));
    if (give_back) (*s)->pool()->give(std::exchange(b, {}));
  }
  return out;
}

TEST(ShardStream, EveryRowInOrderForAnyThreadCount) {
  auto dir = testing::scratch_dir();
  std::vector<Row> rows;
  auto paths = write_set(dir, 23500, 7000, rows);  // 4 shards; groups of 1000, shorter at each shard's end
  ASSERT_EQ(paths.size(), 4u);
  std::vector<int64_t> sizes_one;
  ShardStreamOptions one;
  one.threads = 1;
  EXPECT_EQ(read_all(paths, one, &sizes_one), rows);
  for (unsigned threads : {2u, 3u, 8u}) {
    for (unsigned depth : {1u, 0u, 40u}) {
      ShardStreamOptions o;
      o.threads = threads;
      o.depth = depth;
      std::vector<int64_t> sizes;
      EXPECT_EQ(read_all(paths, o, &sizes), rows) << threads << " threads, depth " << depth;
      EXPECT_EQ(sizes, sizes_one);
    }
  }
  // Shards in another order come out in that order.
  std::vector<std::string> reversed(paths.rbegin(), paths.rend());
  std::vector<Row> expect;
  for (size_t k = 4; k-- > 0;)
    expect.insert(expect.end(), rows.begin() + static_cast<ptrdiff_t>(k * 7000),
                  rows.begin() + static_cast<ptrdiff_t>(std::min<size_t>((k + 1) * 7000, rows.size())));
  ShardStreamOptions three;
  three.threads = 3;
  EXPECT_EQ(read_all(reversed, three), expect);
}

TEST(ShardStream, GivenBackBuffersAreReusedAndTheRowsStayTheSame) {
  auto dir = testing::scratch_dir();
  std::vector<Row> rows;
  auto paths = write_set(dir, 23500, 7000, rows);
  for (unsigned threads : {1u, 3u}) {
    ShardStreamOptions o;
    o.threads = threads;
    EXPECT_EQ(read_all(paths, o, nullptr, true), rows) << threads << " threads";
  }
  // One thread, one batch ahead: a buffer given back is the next batch's
  // but one (the batch decoded ahead took its buffers before it came back).
  ShardStreamOptions o;
  o.threads = 1;
  o.depth = 1;
  auto s = ShardStream::open(paths, o);
  ASSERT_TRUE(s.ok());
  std::vector<const void*> given;
  int reused = 0, batches = 0;
  ShardBatch b;
  while (true) {
    auto more = (*s)->next(b);
    ASSERT_TRUE(more.ok());
    if (!*more) break;
    ++batches;
    reused += std::find(given.begin(), given.end(), b.packed.data()) != given.end();
    given.push_back(b.packed.data());
    (*s)->pool()->give(std::exchange(b, {}));
  }
  EXPECT_EQ(batches, 24);
  EXPECT_GE(reused, batches - 3);
}

TEST(ShardStream, OnlyTheColumnsAskedFor) {
  auto dir = testing::scratch_dir();
  std::vector<Row> rows;
  auto paths = write_set(dir, 3000, 2000, rows);
  ShardStreamOptions o;
  o.threads = 2;
  o.columns = ShardColumns{false, true, false, false, true, false};  // ply, weight
  auto s = ShardStream::open(paths, o);
  ASSERT_TRUE(s.ok());
  ShardBatch b;
  size_t at = 0;
  while (true) {
    auto more = (*s)->next(b);
    ASSERT_TRUE(more.ok());
    if (!*more) break;
    EXPECT_TRUE(b.packed.empty());
    EXPECT_TRUE(b.value_q.empty());
    EXPECT_TRUE(b.cand_offsets.empty() && b.mv.empty());
    ASSERT_EQ(b.ply.size(), static_cast<size_t>(b.rows));
    for (int64_t i = 0; i < b.rows; ++i, ++at) {
      EXPECT_EQ(b.ply[i], rows[at].ply);
      EXPECT_EQ(b.weight[i], rows[at].weight);
    }
  }
  EXPECT_EQ(at, rows.size());
}

TEST(ShardStream, ABadFileFailsAtItsPlaceNamingIt) {
  auto dir = testing::scratch_dir();
  std::vector<Row> rows;
  auto paths = write_set(dir, 5000, 2500, rows);
  const std::string bad = (dir / "bad.parquet").string();
  std::ofstream(bad) << "not parquet";
  auto s = ShardStream::open({paths[0], bad, paths[1]}, ShardStreamOptions{{}, 3, 0});
  ASSERT_TRUE(s.ok());
  ShardBatch b;
  int64_t got = 0;
  Status failure;
  for (int i = 0; i < 100; ++i) {
    auto more = (*s)->next(b);
    if (!more.ok()) {
      failure = more.status();
      break;
    }
    ASSERT_TRUE(*more) << "the stream ended without reaching the bad file";
    got += b.rows;
  }
  EXPECT_EQ(got, 2500);  // the first file, whole
  EXPECT_FALSE(failure.ok());
  EXPECT_NE(failure.message().find("bad.parquet"), std::string::npos) << failure.message();
  auto after = (*s)->next(b);  // the stream has ended
  ASSERT_TRUE(after.ok());
  EXPECT_FALSE(*after);
  // The first file is opened at open(): a bad one is refused there.
  EXPECT_FALSE(ShardStream::open({bad}, {}).ok());
}

}  // namespace
}  // namespace manaka::shard
