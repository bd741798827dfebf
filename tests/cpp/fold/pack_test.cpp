// pack() end to end: streams in, shards out (fold/pack.h).
#include "fold/pack.h"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <map>

#include "../core/dead_pid.h"
#include "mpk_fixture.h"
#include "shard/inspect.h"
#include "shard/shard_reader.h"

namespace manaka::fold {
namespace {

namespace fs = std::filesystem;
using testing::by_cp;
using testing::by_visits;
using testing::mv;
using testing::TestRecord;

PackOptions options_for(const fs::path& dir, const std::string& name = "out") {
  PackOptions o;
  o.prefix = (dir / name).string();
  o.progress = false;
  return o;
}

std::vector<std::string> files_in(const fs::path& dir, const std::string& prefix) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::string n = e.path().filename().string();
    if (n.rfind(prefix + "-", 0) == 0) out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(Pack, DuplicatedMoveInARecordIsRefused) {
  auto dir = testing::scratch_dir();
  const std::string s = (dir / "dup.mpk").string();
  testing::write_stream(s, testing::teacher_header(),
                        {{1, 0, 0.0f, 0.0f, {by_cp(mv(1, 2), 10)}},
                         {2, 0, 0.0f, 0.0f, {by_cp(mv(1, 2), 10), by_cp(mv(3, 4), 5), by_cp(mv(1, 2), 9)}}});
  for (uint32_t buckets : {0u, 4u}) {
    auto o = options_for(dir);
    o.buckets = buckets;
    auto res = pack({s}, o);
    ASSERT_FALSE(res.ok());
    const std::string& msg = res.status().message();
    EXPECT_NE(msg.find(s + ": record 1 at byte"), std::string::npos) << msg;
    EXPECT_NE(msg.find("mv 0x0082 is listed twice (candidates 0 and 2)"), std::string::npos) << msg;
    EXPECT_TRUE(files_in(dir, "out").empty());
    for (const auto& e : fs::directory_iterator(dir)) {
      EXPECT_EQ(e.path().filename().string().rfind(".manaka-pack-", 0), std::string::npos)
          << "spool directory left behind: " << e.path();
    }
  }
}

TEST(Pack, TemperatureChangesProbAndNothingElse) {
  auto dir = testing::scratch_dir();
  const std::string s = (dir / "t.mpk").string();
  testing::write_stream(s, testing::teacher_header(), testing::synthetic_records(3000, true));
  auto hot = options_for(dir, "hot"), cold = options_for(dir, "cold");
  hot.temperature = 100;
  cold.temperature = 37.5;
  ASSERT_TRUE(pack({s}, hot).ok());
  ASSERT_TRUE(pack({s}, cold).ok());
  auto a = testing::read_rows(files_in(dir, "hot")), b = testing::read_rows(files_in(dir, "cold"));
  ASSERT_EQ(a.size(), b.size());
  size_t prob_differs = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].packed, b[i].packed);
    EXPECT_EQ(a[i].ply, b[i].ply);
    EXPECT_EQ(a[i].value_z, b[i].value_z);
    EXPECT_EQ(a[i].value_q, b[i].value_q);
    EXPECT_EQ(a[i].weight, b[i].weight);
    EXPECT_EQ(a[i].mv, b[i].mv);
    EXPECT_EQ(a[i].cp, b[i].cp);
    prob_differs += a[i].prob != b[i].prob;
  }
  EXPECT_GT(prob_differs, a.size() / 2);
  auto footer = [](const std::string& f) {
    return shard::ShardReader::open(f)->footer();
  };
  auto fa = footer(files_in(dir, "hot")[0]), fb = footer(files_in(dir, "cold")[0]);
  ASSERT_EQ(fa.size(), fb.size());
  for (size_t i = 0; i < fa.size(); ++i) {
    if (fa[i].first == "temperature") {
      EXPECT_EQ(fa[i].second, "100");
      EXPECT_EQ(fb[i].second, "37.5");
    } else if (fa[i].first == "manaka.set.id") {
      EXPECT_NE(fa[i].second, fb[i].second);  // the rows differ, so do the sets
    } else {
      EXPECT_EQ(fa[i], fb[i]);
    }
  }
}

TEST(Pack, SameSeedSameBytes) {
  auto dir = testing::scratch_dir();
  const std::string s = (dir / "s.mpk").string();
  testing::write_stream(s, testing::selfplay_header(), testing::synthetic_records(20000, false));
  for (uint32_t buckets : {0u, 8u}) {
    const std::string k = std::to_string(buckets);
    auto a = options_for(dir, "a" + k), b = options_for(dir, "b" + k), c = options_for(dir, "c" + k);
    a.buckets = b.buckets = c.buckets = buckets;
    a.seed = b.seed = 11;
    c.seed = 12;
    a.rows_per_shard = b.rows_per_shard = c.rows_per_shard = 9000;
    ASSERT_TRUE(pack({s}, a).ok());
    ASSERT_TRUE(pack({s}, b).ok());
    ASSERT_TRUE(pack({s}, c).ok());
    auto fa = files_in(dir, "a" + k), fb = files_in(dir, "b" + k), fc = files_in(dir, "c" + k);
    ASSERT_EQ(fa.size(), 3u);
    ASSERT_EQ(fb.size(), 3u);
    for (size_t i = 0; i < fa.size(); ++i) {
      EXPECT_EQ(testing::slurp(fa[i]), testing::slurp(fb[i])) << "buckets " << buckets;
    }
    EXPECT_NE(testing::slurp(fa[0]), testing::slurp(fc[0]));
  }
}

// Shards are encoded, and the in-memory fold split by board hash, on several
// threads at once; the bytes may not depend on how many. Shard sizes that are not a multiple of the row group, and
// spools that straddle shards, are the cases a thread split could get wrong.
TEST(Pack, ThreadCountDoesNotChangeTheBytes) {
  auto dir = testing::scratch_dir();
  for (bool teacher : {true, false}) {
    // Two streams whose boards overlap (the same generator), so folded
    // groups span streams and the fold's parts must number records across them.
    const std::string s = (dir / "in.mpk").string(), s2 = (dir / "in2.mpk").string();
    testing::write_stream(s, teacher ? testing::teacher_header() : testing::selfplay_header(),
                          testing::synthetic_records(30000, teacher));
    testing::write_stream(s2, teacher ? testing::teacher_header() : testing::selfplay_header(),
                          testing::synthetic_records(4000, teacher));
    // 7000 rows a shard: more shards than threads; 2^20: one shard, whose
    // row groups' leaves are then encoded on the spare threads.
    for (auto [buckets, per_shard] : {std::pair{0u, uint64_t{7000}}, std::pair{5u, uint64_t{7000}},
                                      std::pair{0u, uint64_t{1} << 20}}) {
      std::vector<std::string> sets[2];
      PackSummary summaries[2];
      for (unsigned threads : {1u, 3u}) {
        const std::string name = "t" + std::to_string(threads);
        auto o = options_for(dir, name);
        o.buckets = buckets;
        o.threads = threads;
        o.seed = 3;
        o.rows_per_shard = per_shard;
        o.overwrite = true;
        auto r = pack({s, s2}, o);
        ASSERT_TRUE(r.ok()) << r.status().message();
        summaries[threads == 3] = *r;
        sets[threads == 3] = files_in(dir, name);
      }
      ASSERT_EQ(sets[0].size(), sets[1].size());
      if (per_shard == 7000) EXPECT_GE(sets[0].size(), 4u);
      else EXPECT_EQ(sets[0].size(), 1u);
      EXPECT_EQ(summaries[0].rows_out, summaries[1].rows_out);
      EXPECT_EQ(summaries[0].folded_rows, summaries[1].folded_rows);
      EXPECT_EQ(summaries[0].folded_records, summaries[1].folded_records);
      EXPECT_GT(summaries[0].folded_rows, 1000u);  // groups of several records, across the streams too
      for (size_t i = 0; i < sets[0].size(); ++i) {
        EXPECT_EQ(testing::slurp(sets[0][i]), testing::slurp(sets[1][i]))
            << sets[1][i] << (teacher ? " teacher" : " self-play") << ", buckets " << buckets;
      }
      // And the rows are the set's: every one, once.
      EXPECT_EQ(testing::read_rows(sets[1]).size(), summaries[1].rows_out);
    }
  }
}

TEST(Pack, BucketsGiveTheSameRowsAsInMemory) {
  auto dir = testing::scratch_dir();
  for (bool teacher : {true, false}) {
    const std::string s = (dir / "in.mpk").string();
    testing::write_stream(s, teacher ? testing::teacher_header() : testing::selfplay_header(),
                          testing::synthetic_records(30000, teacher));
    auto mem = options_for(dir, "mem"), bkt = options_for(dir, "bkt");
    bkt.buckets = 8;
    mem.overwrite = bkt.overwrite = true;  // the second round replaces the first
    auto rm = pack({s}, mem);
    auto rb = pack({s}, bkt);
    ASSERT_TRUE(rm.ok()) << rm.status().message();
    ASSERT_TRUE(rb.ok()) << rb.status().message();
    EXPECT_EQ(rm->records_in, 30000u);
    EXPECT_EQ(rb->records_in, 30000u);
    EXPECT_EQ(rm->rows_out, rb->rows_out);
    EXPECT_EQ(rm->folded_rows, rb->folded_rows);
    EXPECT_GT(rm->folded_rows, 1000u);
    auto a = testing::read_rows(files_in(dir, "mem")), b = testing::read_rows(files_in(dir, "bkt"));
    ASSERT_EQ(a.size(), rm->rows_out);
    EXPECT_NE(a, b);  // different orders...
    EXPECT_TRUE(testing::sorted(a) == testing::sorted(b)) << (teacher ? "teacher" : "self-play");
  }
}

TEST(Pack, RowsLeaveShuffled) {
  // The records arrive in rising ply; unshuffled rows would put the block
  // statistic in the tens.
  auto dir = testing::scratch_dir();
  const std::string s = (dir / "in.mpk").string();
  auto recs = testing::synthetic_records(48000, false);
  testing::write_stream(s, testing::selfplay_header(), recs);
  std::vector<uint16_t> input_ply;
  for (const auto& r : recs) input_ply.push_back(r.ply);
  EXPECT_GT(shard::block_statistic(input_ply).ratio, 10.0);
  for (uint32_t buckets : {0u, 16u}) {
    const std::string name = buckets == 0 ? "mem" : "bkt";
    auto o = options_for(dir, name);
    o.buckets = buckets;
    ASSERT_TRUE(pack({s}, o).ok());
    auto rep = shard::inspect_shards(files_in(dir, name));
    ASSERT_TRUE(rep.ok());
    EXPECT_EQ(rep->blocks.blocks, 24);
    EXPECT_NEAR(rep->blocks.ratio, 1.0, 0.5) << "buckets " << buckets;
  }
}

TEST(Pack, ShardsRowGroupsAndStaleShards) {
  auto dir = testing::scratch_dir();
  const std::string s = (dir / "in.mpk").string();
  testing::write_stream(s, testing::selfplay_header(), testing::synthetic_records(20000, false));
  auto o = options_for(dir);
  o.rows_per_shard = 5000;
  auto first = pack({s}, o);
  ASSERT_TRUE(first.ok());
  const uint64_t rows = first->rows_out;
  ASSERT_EQ(first->shards.size(), (rows + 4999) / 5000);
  EXPECT_EQ(first->shards[0], (dir / "out-00000.parquet").string());
  auto r0 = shard::ShardReader::open(first->shards[0]);
  EXPECT_EQ(r0->num_rows(), 5000);
  EXPECT_EQ(r0->num_row_groups(), 1);

  o.rows_per_shard = 17000;  // > 8192: two full row groups and a remainder
  o.overwrite = true;
  auto second = pack({s}, o);
  ASSERT_TRUE(second.ok());
  ASSERT_EQ(second->shards.size(), 2u);
  EXPECT_EQ(second->removed_stale.size(), first->shards.size() - 2);
  EXPECT_EQ(files_in(dir, "out"), second->shards);  // nothing stale, nothing temporary
  auto r1 = shard::ShardReader::open(second->shards[0]);
  ASSERT_EQ(r1->num_row_groups(), 3);
  EXPECT_EQ(r1->row_group_rows(0), 8192);
  EXPECT_EQ(r1->row_group_rows(1), 8192);
  EXPECT_EQ(r1->row_group_rows(2), 17000 - 2 * 8192);
  EXPECT_TRUE(fs::exists(s));  // the stream is never deleted
}

TEST(Pack, SpoolsLiveInTheSpoolDirAndGo) {
  auto dir = testing::scratch_dir();
  const std::string s = (dir / "in.mpk").string();
  testing::write_stream(s, testing::teacher_header(), testing::synthetic_records(5000, true));
  const auto size = fs::file_size(s);
  fs::create_directories(dir / "spool");
  auto o = options_for(dir);
  o.buckets = 3;
  o.spool_dir = (dir / "spool").string();
  auto res = pack({s}, o);
  ASSERT_TRUE(res.ok()) << res.status().message();
  EXPECT_TRUE(fs::is_empty(dir / "spool"));
  EXPECT_EQ(fs::file_size(s), size);
  o.spool_dir = (dir / "missing" / "spool").string();
  o.overwrite = true;
  auto bad = pack({s}, o);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("missing"), std::string::npos) << bad.status().message();
}

TEST(Pack, LeftoversOfAKilledRunAreRemoved) {
  auto dir = testing::scratch_dir();
  const std::string s = (dir / "in.mpk").string();
  testing::write_stream(s, testing::teacher_header(), testing::synthetic_records(100, true));
  const std::string pid = std::to_string(testing::dead_pid());
  const fs::path temp = dir / ("out-00004.parquet.tmp-" + pid);
  const fs::path spools = dir / (".manaka-pack-" + pid + "-AbCdEf");
  const fs::path live = dir / ("out-00004.parquet.tmp-" + std::to_string(::getppid()));
  std::ofstream(temp) << "partial";
  std::ofstream(live) << "someone else's, still running";
  fs::create_directories(spools);
  std::ofstream(spools / "spool-a-0000.mpk") << "x";
  auto o = options_for(dir);
  o.buckets = 2;
  auto res = pack({s}, o);
  ASSERT_TRUE(res.ok()) << res.status().message();
  EXPECT_FALSE(fs::exists(temp));
  EXPECT_FALSE(fs::exists(spools));
  EXPECT_TRUE(fs::exists(live));
  EXPECT_EQ(res->removed_stale, std::vector<std::string>{temp.string()});
}

TEST(Pack, EmptyStreamWritesOneEmptyShard) {
  auto dir = testing::scratch_dir();
  const std::string s = (dir / "empty.mpk").string();
  testing::write_stream(s, testing::teacher_header(), {});
  auto res = pack({s}, options_for(dir));
  ASSERT_TRUE(res.ok()) << res.status().message();
  EXPECT_EQ(res->rows_out, 0u);
  ASSERT_EQ(res->shards.size(), 1u);
  auto r = shard::ShardReader::open(res->shards[0]);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->num_rows(), 0);
  EXPECT_FALSE(r->footer().empty());
}

TEST(Pack, BadOptionsAreRefused) {
  auto dir = testing::scratch_dir();
  const std::string s = (dir / "a.mpk").string();
  testing::write_stream(s, testing::teacher_header(), {});
  auto o = options_for(dir);
  o.temperature = 0;
  EXPECT_FALSE(pack({s}, o).ok());
  o.temperature = NAN;
  EXPECT_FALSE(pack({s}, o).ok());
  o = options_for(dir);
  o.rows_per_shard = 0;
  EXPECT_FALSE(pack({s}, o).ok());
  o = options_for(dir);
  auto missing = pack({(dir / "nope.mpk").string()}, o);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("nope.mpk"), std::string::npos);
}

TEST(Pack, VisitCountsPast16BitsKeepTheirShare) {
  // Counts from 1 to 200,000, a third of them 65535 or more, on boards some
  // of which repeat: each row's prob is its summed visits over their total,
  // in memory (where a lone record's row is written in place) and by buckets.
  auto dir = testing::scratch_dir();
  const std::string s = (dir / "wide.mpk").string();
  std::vector<TestRecord> records;
  std::map<uint32_t, std::map<uint16_t, uint64_t>> visits;  // board -> mv -> summed visits
  for (uint32_t i = 0; i < 3000; ++i) {
    TestRecord r;
    r.board_id = i % 5 == 0 ? i % 100 : i + 1000;
    for (uint32_t c = 0; c < 1 + i % 4; ++c) {
      const uint16_t m = mv(static_cast<int>(c), static_cast<int>((i + c) % 81));
      const uint32_t v = 1 + (i * 7919u + c * 104729u) % 200000u;
      r.cands.push_back(by_visits(m, v));
      visits[r.board_id][m] += v;
    }
    records.push_back(std::move(r));
  }
  testing::write_stream(s, testing::selfplay_header(), records);
  std::map<std::array<uint8_t, 96>, uint32_t> board_id;
  for (const auto& [id, moves] : visits) board_id[testing::board(id)] = id;
  for (uint32_t buckets : {0u, 4u}) {
    auto o = options_for(dir, "b" + std::to_string(buckets));
    o.buckets = buckets;
    auto res = pack({s}, o);
    ASSERT_TRUE(res.ok()) << res.status().message();
    const auto rows = testing::read_rows(files_in(dir, "b" + std::to_string(buckets)));
    ASSERT_EQ(rows.size(), visits.size());
    size_t wide = 0;
    for (const auto& row : rows) {
      const auto it = board_id.find(row.packed);
      ASSERT_NE(it, board_id.end());
      const uint32_t id = it->second;
      uint64_t total = 0;
      for (const auto& [m, v] : visits[id]) total += v;
      ASSERT_EQ(row.mv.size(), visits[id].size());
      for (size_t k = 0; k < row.mv.size(); ++k) {
        const uint64_t v = visits[id].at(row.mv[k]);
        wide += v >= 65535;
        EXPECT_FLOAT_EQ(row.prob[k], static_cast<float>(static_cast<double>(v) / static_cast<double>(total)))
            << "board " << id << " move " << row.mv[k] << " (--buckets " << buckets << ")";
      }
    }
    EXPECT_GT(wide, 1000u);
  }
}

TEST(Pack, SummaryCountsFoldedRows) {
  auto dir = testing::scratch_dir();
  const std::string s = (dir / "a.mpk").string();
  testing::write_stream(s, testing::selfplay_header(),
                        {{1, 0, 1, 0, {by_visits(mv(1, 2), 1)}},
                         {1, 0, 1, 0, {by_visits(mv(1, 2), 1)}},
                         {1, 0, 1, 0, {by_visits(mv(1, 2), 1)}},
                         {2, 0, 1, 0, {by_visits(mv(1, 2), 1)}}});
  auto res = pack({s}, options_for(dir));
  ASSERT_TRUE(res.ok());
  EXPECT_EQ(res->records_in, 4u);
  EXPECT_EQ(res->rows_out, 2u);
  EXPECT_EQ(res->folded_rows, 1u);
  EXPECT_EQ(res->folded_records, 3u);
  std::string text = format_summary(*res);
  EXPECT_NE(text.find("4 records in, 2 rows out, 1 shard"), std::string::npos) << text;
  EXPECT_NE(text.find("folded: 1 rows (50.00% of rows) from 3 records (75.00% of records)"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace manaka::fold
