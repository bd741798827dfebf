// The parquet adapter against pyarrow, the oracle: Arrow and Parquet come from
// the pyarrow wheel, and these tests prove the link (same C++ ABI, same
// libarrow) by crossing files with pyarrow itself, through manaka's plain
// column types only.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "column_views.h"
#include "scratch.h"
#include "parquet/column_builder.h"
#include "parquet/reader.h"
#include "parquet/writer.h"

namespace manaka::parquet {
namespace {

namespace fs = std::filesystem;

using testing::scratch;

// Runs a Python snippet with the interpreter whose pyarrow we link; returns its exit status.
int run_python(const std::string& code) {
  fs::path script = scratch("check.py");
  std::ofstream(script) << code;
  std::string cmd = std::string("\"") + MANAKA_PYTHON + "\" " + script.string();
  return std::system(cmd.c_str());
}

// packed fixed_size_binary[96], ply uint16, candidates list<struct<mv, prob, cp>>,
// name utf8 (null on every third row), flag bool.
std::vector<Field> sample_fields() {
  Field cand = struct_of("item", {field("mv", Type::UInt16), field("prob", Type::Float), field("cp", Type::Int16)});
  return {fixed_size_binary("packed", 96), field("ply", Type::UInt16), list_of("candidates", cand),
          field("name", Type::Utf8), field("flag", Type::Bool)};
}

// Owned buffers of sample rows, and their views.
struct SampleRows {
  std::vector<uint8_t> packed;
  std::vector<uint16_t> ply, mv;
  std::vector<int32_t> offsets{0};
  std::vector<float> prob;
  std::vector<int16_t> cp;
  std::vector<uint8_t> cp_valid;
  int64_t cp_nulls = 0;
  std::unique_ptr<ColumnBuilder> name, flag;
  int64_t rows = 0;

  explicit SampleRows(int n) : rows(n) {
    const auto fields = sample_fields();
    name = std::make_unique<ColumnBuilder>(fields[3]);
    flag = std::make_unique<ColumnBuilder>(fields[4]);
    for (int r = 0; r < n; ++r) {
      for (int i = 0; i < 96; ++i) packed.push_back(static_cast<uint8_t>((r + i) & 0xFF));
      ply.push_back(static_cast<uint16_t>(r));
      for (int c = 0; c < r % 4 + 1; ++c) {
        const size_t at = mv.size();
        mv.push_back(static_cast<uint16_t>(r * 10 + c));
        prob.push_back(1.0f / static_cast<float>(r % 4 + 1));
        cp.push_back(static_cast<int16_t>(-c * 7));
        if (cp_valid.size() <= at / 8) cp_valid.push_back(0);
        if (r % 2) ++cp_nulls;
        else cp_valid[at / 8] = static_cast<uint8_t>(cp_valid[at / 8] | (1u << (at % 8)));
      }
      offsets.push_back(static_cast<int32_t>(mv.size()));
      if (r % 3 == 0) name->append_null();
      else name->append_text("row " + std::to_string(r));
      flag->append_bool(r % 5 == 0);
    }
  }

  std::vector<Column> columns() const {
    using testing::fixed_column;
    const auto m = static_cast<int64_t>(mv.size());
    return {fixed_column(Type::FixedSizeBinary, rows, packed.data(), 96), fixed_column(Type::UInt16, rows, ply.data()),
            testing::candidates_column(rows, offsets.data(), m, mv.data(), prob.data(), cp.data(), cp_valid.data(),
                                       cp_nulls),
            name->column(), flag->column()};
  }
};

TEST(ParquetFile, TypeNamesAreArrowsSoTheAbiMatchesTheWheel) {
  // Strings cross the library boundary here; a mismatched _GLIBCXX_USE_CXX11_ABI
  // fails to link or returns garbage.
  const auto fields = sample_fields();
  EXPECT_EQ(type_name(fields[0]), "fixed_size_binary[96]");
  EXPECT_EQ(type_name(fields[2]), "list<item: struct<mv: uint16, prob: float, cp: int16>>");
  EXPECT_EQ(type_name(field("x", Type::Utf8)), "string");
}

TEST(ParquetFile, PyarrowReadsWhatWeWrite) {
  fs::path path = scratch("ours.parquet");
  WriteOptions options;
  options.row_group_rows = 100;
  options.footer = {{"pov", "0"}, {"policy_source", "1"}};
  SampleRows rows(250);
  ASSERT_TRUE(write_parquet(path.string(), sample_fields(), rows.rows, rows.columns(), options).ok());
  EXPECT_FALSE(fs::exists(path.string() + ".tmp-" + std::to_string(::getpid())));
  int rc = run_python(
      "import pyarrow.parquet as pq, sys\n"
      "f = pq.ParquetFile(r'" + path.string() + "')\n"
      "md = f.metadata\n"
      "assert md.num_rows == 250, md.num_rows\n"
      "assert md.num_row_groups == 3, md.num_row_groups\n"
      "assert md.row_group(0).column(0).compression == 'ZSTD'\n"
      "kv = md.metadata\n"
      "assert kv[b'pov'] == b'0' and kv[b'policy_source'] == b'1', kv\n"
      "t = f.read()\n"
      "assert str(t.schema.field('packed').type) == 'fixed_size_binary[96]'\n"
      "assert str(t.schema.field('flag').type) == 'bool'\n"
      "row = t.slice(7, 1).to_pylist()[0]\n"
      "assert row['ply'] == 7\n"
      "assert row['packed'] == bytes((7 + i) & 255 for i in range(96))\n"
      "assert [c['mv'] for c in row['candidates']] == [70, 71, 72, 73]\n"
      "assert all(c['cp'] is None for c in row['candidates'])\n"
      "assert row['name'] == 'row 7' and row['flag'] is False\n"
      "row = t.slice(2, 1).to_pylist()[0]\n"
      "assert [c['cp'] for c in row['candidates']] == [0, -7, -14]\n"
      "assert t.column('name').null_count == 84\n"
      "assert t.slice(10, 1).to_pylist()[0]['flag'] is True\n");
  EXPECT_EQ(rc, 0);
}

TEST(ParquetFile, WeReadWhatPyarrowWrites) {
  fs::path path = scratch("theirs.parquet");
  ASSERT_EQ(run_python(
      "import pyarrow as pa, pyarrow.parquet as pq\n"
      "t = pa.table({'ply': pa.array([3, 1, 4, 1, 5], pa.uint16()),\n"
      "              'value_z': pa.array([1.0, -1.0, 0.0, 0.5, -0.25], pa.float32()),\n"
      "              'moves': pa.array([['7g7f'], [], None, ['2g2f', '8c8d'], ['7g7f']], pa.list_(pa.large_string())),\n"
      "              'tag': pa.array(['a', 'b', None, 'a', 'looooooooooooong'], pa.string_view())})\n"
      "t = t.replace_schema_metadata({'temperature': '100'})\n"
      "pq.write_table(t, r'" + path.string() + "', compression='zstd', row_group_size=3)\n"), 0);
  auto read = read_parquet(path.string());
  ASSERT_TRUE(read.ok()) << read.status().message();
  const ColumnBatch& b = *read;
  ASSERT_EQ(b.rows, 5);
  const Column* ply = b.find("ply");
  const Column* z = b.find("value_z");
  ASSERT_TRUE(ply && z);
  EXPECT_EQ(ply->type, Type::UInt16);
  EXPECT_EQ(ply->values_as<uint16_t>()[2], 4);
  EXPECT_FLOAT_EQ(z->values_as<float>()[4], -0.25f);
  const Column* moves = b.find("moves");
  ASSERT_TRUE(moves);
  ASSERT_EQ(moves->type, Type::List);
  EXPECT_TRUE(moves->is_null(2));
  const Column& items = moves->children[0];
  ASSERT_EQ(items.type, Type::LargeUtf8);
  const int32_t* at = moves->offsets_as<int32_t>();
  EXPECT_EQ(at[4] - at[3], 2);
  EXPECT_EQ(TextOffsets<int64_t>{items}(at[3] + 1), "8c8d");
  const Column* tag = b.find("tag");
  ASSERT_TRUE(tag);
  ASSERT_EQ(tag->type, Type::Utf8View);
  EXPECT_EQ(TextViews{*tag}(1), "b");
  EXPECT_EQ(TextViews{*tag}(4), "looooooooooooong");
  EXPECT_TRUE(tag->is_null(2));

  auto reader = ParquetFileReader::open(path.string(), ReadOptions{2, {"tag"}});
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  EXPECT_EQ((*reader)->num_row_groups(), 2);
  EXPECT_EQ((*reader)->row_group_rows(1), 2);
  EXPECT_NE((*reader)->fields()[2].type_name.find("large_string"), std::string::npos);
  // Batches of at most two rows that never span the two row groups: 2 + 1, 2.
  std::vector<int64_t> sizes;
  ColumnBatch batch;
  const int ply_only[] = {0};
  for (;;) {
    auto more = (*reader)->next_batch(ply_only, batch);
    ASSERT_TRUE(more.ok()) << more.status().message();
    if (!*more) break;
    ASSERT_EQ(batch.names, std::vector<std::string>{"ply"});
    sizes.push_back(batch.rows);
  }
  EXPECT_EQ(sizes, (std::vector<int64_t>{2, 1, 2}));

  auto footer = read_parquet_footer(path.string());
  ASSERT_TRUE(footer.ok());
  bool found = false;
  for (auto& [k, v] : *footer) found |= (k == "temperature" && v == "100");
  EXPECT_TRUE(found);
}

TEST(ParquetFile, DictionaryColumnsReadAsIndicesAndValues) {
  fs::path path = scratch("dictionary.parquet");
  ASSERT_EQ(run_python(
      "import pyarrow as pa, pyarrow.parquet as pq\n"
      "t = pa.table({'move': ['7g7f', '2g2f', '7g7f', None, '7g7f']})\n"
      "pq.write_table(t, r'" + path.string() + "')\n"), 0);
  auto reader = ParquetFileReader::open(path.string(), ReadOptions{1024, {"move"}});
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  ASSERT_EQ((*reader)->fields()[0].type, Type::Dictionary);
  ColumnBatch b;
  const int move[] = {0};
  ASSERT_TRUE(*(*reader)->next_batch(move, b));
  const Column& c = b.columns[0];
  ASSERT_EQ(c.type, Type::Dictionary);
  const Column &indices = c.children[0], &values = c.children[1];
  ASSERT_EQ(indices.type, Type::Int32);
  EXPECT_EQ(values.length, 2);
  EXPECT_TRUE(indices.is_null(3));
  EXPECT_EQ(TextOffsets<int32_t>{values}(indices.values_as<int32_t>()[4]), "7g7f");
  EXPECT_EQ(TextOffsets<int32_t>{values}(indices.values_as<int32_t>()[1]), "2g2f");
}

TEST(ParquetFile, ReadBackWritesTheSameFile) {
  // What CorpusWriter::commit does: read a file, write its columns again.
  fs::path first = scratch("first.parquet"), second = scratch("second.parquet");
  SampleRows rows(40);
  WriteOptions options;
  ASSERT_TRUE(write_parquet(first.string(), sample_fields(), rows.rows, rows.columns(), options).ok());
  auto read = read_parquet(first.string());
  ASSERT_TRUE(read.ok()) << read.status().message();
  ASSERT_TRUE(write_parquet(second.string(), sample_fields(), read->rows, read->columns, options).ok());
  std::ifstream a(first, std::ios::binary), b(second, std::ios::binary);
  std::string bytes_a((std::istreambuf_iterator<char>(a)), {}), bytes_b((std::istreambuf_iterator<char>(b)), {});
  EXPECT_EQ(bytes_a, bytes_b);
}

TEST(ParquetFile, WrongColumnCountIsRefusedNamingTheFile) {
  fs::path path = scratch("short.parquet");
  SampleRows rows(3);
  auto columns = rows.columns();
  columns.pop_back();
  Status st = write_parquet(path.string(), sample_fields(), rows.rows, columns, WriteOptions{});
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(), path.string() + ": 4 columns for a schema of 5");
  EXPECT_FALSE(fs::exists(path));
}

TEST(ParquetFile, MissingFileNamesThePath) {
  auto table = read_parquet("/nonexistent/x.parquet");
  ASSERT_FALSE(table.ok());
  EXPECT_NE(table.status().message().find("/nonexistent/x.parquet"), std::string::npos);
}

}  // namespace
}  // namespace manaka::parquet

namespace manaka::parquet {
namespace {

// read_leaf: one leaf's values and levels, as parquet's definition and
// repetition levels put what pyarrow wrote (a nullable list of nullable
// int32: [1, 2], [], null, [3, null]).
TEST(ParquetFile, ReadLeafGivesTheValuesAndLevelsPyarrowWrote) {
  const fs::path path = scratch("leaves.parquet");
  ASSERT_EQ(run_python(
      "import pyarrow as pa, pyarrow.parquet as pq\n"
      "schema = pa.schema([pa.field('l', pa.list_(pa.int32())), pa.field('f', pa.float32(), False),\n"
      "                    pa.field('b', pa.binary(4), False)])\n"
      "t = pa.table({'l': [[1, 2], [], None, [3, None]], 'f': [0.5, 1.5, 2.5, 3.5],\n"
      "              'b': [b'abcd', b'efgh', b'ijkl', b'mnop']}, schema=schema)\n"
      "pq.write_table(t, r'" + path.string() + "')\n"), 0);
  auto r = ParquetFileReader::open(path.string());
  ASSERT_TRUE(r.ok()) << r.status().message();
  ParquetFileReader& f = **r;
  ASSERT_EQ(f.leaves(0), (std::vector<int>{0}));
  ASSERT_EQ(f.leaves(2), (std::vector<int>{2}));
  const LeafInfo list = f.leaf_info(0);
  EXPECT_EQ(list.physical, Physical::Int32);
  EXPECT_EQ(list.max_def, 3);  // list present, list not empty, item not null
  EXPECT_EQ(list.max_rep, 1);
  auto levels = f.leaf_level_count(0, 0);
  ASSERT_TRUE(levels.ok());
  ASSERT_EQ(*levels, 6);
  std::vector<int32_t> values(6);
  std::vector<int16_t> def(6), rep(6);
  auto got = f.read_leaf(0, 0, values.data(), def.data(), rep.data());
  ASSERT_TRUE(got.ok()) << got.status().message();
  ASSERT_EQ(*got, 3);
  values.resize(3);
  EXPECT_EQ(values, (std::vector<int32_t>{1, 2, 3}));
  EXPECT_EQ(def, (std::vector<int16_t>{3, 3, 1, 0, 3, 2}));
  EXPECT_EQ(rep, (std::vector<int16_t>{0, 1, 0, 0, 0, 1}));

  std::vector<float> floats(4);
  auto read_floats = f.read_leaf(0, 1, floats.data(), nullptr, nullptr);
  ASSERT_TRUE(read_floats.ok());
  EXPECT_EQ(floats, (std::vector<float>{0.5f, 1.5f, 2.5f, 3.5f}));
  EXPECT_EQ(f.leaf_info(2).width, 4);
  std::string bytes(16, ' ');
  auto read_bytes = f.read_leaf_fixed(0, 2, 4, reinterpret_cast<uint8_t*>(bytes.data()));
  ASSERT_TRUE(read_bytes.ok());
  EXPECT_EQ(*read_bytes, 4);
  EXPECT_EQ(bytes, "abcdefghijklmnop");

  // Asked as another type or width: refused, naming the file and the column.
  auto as_float = f.read_leaf(0, 0, floats.data(), def.data(), rep.data());
  ASSERT_FALSE(as_float.ok());
  EXPECT_NE(as_float.status().message().find(path.string() + ": row group 0, column l.list.element"), std::string::npos)
      << as_float.status().message();
  auto as_wider = f.read_leaf_fixed(0, 2, 8, reinterpret_cast<uint8_t*>(bytes.data()));
  ASSERT_FALSE(as_wider.ok());
  EXPECT_NE(as_wider.status().message().find("not 8 bytes wide"), std::string::npos);
}

}  // namespace
}  // namespace manaka::parquet
