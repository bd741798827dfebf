// Writing the generator's teacher corpus so that a run killed at any moment
// keeps the games it completed, and the final name only ever holds a whole
// file.
//
// A parquet file is readable only once its footer is written, so one file
// appended to as games finish would be unreadable after a kill. Instead:
//
//   OUT.partial/part-00000.parquet   each write() is one complete parquet file
//   OUT.partial/part-00001.parquet   (zstd, one row group), written under a
//   ...                              hidden temporary name and renamed
//   OUT                              commit(): the parts copied into one file,
//                                    one row group per part, under a temporary
//                                    name, renamed, then OUT.partial removed
//
// After a kill, OUT.partial is a directory of valid parquet files: pyarrow
// reads it as one dataset (pq.read_table("OUT.partial")) and `manaka teacher
// convert` accepts the directory. open() refuses to start over an existing
// OUT.partial, so the games of an earlier run are never deleted silently.
//
// Columns: sfen string, ply int32, side int8, cp int32, cand_moves
// list<string>, cand_cp list<int32>, move string, result int8.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/status.h"
#include "teacher/corpus_batch.h"

namespace manaka::teacher {

class CorpusWriter {
 public:
  using Footer = std::vector<std::pair<std::string, std::string>>;

  static Result<std::unique_ptr<CorpusWriter>> open(const std::string& path, Footer footer);
  ~CorpusWriter();  // leaves OUT.partial in place unless committed
  CorpusWriter(const CorpusWriter&) = delete;
  CorpusWriter& operator=(const CorpusWriter&) = delete;

  // Writes the rows as the next part (nothing for no rows).
  Status write(std::span<const CorpusRow> rows);
  // Replaces the footer written from now on (the final file's included).
  void set_footer(Footer footer) { footer_ = std::move(footer); }
  // Joins the parts into OUT and removes OUT.partial.
  Status commit();

  const std::string& path() const { return path_; }
  const std::string& partial_dir() const { return partial_; }
  uint64_t rows_written() const { return rows_; }
  uint64_t parts_written() const { return parts_; }

 private:
  CorpusWriter() = default;
  std::string part_path(uint64_t index) const;

  std::string path_, partial_;
  Footer footer_;
  uint64_t rows_ = 0, parts_ = 0;
  bool committed_ = false;
};

}  // namespace manaka::teacher
