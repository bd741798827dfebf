// Reading parquet files (Arrow C++'s parquet reader from the pyarrow wheel,
// behind plain types): the schema as parquet::Field, rows as ColumnBatch
// views into the decoded buffers, the footer as key-value pairs. Columns are
// chosen by their index in fields(); only their parquet leaves are decoded.
//
// A file that cannot be opened reads as InputFile's refusal does, the
// operating system's reason kept ("<path>: cannot open for reading:
// Permission denied", "...: Is a directory").
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/status.h"
#include "parquet/column.h"

namespace manaka::parquet {

using FooterPairs = std::vector<std::pair<std::string, std::string>>;

// A parquet leaf (one column chunk per row group) as read_leaf takes it.
enum class Physical : uint8_t { Int32, Float, FixedBytes, Other };
struct LeafInfo {
  Physical physical = Physical::Other;
  int32_t width = 0;                 // FixedBytes: bytes per value
  int16_t max_def = 0, max_rep = 0;  // most definition and repetition levels
};
// The most levels one read_leaf decodes (a footer's count past it is refused
// before it sizes a buffer).
inline constexpr int64_t kMaxLeafLevels = int64_t{1} << 31;

struct ReadOptions {
  // Rows per batch of next_batch().
  int64_t batch_rows = 64 * 1024;
  // Top-level columns whose string leaves are read as dictionaries (a
  // Dictionary column: indices into the row group's distinct values), which
  // skips building a dense string column per batch where values repeat.
  std::vector<std::string> dictionary_columns;
};

class ParquetFileReader {
 public:
  static Result<std::unique_ptr<ParquetFileReader>> open(const std::string& path,
                                                         const ReadOptions& options = {});
  ParquetFileReader(const ParquetFileReader&) = delete;
  ParquetFileReader& operator=(const ParquetFileReader&) = delete;
  ~ParquetFileReader();

  const std::string& path() const;
  // The top-level columns, as Arrow reads their types (the stored
  // ARROW:schema when there is one), type_name filled.
  const std::vector<Field>& fields() const;
  // Index of the first top-level column named `name`, or -1.
  int field_index(const std::string& name) const;
  int64_t num_rows() const;
  int num_row_groups() const;
  int64_t row_group_rows(int group) const;
  // The footer's key-value metadata in file order, ARROW:schema included.
  const FooterPairs& footer() const;

  // Row group `group`'s values of `columns` (indices into fields()), one
  // Column per read column, in schema order. Safe to call from several
  // threads on one reader: the decode of one file runs one call at a time
  // (Arrow's reader pre-buffers into one cache per file).
  Result<ColumnBatch> read_row_group(int group, std::span<const int> columns);
  // The next batch of at most ReadOptions::batch_rows rows of `columns` (the
  // same on every call), row group after row group; false at the end. A
  // batch never spans two row groups: each has its own dictionaries.
  Result<bool> next_batch(std::span<const int> columns, ColumnBatch& out);
  // Every row of every column, as one batch.
  Result<ColumnBatch> read_all();

  // The parquet leaves (column chunks, numbered as in the file's schema) of
  // top-level column `field`, in schema order.
  const std::vector<int>& leaves(int field) const;
  // Leaf `leaf`'s physical type and most levels (0 and 0: a required
  // top-level column; a value is present where its definition level is the most).
  LeafInfo leaf_info(int leaf) const;
  // The level count of leaf `leaf` in row group `group` (one per value,
  // null and empty list), from the footer, at most kMaxLeafLevels.
  Result<int64_t> leaf_level_count(int group, int leaf) const;

  // Leaf `leaf` of row group `group` decoded by parquet's own column reader
  // straight into the caller's buffers, no Arrow array between: the present
  // values packed in `values` (room for leaf_level_count, fixed-size bytes
  // `width` apart), and where not null, the definition and repetition levels
  // (room for leaf_level_count each). Returns the values read. A leaf with
  // definition levels needs `def` (it says which slots hold a value).
  // Thread safety as read_row_group.
  Result<int64_t> read_leaf(int group, int leaf, int32_t* values, int16_t* def, int16_t* rep);
  Result<int64_t> read_leaf(int group, int leaf, float* values, int16_t* def, int16_t* rep);
  Result<int64_t> read_leaf_fixed(int group, int leaf, int32_t width, uint8_t* values);

  struct Impl;

 private:
  explicit ParquetFileReader(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// A whole file in one batch.
Result<ColumnBatch> read_parquet(const std::string& path);
// The footer's key-value metadata, in file order.
Result<FooterPairs> read_parquet_footer(const std::string& path);

}  // namespace manaka::parquet
