// `manaka stream import`: psv, hcpe and hcpe3 files -> one MPK1 stream
// (the per-record rules: stream/import_format.h; the mapping: docs/import.md).
//
//   MANAKA_ASSIGN_OR_RETURN(auto summary, stream::import_stream({
//       .from = SourceFormat::Psv, .inputs = {"a.bin"}, .output = "a.mpk",
//       .eval_coef = 600, .mate_scale = 32000, .value_q = squash}));
//
// Header: pov 0; policy_source 1 (cp) for psv and hcpe, 0 (visits) for
// hcpe3; eval_coef, mate_scale and mate_slack as given (the caller squashes:
// value_q is its function of a score, teacher::Conventions::value_q in the
// command and the binding, tabulated once here for every i16).
//
// The files are read a chunk at a time (about 4 MiB of whole records or
// games; constant memory but for one game larger than that): the next chunk
// is read while the current one is converted on `threads` threads and the
// previous one written, in input order, through stream::Writer (which checks
// every record again). Refused positions are counted by reason, the first of
// each kept as an example naming the file, the record (psv, hcpe: its index;
// hcpe3: the game's index and the move's) and its byte offset; with strict
// the first refusal ends the import with that message and no output. The
// output is written as "<output>.tmp-<pid>" and renamed when complete
// (core/temporary.h), after the output policy (core/output.h).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "stream/format.h"
#include "stream/import_format.h"

namespace manaka::stream {

struct ImportOptions {
  SourceFormat from = SourceFormat::Psv;
  std::vector<std::string> inputs;
  std::string output;
  double eval_coef = 0.0;  // written to the header
  int mate_scale = 0;      // written to the header
  int mate_slack = 0;      // written to the header
  std::function<float(int64_t cp)> value_q;  // required
  bool strict = false;
  bool overwrite = false;
  bool progress = false;
  int threads = 0;  // 0: one per hardware thread, at most 16
  size_t chunk_bytes = 0;  // bytes read at a time (0: 4 MiB); at least one record or game is
};

struct ImportRefusalExample {
  std::string file;
  std::string where;  // "record 17" or "game 3 move 41"
  uint64_t offset = 0;
  std::string detail;
};

struct ImportSummary {
  SourceFormat from = SourceFormat::Psv;
  std::vector<std::string> files;
  std::string output;
  Header header;
  uint64_t bytes_read = 0;
  uint64_t games = 0;          // hcpe3
  uint64_t positions = 0;      // psv / hcpe records, hcpe3 positions with candidates
  uint64_t unsearched = 0;     // hcpe3 positions without candidates (skipped)
  uint64_t dropped_candidates = 0;  // hcpe3 candidates with 0 visits (left out)
  uint64_t records_written = 0;
  uint64_t bytes_written = 0;  // header included
  std::array<uint64_t, kImportRefusalCount> refused{};
  std::array<std::optional<ImportRefusalExample>, kImportRefusalCount> first_refusal;
  double seconds = 0.0;

  uint64_t refused_total() const;
};

Result<ImportSummary> import_stream(const ImportOptions& options);

// The closing summary: text for the command's stdout, one JSON object for
// --json and the dict Python returns (keys in docs/import.md).
std::string format_import_summary(const ImportSummary& s);
std::string import_summary_json(const ImportSummary& s);

}  // namespace manaka::stream
