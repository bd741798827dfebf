// `manaka stream export`: MPK1 streams -> YaneuraOu psv or dlshogi hcpe
// (layouts in stream/import_format.h; what survives: docs/import.md).
//
// Each MPK1 record becomes one record of the target, in order:
//   position   the packed position, re-encoded (PackedSfen; HuffmanCodedPos,
//              which cannot hold a position with pieces missing: refused)
//   move       the best candidate: the highest cp when the stream's policy
//              is cp (policy_source 1), the most visits otherwise (the first
//              on ties); every other candidate is lost
//   score      that candidate's cp; without one (a visit-sourced stream),
//              value_q turned back to centipawns, 2 C atanh(value_q) rounded
//              and clamped to +-32767, with C the stream's eval_coef or
//              options.eval_coef when the stream has none
//   result     value_z (psv: the side to move's view as it is; hcpe: the
//              winner's colour, 0 draw, 1 Black, 2 White)
//   ply        psv gamePly; hcpe has none
// The output is written as "<output>.tmp-<pid>" and renamed when complete,
// after the output policy (core/output.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "stream/import_format.h"

namespace manaka::stream {

struct ExportOptions {
  SourceFormat to = SourceFormat::Psv;  // psv or hcpe
  std::vector<std::string> inputs;      // MPK1 streams, read one after another
  std::string output;
  double eval_coef = 0.0;  // for streams without one (0: none given)
  bool strict = false;     // stop at the first record the target cannot hold
  bool overwrite = false;
  bool progress = false;
};

struct ExportSummary {
  SourceFormat to = SourceFormat::Psv;
  std::vector<std::string> files;
  std::string output;
  uint64_t records_read = 0;
  uint64_t records_written = 0;
  uint64_t bytes_written = 0;
  uint64_t refused = 0;  // positions the target cannot hold (hcpe: pieces missing)
  std::optional<std::string> first_refusal;
  uint64_t scores_from_value_q = 0;  // records whose score came from value_q
  double seconds = 0.0;
};

Result<ExportSummary> export_stream(const ExportOptions& options);

std::string format_export_summary(const ExportSummary& s);
std::string export_summary_json(const ExportSummary& s);

}  // namespace manaka::stream
