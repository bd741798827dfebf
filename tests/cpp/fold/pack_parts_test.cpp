// pack --buckets as tasks (fold/pack_parts.h): map per stream, fold per
// bucket, plan, write per shard range, against pack() --buckets on one
// machine, byte for byte.
#include "fold/pack_parts.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <utility>

#include "fold/spool.h"
#include "mpk_fixture.h"
#include "shard/shard_writer.h"

namespace manaka::fold {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> files_in(const fs::path& dir, const std::string& prefix) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string n = e.path().filename().string();
    if (n.rfind(prefix + "-", 0) == 0) out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(PackParts, MapFoldPlanWriteGiveTheBytesOfPack) {
  const auto dir = testing::scratch_dir();
  constexpr uint32_t kBuckets = 5;
  for (bool teacher : {true, false}) {
    // Two streams, so a first-set spool is two map parts; boards repeat
    // across them (same generator seed), so folds join records of both.
    const auto header = teacher ? testing::teacher_header() : testing::selfplay_header();
    const std::vector<std::string> streams = {(dir / "a.mpk").string(), (dir / "b.mpk").string()};
    testing::write_stream(streams[0], header, testing::synthetic_records(9000, teacher, 7));
    testing::write_stream(streams[1], header, testing::synthetic_records(6000, teacher, 7));

    PackOptions o;
    o.progress = false;
    o.buckets = kBuckets;
    o.seed = 11;
    o.rows_per_shard = 2500;  // several shards, spools straddling them
    o.overwrite = true;
    o.threads = 2;
    o.prefix = (dir / "local").string();
    auto local = pack(streams, o);
    ASSERT_TRUE(local.ok()) << local.status().message();

    // map: one task per stream, each into its own directory.
    PackPlan plan;
    plan.spool_rows.assign(kBuckets, 0);
    std::vector<std::string> map_dirs;
    for (size_t m = 0; m < streams.size(); ++m) {
      map_dirs.push_back((dir / ("map" + std::to_string(m))).string());
      auto r = pack_map(streams, m, map_dirs.back(), kBuckets);
      ASSERT_TRUE(r.ok()) << r.status().message();
      plan.records += r->records;
      plan.fingerprint += r->fingerprint;
    }
    EXPECT_EQ(plan.records, 15000u);
    // fold: one task per bucket, its parts in map order.
    std::vector<std::vector<std::string>> parts(kBuckets);
    for (uint32_t i = 0; i < kBuckets; ++i) {
      std::vector<std::string> in;
      for (const auto& d : map_dirs) in.push_back(spool_path(d, 'a', i, "mpk"));
      const std::string out = (dir / ("fold" + std::to_string(i))).string();
      auto rows = pack_fold(streams, in, i, out, o);
      ASSERT_TRUE(rows.ok()) << rows.status().message();
      ASSERT_EQ(rows->size(), kBuckets);
      for (uint32_t j = 0; j < kBuckets; ++j) {
        plan.spool_rows[j] += (*rows)[j];
        parts[j].push_back(spool_path(out, 'b', j, "rows"));
      }
    }
    // plan + write: the shards in two ranges, as two tasks would.
    uint64_t rows = 0;
    for (uint64_t r : plan.spool_rows) rows += r;
    EXPECT_EQ(rows, local->rows_out);
    const uint64_t shards = shard::shard_count(rows, o.rows_per_shard);
    ASSERT_GE(shards, 4u);
    PackOptions w = o;
    w.prefix = (dir / "tasks").string();
    uint64_t written = 0;
    for (auto [first, end] : {std::pair<uint64_t, uint64_t>{0, 2}, {2, shards}}) {
      auto s = pack_write(streams, parts, plan, first, end, w);
      ASSERT_TRUE(s.ok()) << s.status().message();
      written += s->rows_out;
    }
    EXPECT_EQ(written, rows);

    const auto want = files_in(dir, "local"), got = files_in(dir, "tasks");
    ASSERT_EQ(want.size(), shards);
    ASSERT_EQ(got.size(), shards);
    for (size_t k = 0; k < shards; ++k) {
      EXPECT_EQ(testing::slurp(want[k]), testing::slurp(got[k]))
          << got[k] << (teacher ? " teacher" : " self-play");
    }
    // The tasks keep their inputs (their caller removes them); the local run's spools are gone.
    for (const auto& d : map_dirs) EXPECT_TRUE(fs::exists(spool_path(d, 'a', 0, "mpk")));
    for (const auto& e : fs::directory_iterator(dir)) {
      EXPECT_EQ(e.path().filename().string().rfind(".manaka-pack-", 0), std::string::npos) << e.path();
    }
    for (const auto& e : fs::directory_iterator(dir)) {
      if (e.is_directory()) fs::remove_all(e.path());
    }
    for (const auto& f : want) fs::remove(f);
    for (const auto& f : got) fs::remove(f);
  }
}

}  // namespace
}  // namespace manaka::fold
