// ShardWriter and ShardReader: rows round-trip, temporaries, refusals.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "../fold/mpk_fixture.h"
#include "row_fixture.h"
#include "shard/schema.h"
#include "shard/shard_reader.h"
#include "shard/shard_writer.h"

namespace manaka::shard {
namespace {

namespace fs = std::filesystem;

ShardWriterOptions options(const fs::path& dir, uint64_t rows_per_shard, uint64_t set_rows) {
  ShardWriterOptions o;
  o.prefix = (dir / "sub" / "part").string();  // the directory is created
  o.rows_per_shard = rows_per_shard;
  o.footer = {{"pov", "0"}};
  o.set_id = 0xABCDEF;
  o.set_rows = set_rows;
  return o;
}

TEST(ShardIo, ShardPath) {
  EXPECT_EQ(shard_path("out/x", 0), "out/x-00000.parquet");
  EXPECT_EQ(shard_path("x", 12345), "x-12345.parquet");
  EXPECT_EQ(shard_path("x", 123456), "x-123456.parquet");
}

TEST(ShardIo, RowsRoundTrip) {
  auto dir = testing::scratch_dir();
  auto w = ShardWriter::create(options(dir, 10000, 12000));
  ASSERT_TRUE(w.ok()) << w.status().message();
  std::vector<Row> rows;
  for (uint32_t i = 0; i < 12000; ++i) {
    rows.push_back(testing::numbered_row(i, i % 2 == 0));  // cp null on odd rows
    ASSERT_TRUE((*w)->append(rows.back()).ok());
  }
  ASSERT_TRUE((*w)->finish().ok());
  ASSERT_EQ((*w)->shards().size(), 2u);
  EXPECT_EQ(testing::read_rows((*w)->shards()), rows);

  auto r = ShardReader::open((*w)->shards()[0]);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->num_rows(), 10000);
  EXPECT_EQ(r->num_row_groups(), 2);  // 8192 + 1808
  EXPECT_EQ(r->footer(), (FooterPairs{{"pov", "0"},
                                      {"manaka.set.id", "0000000000abcdef"},
                                      {"manaka.set.shard", "0"},
                                      {"manaka.set.shards", "2"},
                                      {"manaka.set.rows", "12000"}}));
  ShardColumns only;
  only.packed = only.value_z = only.value_q = only.weight = false;
  auto b = r->read_row_group(1, only);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->rows, 1808);
  EXPECT_TRUE(b->packed.empty());
  ASSERT_EQ(b->ply.size(), 1808u);
  EXPECT_EQ(b->ply[0], rows[8192].ply);
  ASSERT_EQ(b->cand_offsets.size(), 1809u);
  EXPECT_EQ(b->cand_offsets[1] - b->cand_offsets[0], static_cast<int64_t>(rows[8192].size()));
  EXPECT_FALSE(r->read_row_group(2).ok());
}

TEST(ShardIo, OnlyCompleteShardsHaveFinalNames) {
  auto dir = testing::scratch_dir();
  auto w = ShardWriter::create(options(dir, 100000, 9000));
  ASSERT_TRUE(w.ok());
  for (uint32_t i = 0; i < 9000; ++i) ASSERT_TRUE((*w)->append(testing::numbered_row(i, true)).ok());
  // One row group is out, the shard is not complete: only a temporary exists.
  const fs::path final_name = dir / "sub" / "part-00000.parquet";
  EXPECT_FALSE(fs::exists(final_name));
  const fs::path temp = final_name.string() + ".tmp-" + std::to_string(::getpid());
  // The writer thread opens it; give it a moment.
  for (int i = 0; i < 200 && !fs::exists(temp); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(fs::exists(temp));
  EXPECT_FALSE(fs::exists(final_name));
  w->reset();  // dies unfinished
  EXPECT_FALSE(fs::exists(temp));
  EXPECT_FALSE(fs::exists(final_name));
}

TEST(ShardIo, ForeignFileIsRefusedNamingTheColumn) {
  auto dir = testing::scratch_dir();
  const fs::path path = dir / "foreign.parquet";
  ASSERT_EQ(testing::run_python(dir,
      "import pyarrow as pa, pyarrow.parquet as pq\n"
      "t = pa.table({'packed': pa.array([b'x'], pa.binary()), 'ply': pa.array([1], pa.uint16())})\n"
      "pq.write_table(t, r'" + path.string() + "')\n"), 0);
  auto r = ShardReader::open(path.string());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("column 'packed' is binary, expected fixed_size_binary[96]"),
            std::string::npos)
      << r.status().message();
}

TEST(ShardIo, ShardsWrittenByPyarrowRead) {
  // Nullable columns and the default list element name "item" still read.
  auto dir = testing::scratch_dir();
  const fs::path path = dir / "py.parquet";
  ASSERT_EQ(testing::run_python(dir,
      "import pyarrow as pa, pyarrow.parquet as pq\n"
      "cand = pa.struct([('mv', pa.uint16()), ('prob', pa.float32()), ('cp', pa.int16())])\n"
      "t = pa.table({'packed': pa.array([bytes(range(96))], pa.binary(96)),\n"
      "  'ply': pa.array([7], pa.uint16()), 'value_z': pa.array([0.5], pa.float32()),\n"
      "  'value_q': pa.array([-0.5], pa.float32()), 'weight': pa.array([2], pa.uint32()),\n"
      "  'candidates': pa.array([[{'mv': 130, 'prob': 1.0, 'cp': None}]], pa.list_(cand))})\n"
      "pq.write_table(t, r'" + path.string() + "')\n"), 0);
  auto rows = testing::read_rows({path.string()});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].packed[95], 95);
  EXPECT_EQ(rows[0].ply, 7);
  EXPECT_EQ(rows[0].weight, 2u);
  EXPECT_EQ(rows[0].mv, (std::vector<uint16_t>{130}));
  EXPECT_EQ(rows[0].cp, (std::vector<int16_t>{kNullCp}));
}

}  // namespace
}  // namespace manaka::shard

namespace manaka::shard {
namespace {

// write_shards on 1 or 3 threads writes the bytes append() writes: row
// groups cut from each shard's first row, the last shard shorter.
TEST(ShardIo, WriteShardsGivesTheBytesOfAppend) {
  auto dir = testing::scratch_dir();
  const uint64_t n = 23000;
  std::vector<Row> rows;
  for (uint32_t i = 0; i < n; ++i) rows.push_back(testing::numbered_row(i, i % 3 != 0));
  auto o = options(dir / "append", 9000, n);
  auto a = ShardWriter::create(o);
  ASSERT_TRUE(a.ok());
  for (const Row& r : rows) ASSERT_TRUE((*a)->append(r).ok());
  ASSERT_TRUE((*a)->finish().ok());
  ASSERT_EQ((*a)->shards().size(), 3u);
  for (unsigned threads : {1u, 3u}) {
    auto p = ShardWriter::create(options(dir / ("t" + std::to_string(threads)), 9000, n));
    ASSERT_TRUE(p.ok());
    Status st = (*p)->write_shards(threads, [&](ShardSink& sink) {
      for (uint64_t i = sink.first_row(); i < sink.first_row() + sink.rows(); ++i)
        MANAKA_RETURN_NOT_OK(sink.append(rows[i]));
      return Status();
    });
    ASSERT_TRUE(st.ok()) << st.message();
    ASSERT_TRUE((*p)->finish().ok());
    ASSERT_EQ((*p)->shards().size(), 3u);
    for (size_t k = 0; k < 3; ++k)
      EXPECT_EQ(testing::slurp((*a)->shards()[k]), testing::slurp((*p)->shards()[k])) << threads << " threads";
  }
  // A fill that writes too few rows, or too many, fails and leaves no shard.
  for (int extra : {-1, 1}) {
    auto p = ShardWriter::create(options(dir / ("bad" + std::to_string(extra + 1)), 9000, n));
    ASSERT_TRUE(p.ok());
    Status st = (*p)->write_shards(2, [&](ShardSink& sink) {
      const uint64_t want = sink.rows() + (sink.shard() == 1 ? extra : 0);
      for (uint64_t i = 0; i < want; ++i) MANAKA_RETURN_NOT_OK(sink.append(rows[i]));
      return Status();
    });
    EXPECT_FALSE(st.ok());
    EXPECT_NE(st.message().find("part-00001.parquet"), std::string::npos) << st.message();
  }
}

}  // namespace
}  // namespace manaka::shard

namespace manaka::shard {
namespace {

// The direct decode (parquet's column reader into the batch): empty
// candidate lists, null and non-null cp within one row, row groups of
// several pages.
TEST(ShardIo, EmptyListsAndMixedNullCpRoundTrip) {
  auto dir = testing::scratch_dir();
  auto w = ShardWriter::create(options(dir, 30000, 30000));
  ASSERT_TRUE(w.ok()) << w.status().message();
  std::vector<Row> rows;
  for (uint32_t i = 0; i < 30000; ++i) {
    Row r = testing::numbered_row(i, true);
    if (i % 7 == 3) r.mv.clear(), r.prob.clear(), r.cp.clear();
    for (size_t c = 0; c < r.cp.size(); ++c)
      if ((i + c) % 3 == 0) r.cp[c] = kNullCp;
    rows.push_back(r);
    ASSERT_TRUE((*w)->append(rows.back()).ok());
  }
  ASSERT_TRUE((*w)->finish().ok());
  EXPECT_EQ(testing::read_rows((*w)->shards()), rows);
}

TEST(ShardIo, ARequiredCpReads) {
  // Every column required, cp too: the candidates' leaves have no null
  // level. Pages of 4 kB: a row group of each column spans many.
  auto dir = testing::scratch_dir();
  const fs::path path = dir / "required.parquet";
  ASSERT_EQ(testing::run_python(dir,
      "import pyarrow as pa, pyarrow.parquet as pq\n"
      "cand = pa.struct([pa.field('mv', pa.uint16(), False), pa.field('prob', pa.float32(), False),\n"
      "                  pa.field('cp', pa.int16(), False)])\n"
      "lists = pa.list_(pa.field('element', cand, False))\n"
      "schema = pa.schema([pa.field('packed', pa.binary(96), False), pa.field('ply', pa.uint16(), False),\n"
      "  pa.field('value_z', pa.float32(), False), pa.field('value_q', pa.float32(), False),\n"
      "  pa.field('weight', pa.uint32(), False), pa.field('candidates', lists, False)])\n"
      "n = 5000\n"
      "t = pa.table({'packed': pa.array([bytes([i % 256] * 96) for i in range(n)], pa.binary(96)),\n"
      "  'ply': pa.array([i % 900 for i in range(n)], pa.uint16()), 'value_z': pa.array([0.5] * n, pa.float32()),\n"
      "  'value_q': pa.array([i / n for i in range(n)], pa.float32()),\n"
      "  'weight': pa.array([i + 1 for i in range(n)], pa.uint32()),\n"
      "  'candidates': pa.array([[{'mv': 100 + c, 'prob': 0.5, 'cp': c - i % 5} for c in range(i % 4)]\n"
      "                         for i in range(n)], lists)}, schema=schema)\n"
      "pq.write_table(t, r'" + path.string() + "', row_group_size=2000, data_page_size=4096)\n"), 0);
  auto rows = testing::read_rows({path.string()});
  ASSERT_EQ(rows.size(), 5000u);
  for (uint32_t i = 0; i < 5000; ++i) {
    ASSERT_EQ(rows[i].packed[0], i % 256);
    ASSERT_EQ(rows[i].ply, i % 900);
    ASSERT_EQ(rows[i].weight, i + 1);
    ASSERT_EQ(rows[i].mv.size(), i % 4);
    for (uint32_t c = 0; c < i % 4; ++c) {
      ASSERT_EQ(rows[i].mv[c], 100 + c);
      ASSERT_EQ(rows[i].cp[c], static_cast<int>(c) - static_cast<int>(i % 5));
    }
  }
}

}  // namespace
}  // namespace manaka::shard
