// The leaf writer (parquet/leaf_writer.h) against Arrow's writer, the
// oracle: the same columns written both ways give the same file, byte for
// byte, under the shard writer's settings and under the library's defaults,
// and so do the leaf writer's row groups encoded on several threads
// (WriteOptions::leaf_threads, parquet/ordered_sink.h).
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "../shard/os_fixture.h"
#include "column_views.h"
#include "scratch.h"
#include "parquet/writer.h"

namespace manaka::parquet {
namespace {

namespace fs = std::filesystem;

using testing::scratch;
using testing::slurp;

// Every fixed width the leaf writer widens or passes through, and a shard's
// candidates list (cp nullable).
std::vector<Field> leaf_fields() {
  Field cand = struct_of("element", {field("mv", Type::UInt16, false), field("prob", Type::Float, false),
                                     field("cp", Type::Int16, true)},
                         false);
  return {fixed_size_binary("packed", 96, false), field("ply", Type::UInt16, false),
          field("i8", Type::Int8, false),         field("u8", Type::UInt8, false),
          field("i16", Type::Int16, false),       field("u32", Type::UInt32, false),
          field("i64", Type::Int64, false),       field("u64", Type::UInt64, false),
          field("f64", Type::Double, false),      list_of("candidates", cand, false)};
}

// Rows whose candidates lists include empty ones; cp null in every row of
// rows [0, all_null_rows), then null on some candidates only.
struct LeafRows {
  int64_t rows;
  std::vector<uint8_t> packed;
  std::vector<uint16_t> ply;
  std::vector<int8_t> i8;
  std::vector<uint8_t> u8;
  std::vector<int16_t> i16;
  std::vector<uint32_t> u32;
  std::vector<int64_t> i64;
  std::vector<uint64_t> u64;
  std::vector<double> f64;
  std::vector<int32_t> offsets{0};
  std::vector<uint16_t> mv;
  std::vector<float> prob;
  std::vector<int16_t> cp;
  std::vector<uint8_t> cp_valid;
  int64_t cp_nulls = 0;

  LeafRows(int64_t n, int64_t all_null_rows, bool empty_lists, uint64_t seed) : rows(n) {
    std::mt19937_64 rng(seed);
    for (int64_t r = 0; r < n; ++r) {
      for (int i = 0; i < 96; ++i) packed.push_back(static_cast<uint8_t>(rng() % 7));
      ply.push_back(static_cast<uint16_t>(rng()));
      i8.push_back(static_cast<int8_t>(rng()));
      u8.push_back(static_cast<uint8_t>(rng()));
      i16.push_back(static_cast<int16_t>(rng()));
      u32.push_back(static_cast<uint32_t>(rng()));
      i64.push_back(static_cast<int64_t>(rng()));
      u64.push_back(rng());
      f64.push_back(static_cast<double>(rng() % 1000) / 7.0);
      const int64_t count = empty_lists && r % 9 == 4 ? 0 : static_cast<int64_t>(1 + rng() % 40);
      for (int64_t c = 0; c < count; ++c) {
        const size_t at = mv.size();
        mv.push_back(static_cast<uint16_t>(rng()));
        prob.push_back(static_cast<float>(rng() % 100) / 100.0f);
        if (cp_valid.size() <= at / 8) cp_valid.push_back(0);
        const bool null = r < all_null_rows || rng() % 3 == 0;
        cp.push_back(null ? int16_t{0} : static_cast<int16_t>(rng()));
        if (null) ++cp_nulls;
        else cp_valid[at / 8] = static_cast<uint8_t>(cp_valid[at / 8] | (1u << (at % 8)));
      }
      offsets.push_back(static_cast<int32_t>(mv.size()));
    }
  }

  std::vector<Column> columns() const {
    using testing::fixed_column;
    return {fixed_column(Type::FixedSizeBinary, rows, packed.data(), 96),
            fixed_column(Type::UInt16, rows, ply.data()),
            fixed_column(Type::Int8, rows, i8.data()),
            fixed_column(Type::UInt8, rows, u8.data()),
            fixed_column(Type::Int16, rows, i16.data()),
            fixed_column(Type::UInt32, rows, u32.data()),
            fixed_column(Type::Int64, rows, i64.data()),
            fixed_column(Type::UInt64, rows, u64.data()),
            fixed_column(Type::Double, rows, f64.data()),
            testing::candidates_column(rows, offsets.data(), static_cast<int64_t>(mv.size()), mv.data(), prob.data(),
                                       cp.data(), cp_valid.data(), cp_nulls)};
  }
};

// The shard writer's settings (shard/shard_writer.cpp), and the library's.
std::vector<WriteOptions> settings() {
  WriteOptions shard;
  shard.row_group_rows = 300;
  shard.no_dictionary = {"packed", "f64"};
  shard.byte_stream_split = {"candidates.list.element.mv", "candidates.list.element.prob"};
  shard.no_statistics = {"packed", "candidates.list.element.mv", "candidates.list.element.prob",
                         "candidates.list.element.cp"};
  shard.page_index = false;
  shard.size_statistics = false;
  shard.write_batch_rows = 300;
  shard.data_page_v2 = true;
  shard.data_page_bytes = 8 << 20;
  shard.footer = {{"set", "7"}};
  WriteOptions library;
  library.row_group_rows = 256;
  library.data_page_bytes = 4096;  // many pages a column chunk
  return {shard, library};
}

// How a file is written: by Arrow's writer; by the leaf writer on its own
// thread; with every row group's leaves spread over 3 threads; or spread
// over 2 for every other batch only (a file of both kinds of row group).
enum class Way { Arrow, Leaves, Spread, Mixed };

// The columns of rows [first, first + n): the fixed-width ones from an
// offset, the list by its own offsets (leaf_writer takes lists from offset
// 0: a view of the rows' offsets and candidates from that row on, the
// offsets kept in `offsets`).
std::vector<Column> batch_of(const LeafRows& rows, int64_t first, int64_t n, std::vector<int32_t>& offsets) {
  std::vector<Column> part = rows.columns();
  for (size_t c = 0; c + 1 < part.size(); ++c) {
    part[c].offset = first;
    part[c].length = n;
  }
  Column& list = part.back();
  const int32_t lo = rows.offsets[size_t(first)];
  offsets.clear();
  for (int64_t r = first; r <= first + n; ++r) offsets.push_back(rows.offsets[size_t(r)] - lo);
  list.offsets = offsets.data();
  list.length = n;
  Column& cand = list.children[0];
  cand.length = offsets.back();
  cand.children[0].values = rows.mv.data() + lo;
  cand.children[1].values = rows.prob.data() + lo;
  // cp: values and validity from candidate lo (a bitmap offset keeps its bits).
  cand.children[2].values = rows.cp.data();
  cand.children[2].offset = lo;
  int64_t nulls = 0;
  for (int64_t i = lo; i < lo + cand.length; ++i) nulls += !((rows.cp_valid[size_t(i / 8)] >> (i % 8)) & 1);
  cand.children[2].null_count = nulls;
  cand.children[2].length = cand.length;
  return part;
}

// The file written `way`, in batches of `batch` rows: its bytes.
std::string write_way(const LeafRows& rows, WriteOptions options, int64_t batch, Way way) {
  options.leaf_writer = way != Way::Arrow;
  options.leaf_threads = way == Way::Spread ? 3 : way == Way::Mixed ? 2 : 1;
  const fs::path path = scratch("way.parquet");
  auto w = ParquetFileWriter::open(path.string(), leaf_fields(), options);
  EXPECT_TRUE(w.ok()) << w.status().message();
  if (!w.ok()) return {};
  EXPECT_EQ((*w)->writes_leaves(), way != Way::Arrow);
  std::vector<int32_t> offsets;
  for (int64_t first = 0, k = 0; first < rows.rows; first += batch, ++k) {
    const int64_t n = std::min(batch, rows.rows - first);
    (*w)->set_leaf_spread(way == Way::Spread || (way == Way::Mixed && k % 2 == 1));
    Status st = (*w)->write(n, batch_of(rows, first, n, offsets));
    EXPECT_TRUE(st.ok()) << st.message();
  }
  EXPECT_TRUE((*w)->commit().ok());
  return slurp(path);
}

TEST(LeafWriter, WritesArrowsBytes) {
  int checked = 0;
  for (const WriteOptions& options : settings()) {
    for (bool empty_lists : {false, true}) {
      const LeafRows rows(1000, 400, empty_lists, 17 + empty_lists);
      for (int64_t batch : {int64_t{1000}, int64_t{300}, int64_t{77}}) {
        const std::string arrow_bytes = write_way(rows, options, batch, Way::Arrow);
        ASSERT_FALSE(arrow_bytes.empty());
        for (Way way : {Way::Leaves, Way::Spread, Way::Mixed}) {
          EXPECT_EQ(arrow_bytes, write_way(rows, options, batch, way))
              << "way " << static_cast<int>(way) << ", empty lists " << empty_lists << ", batches of " << batch
              << ", row groups of " << options.row_group_rows;
          ++checked;
        }
      }
    }
  }
  EXPECT_EQ(checked, 36);
}

TEST(LeafWriter, AFailureOnTheLeafThreadsIsTheOneReported) {
  // The file outgrows its size limit while a row group's leaves are placed
  // from three threads: the writer says why (the leaf whose write failed),
  // no thread waits for the turn of a leaf that was never placed, and no
  // file is left.
  const fs::path dir = scratch("limited");
  fs::create_directories(dir);
  manaka::testing::RemovedAtEnd cleanup{dir};
  const std::string path = (dir / "limited.parquet").string();
  const LeafRows rows(3000, 0, false, 5);
  WriteOptions options = settings()[0];
  options.leaf_threads = 3;
  Status st;
  {
    manaka::testing::FileSizeLimit limit(96 << 10);
    ASSERT_TRUE(limit.ok());
    auto w = ParquetFileWriter::open(path, leaf_fields(), options);
    ASSERT_TRUE(w.ok()) << w.status().message();
    (*w)->set_leaf_spread(true);
    std::vector<int32_t> offsets;
    st = (*w)->write(rows.rows, batch_of(rows, 0, rows.rows, offsets));
  }
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.kind(), ErrorKind::IO) << st.message();
  EXPECT_NE(st.message().find(": File too large"), std::string::npos) << st.message();
  EXPECT_FALSE(fs::exists(path));
  EXPECT_FALSE(fs::exists(temporary_path(path)));
}

TEST(LeafWriter, OtherLayoutsGoThroughArrow) {
  // A nullable column, a string, a nullable list: Arrow's writer.
  for (const std::vector<Field>& fields :
       {std::vector<Field>{field("a", Type::Int32, true)}, std::vector<Field>{field("s", Type::Utf8, false)},
        std::vector<Field>{list_of("l", struct_of("e", {field("x", Type::Int32, false)}, false), true)},
        std::vector<Field>{field("b", Type::Bool, false)}}) {
    auto w = ParquetFileWriter::open(scratch("other.parquet").string(), fields, WriteOptions{});
    ASSERT_TRUE(w.ok()) << w.status().message();
    EXPECT_FALSE((*w)->writes_leaves()) << fields[0].name;
  }
  auto w = ParquetFileWriter::open(scratch("leaves.parquet").string(), leaf_fields(), WriteOptions{});
  ASSERT_TRUE(w.ok());
  EXPECT_TRUE((*w)->writes_leaves());
}

}  // namespace
}  // namespace manaka::parquet
