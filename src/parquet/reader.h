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
