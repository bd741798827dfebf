// Writing parquet files (Arrow C++'s parquet writer from the pyarrow wheel,
// behind plain types: the schema is a list of parquet::Field, the rows are
// parquet::Column views). Every file is written under a temporary name and
// renamed into place once its footer is written, so a killed writer never
// leaves a half file under the final name.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/file.h"
#include "core/status.h"
#include "parquet/column.h"

namespace manaka::parquet {

// Where the encoders allocate.
enum class EncoderMemory : uint8_t {
  Default,   // Arrow's default pool
  Jemalloc,  // Arrow's jemalloc pool when this libarrow has one, else the default
};

// What a writer sets explicitly rather than inheriting library defaults: the
// row group is the reader's unit of decompression, so it is never left at
// the library's 1,048,576.
struct WriteOptions {
  int zstd_level = 1;
  int64_t row_group_rows = 8192;
  std::vector<std::pair<std::string, std::string>> footer;  // key-value metadata
  // Column paths ("value_q", "candidates.list.element.prob") written without
  // a dictionary: columns of mostly distinct values, where building one costs
  // time and saves nothing. Every other column keeps the library default.
  std::vector<std::string> no_dictionary;
  // Column paths written BYTE_STREAM_SPLIT (and without a dictionary): the
  // value's bytes in separate streams, which zstd then compresses cheaply
  // (the high bytes of a u16 stored as parquet's INT32 are one zero run).
  std::vector<std::string> byte_stream_split;
  // Column paths written without min/max statistics: columns no reader
  // filters on, where computing them is work for nothing.
  std::vector<std::string> no_statistics;
  // The page index (column and offset indexes) and the level histograms of
  // the size statistics; the library writes both by default. Off for files
  // whose pages no reader skips by value.
  bool page_index = true;
  bool size_statistics = true;
  int64_t write_batch_rows = 0;  // values handed to the column encoders at once; 0: the library's 1024
  // Data pages of format V2 (levels stored uncompressed beside the
  // compressed values) instead of the library's V1, and the size a data page
  // is cut at (0: the library's 1 MiB).
  bool data_page_v2 = false;
  int64_t data_page_bytes = 0;
  EncoderMemory memory = EncoderMemory::Default;
  // Leaves written by parquet's column writers with their levels computed
  // here, where the layout allows (parquet/leaf_writer.h); the same bytes as
  // Arrow's writer, faster. Off: always Arrow's writer (the tests compare).
  bool leaf_writer = true;
  // Threads a leaf-written row group's leaves may be encoded on (the
  // writer's and leaf_threads - 1 of its own), for the row groups written
  // while set_leaf_spread(true): each leaf is then buffered and placed in
  // the file when its turn comes (parquet/ordered_sink.h). The bytes do not
  // depend on it.
  int leaf_threads = 1;
};

// Writes one parquet file a batch at a time: each write() adds the rows as
// row groups of at most options.row_group_rows rows (a batch is never merged
// with the next one's rows). commit() renames the temporary onto the final
// path; abort() or destroying an uncommitted writer removes the temporary.
// The schema's arrow form is stored in the footer (ARROW:schema), so pyarrow
// reads back the exact types.
class ParquetFileWriter {
 public:
  static Result<std::unique_ptr<ParquetFileWriter>> open(const std::string& path,
                                                         std::vector<Field> schema,
                                                         const WriteOptions& options);
  ParquetFileWriter(const ParquetFileWriter&) = delete;
  ParquetFileWriter& operator=(const ParquetFileWriter&) = delete;
  ~ParquetFileWriter();

  // `rows` rows, one Column per schema field, in schema order. The columns'
  // buffers are read, not copied, and may be reused once write() returns.
  Status write(int64_t rows, std::span<const Column> columns);
  // Whether the next write()s encode each row group's leaves on the
  // writer's leaf_threads (off at first; no effect with leaf_threads 1).
  void set_leaf_spread(bool on);
  // Whether the leaves go through the leaf writer (parquet/leaf_writer.h).
  bool writes_leaves() const;
  // Bytes written to the temporary so far (the footer not yet included).
  int64_t bytes_written() const;
  // Writes the footer, closes and renames the temporary onto the final path.
  Status commit();
  // Writes the footer and closes, leaving the complete file under its
  // temporary name: the caller renames it (commit) when a whole set is done.
  Result<std::unique_ptr<PendingFile>> close();
  void abort();
  const std::string& path() const;

  struct Impl;

 private:
  explicit ParquetFileWriter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// One file in one call: open, write, commit.
Status write_parquet(const std::string& path, std::vector<Field> schema, int64_t rows,
                     std::span<const Column> columns, const WriteOptions& options);

}  // namespace manaka::parquet
