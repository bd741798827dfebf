#include "vpd/parquet_export.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "core/crc32.h"
#include "core/file.h"
#include "parquet/reader.h"
#include "fixture.h"
#include "vpd/build.h"

namespace manaka::vpd {
namespace {

namespace fs = std::filesystem;

using testing::write_file;
// One scratch directory per test.
struct TempDir : testing::TempDir {
  TempDir() : testing::TempDir("vpd_parquet_test") {}
};

constexpr const char* PGN =
    "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 1-0\n\n"
    "[Event \"b\"]\n[Result \"0-1\"]\n\n1. d4 d5 2. c4 e6 3. Nc3 Nf6 0-1\n\n"
    "[Event \"c\"]\n[FEN \"8/8/4k3/8/8/3K4/4P3/8 w - - 0 40\"]\n[Result \"*\"]\n\n40. Kd4 Kd6 41. e4 *\n\n";

// A database from PGN under train/ and beside it (split NULL).
std::string build_db(const fs::path& dir) {
  write_file(dir / "train" / "a.pgn", PGN);
  write_file(dir / "b.pgn", PGN);
  BuildOptions o;
  o.inputs = {(dir / "train" / "a.pgn").string(), (dir / "b.pgn").string()};
  o.output = (dir / "in.vpd").string();
  o.target = 100;
  o.progress = false;
  auto s = build(o);
  EXPECT_TRUE(s.ok()) << s.status().message();
  return o.output;
}

TEST(ParquetExport, Names) {
  EXPECT_EQ(partition_directory("train", OPENING), "source_split=train/phase=opening");
  EXPECT_EQ(partition_directory("", ENDGAME), "source_split=__HIVE_DEFAULT_PARTITION__/phase=endgame");
  EXPECT_EQ(partition_directory("test", MIDDLEGAME), "source_split=test/phase=middlegame");
  EXPECT_EQ(part_file_name(0), "part-00000.parquet");
  EXPECT_EQ(part_file_name(12345), "part-12345.parquet");
}

TEST(ParquetExport, FilesManifestAndRefusals) {
  TempDir dir;
  const std::string db = build_db(dir.path);
  ParquetExportOptions o;
  o.input = db;
  o.output_dir = (dir.path / "out").string();
  o.rows_per_file = 2;
  o.progress = false;
  auto s = export_parquet(o);
  ASSERT_TRUE(s.ok()) << s.status().message();
  auto vpd = VpdFile::open(db);
  ASSERT_TRUE(vpd.ok());
  EXPECT_EQ(s->rows, *vpd->rows());
  EXPECT_FALSE(fs::exists(temporary_path(o.output_dir)));

  std::ifstream in(dir.path / "out" / PARQUET_MANIFEST_NAME);
  auto manifest = nlohmann::json::parse(in);
  EXPECT_EQ(manifest["source"]["crc32"], *crc32_file(db));
  EXPECT_EQ(manifest["rows"], s->rows);
  std::set<std::string> splits;
  uint64_t rows = 0;
  std::set<int64_t> ids;
  for (const auto& f : manifest["files"]) {
    const std::string path = (dir.path / "out" / f["path"].get<std::string>()).string();
    EXPECT_EQ(f["crc32"], *crc32_file(path));
    EXPECT_EQ(f["bytes"], fs::file_size(path));
    EXPECT_LE(f["rows"].get<uint64_t>(), 2u);
    EXPECT_EQ(f["row_groups"], 1u);
    auto file = parquet::ParquetFileReader::open(path);
    ASSERT_TRUE(file.ok()) << file.status().message();
    EXPECT_EQ((*file)->num_rows(), f["rows"].get<int64_t>());
    EXPECT_EQ((*file)->field_index("phase"), -1);
    EXPECT_EQ((*file)->field_index("source_split"), -1);
    ASSERT_GE((*file)->field_index("piece_count"), 0);
    EXPECT_EQ((*file)->fields()[size_t((*file)->field_index("piece_count"))].type_name, "int8");
    auto table = (*file)->read_all();
    ASSERT_TRUE(table.ok()) << table.status().message();
    const parquet::Column* id = table->find("id");
    ASSERT_TRUE(id);
    const int64_t* id_values = id->values_as<int64_t>();
    EXPECT_EQ(id_values[0], f["min_id"].get<int64_t>());
    EXPECT_EQ(id_values[id->length - 1], f["max_id"].get<int64_t>());
    for (int64_t i = 0; i < id->length; ++i) ids.insert(id_values[i]);
    rows += f["rows"].get<uint64_t>();
    splits.insert(f["path"].get<std::string>().substr(0, f["path"].get<std::string>().find('/')));
  }
  EXPECT_EQ(rows, s->rows);
  EXPECT_EQ(ids.size(), s->rows);
  EXPECT_EQ(*ids.begin(), 1);
  EXPECT_EQ(*ids.rbegin(), static_cast<int64_t>(s->rows));
  EXPECT_EQ(splits, (std::set<std::string>{"source_split=train", "source_split=__HIVE_DEFAULT_PARTITION__"}));

  // An existing output is refused, then replaced with --overwrite.
  auto again = export_parquet(o);
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.status().message().find("exists; pass --overwrite"), std::string::npos) << again.status().message();
  write_file(dir.path / "out" / "stale.txt", "x");
  o.overwrite = true;
  o.rows_per_file = PARQUET_DEFAULT_ROWS_PER_FILE;
  auto replaced = export_parquet(o);
  ASSERT_TRUE(replaced.ok()) << replaced.status().message();
  EXPECT_FALSE(fs::exists(dir.path / "out" / "stale.txt"));
  EXPECT_LE(replaced->files.size(), 6u);
  for (const auto& e : fs::directory_iterator(dir.path)) {
    EXPECT_EQ(e.path().filename().string().find(".tmp-"), std::string::npos) << e.path();
    EXPECT_EQ(e.path().filename().string().find(".old-"), std::string::npos) << e.path();
  }

  // An output directory that would hold the input is refused, even with --overwrite.
  ParquetExportOptions inside = o;
  inside.output_dir = dir.path.string();
  auto refused = export_parquet(inside);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("would contain the input"), std::string::npos);
  EXPECT_TRUE(fs::exists(db));
}

TEST(ParquetExport, RefusesWhatVpdFileRefuses) {
  TempDir dir;
  write_file(dir.path / "not.vpd", "not sqlite at all, just some text that is long enough to be a header....");
  ParquetExportOptions o;
  o.input = (dir.path / "not.vpd").string();
  o.output_dir = (dir.path / "out").string();
  o.progress = false;
  auto s = export_parquet(o);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("not.vpd"), std::string::npos) << s.status().message();
  EXPECT_FALSE(fs::exists(dir.path / "out"));
  EXPECT_FALSE(fs::exists(temporary_path(o.output_dir)));
}

}  // namespace
}  // namespace manaka::vpd
