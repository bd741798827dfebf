// find_shards (files, directories searched recursively, globs) and
// MixedStream (rows of several sets drawn by weight, in batches of any size),
// on sets of known boards written with small row groups, so batches straddle
// row groups and shards.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "../fold/mpk_fixture.h"
#include "shard/mixed_stream.h"
#include "shard/shard_sources.h"
#include "shard/shard_writer.h"

namespace manaka::shard {
namespace {

namespace fs = std::filesystem;

// Boards first .. first + n - 1, ply = id % 1000, under dir/name-NNNNN.parquet.
void write_set(const fs::path& dir, const std::string& name, uint32_t first, uint32_t n) {
  ShardWriterOptions o;
  o.prefix = (dir / name).string();
  o.rows_per_shard = 70;
  o.row_group_rows = 16;
  o.set_id = 0x77 + first;
  o.set_rows = n;
  auto w = ShardWriter::create(o);
  ASSERT_TRUE(w.ok()) << w.status().message();
  for (uint32_t id = first; id < first + n; ++id) {
    Row r;
    r.packed = testing::board(id);
    r.ply = uint16_t(id % 1000);
    r.weight = 1;
    r.mv = {testing::mv(20, 29)};
    r.prob = {1.0f};
    r.cp = {kNullCp};
    ASSERT_TRUE((*w)->append(r).ok());
  }
  ASSERT_TRUE((*w)->finish().ok());
}

struct Sets {
  fs::path root;
  std::vector<std::string> a, b;  // the files of set a (ids 0..199) and set b (ids 1000..1089)
};

Sets make_sets() {
  Sets s{testing::scratch_dir(), {}, {}};
  write_set(s.root / "x" / "a", "a", 0, 200);
  write_set(s.root / "y" / "deep" / "b", "b", 1000, 90);
  s.a = find_shards({(s.root / "x").string()})->files;
  s.b = find_shards({(s.root / "y").string()})->files;
  return s;
}

// (source, ply) of every row of every batch; ply identifies the board here.
std::vector<std::pair<int, int>> read_all(const std::vector<MixSource>& sources, MixOptions o,
                                          std::vector<int64_t>* sizes = nullptr) {
  auto m = MixedStream::open(sources, o);
  EXPECT_TRUE(m.ok()) << m.status().message();
  std::vector<std::pair<int, int>> out;
  MixedBatch batch;
  while (true) {
    auto more = (*m)->next(batch);
    EXPECT_TRUE(more.ok()) << more.status().message();
    if (!*more) break;
    if (sizes) sizes->push_back(batch.rows.rows);
    for (int64_t i = 0; i < batch.rows.rows; ++i) out.emplace_back(batch.source[size_t(i)], batch.rows.ply[size_t(i)]);
  }
  return out;
}

TEST(FindShards, SearchesDirectoriesRecursivelyAndLeavesOtherParquetOut) {
  Sets s = make_sets();
  EXPECT_EQ(s.a.size(), 3u);  // 200 rows at 70 a shard
  EXPECT_EQ(s.b.size(), 2u);
  auto all = find_shards({s.root.string()});
  ASSERT_TRUE(all.ok()) << all.status().message();
  EXPECT_EQ(all->files.size(), 5u);
  auto globbed = find_shards({(s.root / "*" / "deep").string()});
  ASSERT_TRUE(globbed.ok()) << globbed.status().message();
  EXPECT_EQ(globbed->files, s.b);
  auto twice = find_shards({s.root.string(), s.a[0]});
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.status().message().find("named twice"), std::string::npos) << twice.status().message();
  fs::create_directories(s.root / "empty");
  auto empty = find_shards({(s.root / "empty").string()});
  EXPECT_EQ(empty.status().message(), (s.root / "empty").string() + ": a directory without *.parquet files, at any depth");
}

TEST(MixedStream, EveryRowOfASourceOnceBeforeAnyRepeat) {
  Sets s = make_sets();
  MixOptions o;
  o.batch_size = 25;
  o.seed = 3;
  std::vector<int64_t> sizes;
  auto rows = read_all({{s.a, 3.0}, {s.b, 1.0}}, o, &sizes);
  for (size_t i = 0; i + 1 < sizes.size(); ++i) EXPECT_EQ(sizes[i], 25);
  std::map<int, std::vector<int>> by_source;
  for (auto [src, ply] : rows) by_source[src].push_back(ply);
  const size_t n[2] = {200, 90};
  for (int src : {0, 1}) {
    const auto& seq = by_source[src];
    ASSERT_GE(seq.size(), n[src]);
    std::set<int> first(seq.begin(), seq.begin() + ptrdiff_t(n[src]));
    EXPECT_EQ(first.size(), n[src]);  // a whole pass, no row twice
    for (int ply : seq) EXPECT_TRUE(src == 0 ? ply < 200 : ply < 90) << ply;
  }
  // The epoch ends as the last source finishes its first pass.
  EXPECT_TRUE(by_source[0].size() == n[0] || by_source[1].size() == n[1]);
  // 3:1 over the epoch.
  const double share = double(by_source[0].size()) / double(rows.size());
  EXPECT_NEAR(share, 0.75, 0.08);
}

TEST(MixedStream, StridesAndThreadsChangeNothing) {
  Sets s = make_sets();
  const std::vector<MixSource> sources{{s.a, 1.0}, {s.b, 2.0}};
  MixOptions o;
  o.batch_size = 9;
  o.seed = 11;
  o.threads = 1;
  const auto base = read_all(sources, o);
  o.threads = 3;
  EXPECT_EQ(read_all(sources, o), base);
  // Two workers' shares interleaved batch by batch are the whole stream.
  std::vector<std::pair<int, int>> merged;
  o.stride = 2;
  o.offset = 0;
  auto even = read_all(sources, o);
  o.offset = 1;
  auto odd = read_all(sources, o);
  for (size_t b = 0; b * 9 < even.size() + odd.size(); ++b) {
    const auto& part = b % 2 ? odd : even;
    const size_t at = (b / 2) * 9;
    for (size_t i = at; i < std::min(part.size(), at + 9); ++i) merged.push_back(part[i]);
  }
  EXPECT_EQ(merged, base);
}

TEST(MixedStream, UntilFirstSourceRepeatsNothingAndDropLastDrops) {
  Sets s = make_sets();
  MixOptions o;
  o.batch_size = 16;
  o.until = MixUntil::kFirstSource;
  o.drop_last = true;
  std::vector<int64_t> sizes;
  auto rows = read_all({{s.a, 1.0}, {s.b, 1.0}}, o, &sizes);
  std::set<std::pair<int, int>> unique(rows.begin(), rows.end());
  EXPECT_EQ(unique.size(), rows.size());
  for (int64_t n : sizes) EXPECT_EQ(n, 16);
  auto bad = MixedStream::open({{s.a, 0.0}}, o);
  EXPECT_FALSE(bad.ok());
}

}  // namespace
}  // namespace manaka::shard
