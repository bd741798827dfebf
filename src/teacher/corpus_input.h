// Where a teacher corpus comes from: parquet (required), JSON lines (a second
// format), or a directory of parquet files such as the OUT.partial a killed
// `manaka teacher generate` leaves behind.
//
//   *.jsonl, *.ndjson, *.json   one JSON object per line with the corpus
//                               fields as keys (blank lines skipped)
//   a directory                 its *.parquet files in name order (names
//                               starting with '.' or '_' skipped, as pyarrow does)
//   anything else               parquet
//
// A JSON line that does not parse is an error naming the file and line; a
// key that is absent, null or of the wrong type marks the row's field as
// missing (the converter refuses the row and counts it).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/status.h"
#include "teacher/corpus_batch.h"

namespace manaka::teacher {

class CorpusSource {
 public:
  virtual ~CorpusSource() = default;
  // The next rows into batch (cleared first); false at the end.
  virtual Result<bool> next(CorpusBatch& batch) = 0;
  virtual const std::string& path() const = 0;
};

// The files `paths` name, directories expanded; a path that names nothing,
// or a directory without parquet files, is an error.
Result<std::vector<std::string>> expand_corpus_paths(const std::vector<std::string>& paths);

// Opens one file (not a directory) by its format.
Result<std::unique_ptr<CorpusSource>> open_corpus_file(const std::string& path,
                                                       const CorpusColumns& columns);

// Whether a file name says JSON lines.
bool is_json_lines_path(const std::string& path);

}  // namespace manaka::teacher
