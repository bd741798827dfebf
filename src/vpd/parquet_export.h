// The VPD1 parquet derivative: one VPD1 SQLite file -> a Hive-partitioned
// directory of parquet files and a manifest (docs/vpd1.md, "Parquet
// derivative"), written through the parquet adapter (parquet/writer.h).
//
//   OUT/source_split=<train|test|__HIVE_DEFAULT_PARTITION__>/phase=<opening|middlegame|endgame>/part-NNNNN.parquet
//   OUT/_manifest.json
//
// The two partition columns are in the paths only; every other column of
// the positions table is stored with its name, in id order, and a file
// with labels (`manaka vpd label`) adds their columns, "label_" prefixed. Files are
// Zstandard-compressed with 65,536-row groups, at most rows_per_file rows
// each. The whole directory is written as OUT.tmp-<pid> and renamed onto OUT
// only when complete; an existing OUT is refused unless overwrite, and then
// replaced only after success.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/status.h"

namespace manaka::vpd {

constexpr int64_t PARQUET_ROW_GROUP_ROWS = 65536;
constexpr uint64_t PARQUET_DEFAULT_ROWS_PER_FILE = 1048576;
constexpr const char* PARQUET_MANIFEST_NAME = "_manifest.json";
constexpr const char* PARQUET_MANIFEST_FORMAT = "VPD1-parquet";
constexpr int PARQUET_MANIFEST_VERSION = 1;
// The Hive convention's directory value for a NULL partition value, which
// pyarrow, DuckDB and polars read back as null.
constexpr const char* HIVE_NULL = "__HIVE_DEFAULT_PARTITION__";

struct ParquetExportOptions {
  std::string input;       // a complete VPD1 file
  std::string output_dir;  // the directory to create
  uint64_t rows_per_file = PARQUET_DEFAULT_ROWS_PER_FILE;
  bool overwrite = false;
  bool progress = true;  // the progress line on stderr
};

// One parquet file of the output, as _manifest.json lists it.
struct ParquetFileInfo {
  std::string path;  // relative to the output directory, '/'-separated
  uint64_t rows = 0;
  uint64_t bytes = 0;
  uint64_t row_groups = 0;
  int64_t min_id = 0;
  int64_t max_id = 0;
  std::string crc32;  // CRC-32 (zlib's) of the file's bytes, 8 lowercase hex digits
};

struct ParquetExportSummary {
  std::string input;
  std::string output_dir;
  uint64_t source_bytes = 0;
  std::string source_crc32;
  uint64_t rows = 0;
  uint64_t rows_per_file = 0;
  std::vector<ParquetFileInfo> files;  // sorted by path
  // The source's label_* metadata (label.h) when it has labels; their
  // columns are then label_cp, label_mate, label_wdl_win|draw|loss,
  // label_depth, label_bestmove, label_pv_lines, and the manifest has
  // "labels": {key: value}.
  std::vector<std::pair<std::string, std::string>> labels;
  double seconds = 0;
};

Result<ParquetExportSummary> export_parquet(const ParquetExportOptions& options);

// "source_split=train/phase=opening"; split "" is NULL. phase < PHASE_NB.
std::string partition_directory(const std::string& split, int phase);
// "part-00000.parquet"
std::string part_file_name(uint64_t index);

// The manifest's JSON text (pretty-printed, ending in a newline).
std::string manifest_json(const ParquetExportSummary& summary);
// The closing summary, several lines.
std::string format_export_summary(const ParquetExportSummary& summary);

}  // namespace manaka::vpd
