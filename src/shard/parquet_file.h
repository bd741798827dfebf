// Parquet files through Arrow C++ (the pyarrow wheel's libarrow/libparquet).
// The shard layer is the only one that includes Arrow headers.
#pragma once

#include <arrow/api.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/file.h"
#include "core/status.h"

namespace arrow::io {
class FileOutputStream;
class ReadableFile;
}
namespace parquet::arrow {
class FileWriter;
}

namespace manaka::shard {

// What a writer sets explicitly rather than inheriting library defaults: the
// row group is the reader's unit of decompression, so it is never left at
// ArrowWriter's 1,048,576.
struct ParquetOptions {
  int zstd_level = 1;
  int64_t row_group_rows = 8192;
  std::vector<std::pair<std::string, std::string>> footer;  // key-value metadata
  // Column paths ("value_q", "candidates.list.element.prob") written without
  // a dictionary: columns of mostly distinct values, where building one costs
  // time and saves nothing. Every other column keeps the library default.
  std::vector<std::string> no_dictionary;
  // Where ParquetFileWriter's encoders allocate; null: Arrow's default pool.
  arrow::MemoryPool* pool = nullptr;
};

// Turns an Arrow status into ours, prefixed with what was being done. The
// operating system's reason, which Arrow keeps apart from its message ("Error
// writing bytes to file" + errno ENOSPC), is appended: "<context>: Error
// writing bytes to file: No space left on device".
Status from_arrow(const arrow::Status& st, const std::string& context);

// Opens a file for Arrow to read; a refusal reads as InputFile's does
// ("<path>: cannot open for reading: Permission denied").
Result<std::shared_ptr<arrow::io::ReadableFile>> open_readable(const std::string& path);

// Writes `table` to `path` under a temporary name and renames it into place
// once the footer is written, so a killed writer never leaves a half file
// under the final name.
Status write_parquet(const arrow::Table& table, const std::string& path,
                     const ParquetOptions& options);

// Writes one parquet file a batch at a time, for files too large to hold as
// one table: each write() adds the batch as row groups of at most
// options.row_group_rows rows (a batch is never merged with the next one's
// rows). Like write_parquet it writes under a temporary name and renames on
// commit(); abort() or destroying an uncommitted writer removes the
// temporary, so the final name only ever holds a complete file.
class ParquetFileWriter {
 public:
  static Result<std::unique_ptr<ParquetFileWriter>> open(const std::string& path,
                                                         std::shared_ptr<arrow::Schema> schema,
                                                         const ParquetOptions& options);
  ParquetFileWriter(const ParquetFileWriter&) = delete;
  ParquetFileWriter& operator=(const ParquetFileWriter&) = delete;
  ~ParquetFileWriter();

  Status write(const std::shared_ptr<arrow::RecordBatch>& batch);
  Status write(const arrow::Table& table);
  // Bytes written to the temporary so far (the footer not yet included).
  int64_t bytes_written() const;
  // Writes the footer, closes and renames the temporary onto the final path.
  Status commit();
  // Writes the footer and closes, leaving the complete file under its
  // temporary name: the caller renames it (commit) when a whole set is done.
  Result<std::unique_ptr<PendingFile>> close();
  void abort();
  const std::string& path() const { return final_path_; }

 private:
  ParquetFileWriter() = default;
  std::unique_ptr<PendingFile> file_;
  std::string final_path_;
  int64_t row_group_rows_ = 0;
  std::shared_ptr<arrow::Schema> schema_;
  std::shared_ptr<arrow::io::FileOutputStream> sink_;
  std::unique_ptr<parquet::arrow::FileWriter> writer_;
};

Result<std::shared_ptr<arrow::Table>> read_parquet(const std::string& path);

// The footer's key-value metadata, in file order.
Result<std::vector<std::pair<std::string, std::string>>> read_parquet_footer(
    const std::string& path);

}  // namespace manaka::shard
