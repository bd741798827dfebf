// Reading a teacher corpus from parquet, a batch at a time in constant memory,
// into teacher/corpus_batch.h's plain columns (through the parquet adapter,
// parquet/reader.h). The move columns are read as dictionaries.
//
// Only the eight corpus columns are read (by the names in CorpusColumns).
// Accepted types: strings as string / large_string / string_view / binary;
// integers of any width and sign; lists as list / large_list of those. A
// missing column or another type is refused at open, naming the file, the
// column and the columns the file has:
//   corpus.parquet: no column "score" for field cp (columns: sfen, ply, ...);
//   map it with --column cp=NAME
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/status.h"
#include "teacher/corpus_batch.h"

namespace manaka::teacher {

class CorpusParquetReader {
 public:
  static constexpr int64_t kDefaultBatchRows = 4096;

  static Result<std::unique_ptr<CorpusParquetReader>> open(const std::string& path,
                                                         const CorpusColumns& columns,
                                                         int64_t batch_rows = kDefaultBatchRows);
  ~CorpusParquetReader();
  CorpusParquetReader(const CorpusParquetReader&) = delete;
  CorpusParquetReader& operator=(const CorpusParquetReader&) = delete;

  // Fills `batch` with the next rows; false at the end of the file.
  Result<bool> next(CorpusBatch& batch);

  int64_t num_rows() const;  // from the footer
  const std::string& path() const;

  struct Impl;

 private:
  explicit CorpusParquetReader(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace manaka::teacher
