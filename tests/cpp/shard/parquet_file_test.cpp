// Arrow and Parquet come from the pyarrow wheel; these tests prove the link
// (same C++ ABI, same libarrow) by crossing files with pyarrow itself.
#include "shard/parquet_file.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace manaka::shard {
namespace {

namespace fs = std::filesystem;

fs::path scratch(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("manaka_parquet_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir / name;
}

// Runs a Python snippet with the interpreter whose pyarrow we link; returns its exit status.
int run_python(const std::string& code) {
  fs::path script = scratch("check.py");
  std::ofstream(script) << code;
  std::string cmd = std::string("\"") + MANAKA_PYTHON + "\" " + script.string();
  return std::system(cmd.c_str());
}

std::shared_ptr<arrow::Schema> candidate_schema() {
  auto cand = arrow::struct_({arrow::field("mv", arrow::uint16()),
                              arrow::field("prob", arrow::float32()),
                              arrow::field("cp", arrow::int16())});
  return arrow::schema({arrow::field("packed", arrow::fixed_size_binary(96)),
                        arrow::field("ply", arrow::uint16()),
                        arrow::field("candidates", arrow::list(cand))});
}

std::shared_ptr<arrow::Table> sample_table(int rows) {
  auto schema = candidate_schema();
  arrow::FixedSizeBinaryBuilder packed(arrow::fixed_size_binary(96));
  arrow::UInt16Builder ply;
  auto pool = arrow::default_memory_pool();
  auto mv = std::make_shared<arrow::UInt16Builder>(pool);
  auto prob = std::make_shared<arrow::FloatBuilder>(pool);
  auto cp = std::make_shared<arrow::Int16Builder>(pool);
  auto cand_type = schema->field(2)->type()->field(0)->type();
  auto cand = std::make_shared<arrow::StructBuilder>(cand_type, pool,
      std::vector<std::shared_ptr<arrow::ArrayBuilder>>{mv, prob, cp});
  arrow::ListBuilder cands(pool, cand, schema->field(2)->type());
  for (int r = 0; r < rows; ++r) {
    uint8_t bytes[96];
    for (int i = 0; i < 96; ++i) bytes[i] = static_cast<uint8_t>((r + i) & 0xFF);
    EXPECT_TRUE(packed.Append(bytes).ok());
    EXPECT_TRUE(ply.Append(static_cast<uint16_t>(r)).ok());
    EXPECT_TRUE(cands.Append().ok());
    for (int c = 0; c < r % 4 + 1; ++c) {
      EXPECT_TRUE(cand->Append().ok());
      EXPECT_TRUE(mv->Append(static_cast<uint16_t>(r * 10 + c)).ok());
      EXPECT_TRUE(prob->Append(1.0f / static_cast<float>(r % 4 + 1)).ok());
      if (r % 2) EXPECT_TRUE(cp->AppendNull().ok());
      else EXPECT_TRUE(cp->Append(static_cast<int16_t>(-c * 7)).ok());
    }
  }
  std::vector<std::shared_ptr<arrow::Array>> arrays(3);
  EXPECT_TRUE(packed.Finish(&arrays[0]).ok());
  EXPECT_TRUE(ply.Finish(&arrays[1]).ok());
  EXPECT_TRUE(cands.Finish(&arrays[2]).ok());
  return arrow::Table::Make(schema, arrays);
}

TEST(ParquetFile, SameCxxAbiAsTheWheel) {
  // Strings cross the library boundary here; a mismatched _GLIBCXX_USE_CXX11_ABI
  // fails to link or returns garbage.
  std::string text = candidate_schema()->ToString();
  EXPECT_NE(text.find("packed: fixed_size_binary[96]"), std::string::npos) << text;
  EXPECT_EQ(arrow::uint16()->ToString(), "uint16");
}

TEST(ParquetFile, PyarrowReadsWhatWeWrite) {
  fs::path path = scratch("ours.parquet");
  ParquetOptions options;
  options.row_group_rows = 100;
  options.footer = {{"pov", "0"}, {"policy_source", "1"}};
  ASSERT_TRUE(write_parquet(*sample_table(250), path.string(), options).ok());
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
      "row = t.slice(7, 1).to_pylist()[0]\n"
      "assert row['ply'] == 7\n"
      "assert row['packed'] == bytes((7 + i) & 255 for i in range(96))\n"
      "assert [c['mv'] for c in row['candidates']] == [70, 71, 72, 73]\n"
      "assert all(c['cp'] is None for c in row['candidates'])\n"
      "row = t.slice(2, 1).to_pylist()[0]\n"
      "assert [c['cp'] for c in row['candidates']] == [0, -7, -14]\n");
  EXPECT_EQ(rc, 0);
}

TEST(ParquetFile, WeReadWhatPyarrowWrites) {
  fs::path path = scratch("theirs.parquet");
  ASSERT_EQ(run_python(
      "import pyarrow as pa, pyarrow.parquet as pq\n"
      "t = pa.table({'ply': pa.array([3, 1, 4, 1, 5], pa.uint16()),\n"
      "              'value_z': pa.array([1.0, -1.0, 0.0, 0.5, -0.25], pa.float32())})\n"
      "t = t.replace_schema_metadata({'temperature': '100'})\n"
      "pq.write_table(t, r'" + path.string() + "', compression='zstd')\n"), 0);
  auto table = read_parquet(path.string());
  ASSERT_TRUE(table.ok()) << table.status().message();
  ASSERT_EQ((*table)->num_rows(), 5);
  auto ply = std::static_pointer_cast<arrow::UInt16Array>((*table)->GetColumnByName("ply")->chunk(0));
  auto z = std::static_pointer_cast<arrow::FloatArray>((*table)->GetColumnByName("value_z")->chunk(0));
  EXPECT_EQ(ply->Value(2), 4);
  EXPECT_FLOAT_EQ(z->Value(4), -0.25f);
  auto footer = read_parquet_footer(path.string());
  ASSERT_TRUE(footer.ok());
  bool found = false;
  for (auto& [k, v] : *footer) found |= (k == "temperature" && v == "100");
  EXPECT_TRUE(found);
}

TEST(ParquetFile, MissingFileNamesThePath) {
  auto table = read_parquet("/nonexistent/x.parquet");
  ASSERT_FALSE(table.ok());
  EXPECT_NE(table.status().message().find("/nonexistent/x.parquet"), std::string::npos);
}

}  // namespace
}  // namespace manaka::shard
