// `manaka teacher convert`: teacher corpora -> one MPK1 stream with
// policy_source 1 (spec: mpk1-training-data-formats, "Teacher generation";
// the per-row rules are in teacher/row_convert.h).
//
//   MANAKA_ASSIGN_OR_RETURN(auto summary, teacher::convert({
//       .inputs = {"corpus.parquet"}, .output = "teacher.mpk",
//       .eval_coef = 600, .mate_scale = 32000}));
//
// Header: pov 0 (side to move), policy_source 1, and mate_scale, mate_slack
// (as given: 0 means the reader's 320), fv_scale and eval_coef from the
// options. Rows are read a batch at a time (constant memory): the next batch
// is read while the current one is converted on `threads` threads, and
// records are written in input order. Refused rows are counted by reason;
// the first of each reason is kept as an example naming file and row (0-based
// within its file). With strict, the first refusal ends the conversion with an
// error naming file, row and rule, and no output is left behind. The output
// is written as "<output>.tmp-<pid>" and renamed when complete.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "teacher/corpus_batch.h"
#include "stream/format.h"
#include "teacher/row_convert.h"

namespace manaka::teacher {

struct ConvertOptions {
  std::vector<std::string> inputs;  // files or directories (teacher/corpus_input.h)
  std::string output;
  double eval_coef = 0.0;
  int mate_scale = 0;
  int mate_slack = 0;
  int fv_scale = 0;
  CorpusColumns columns;
  bool strict = false;
  bool overwrite = false;  // replace an existing output (core/output.h)
  bool progress = false;  // a progress line on stderr
  int threads = 0;        // converting threads; 0: one per hardware thread (at most 16)
};

struct RefusalExample {
  std::string file;
  uint64_t row = 0;   // from 0 within the file
  uint64_t line = 0;  // JSON lines: the row's line, from 1; 0 for parquet
  std::string detail;
};

struct ConvertSummary {
  std::vector<std::string> files;
  std::vector<std::string> left_out;  // files in the named directories not read (not *.parquet, hidden)
  std::string output;
  stream::Header header;
  int effective_slack = 0;
  int mate_threshold = 0;
  uint64_t rows_read = 0;
  uint64_t records_written = 0;
  uint64_t bytes_written = 0;  // header included
  std::array<uint64_t, kRefusalCount> refused{};
  std::array<std::optional<RefusalExample>, kRefusalCount> first_refusal;
  double seconds = 0.0;

  uint64_t refused_total() const;
};

Result<ConvertSummary> convert(const ConvertOptions& options);

}  // namespace manaka::teacher
