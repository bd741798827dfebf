// `manaka stream export`: MPK1 streams (here) and shard sets
// (shard_export/shard_export.h) -> YaneuraOu psv or dlshogi hcpe (layouts in
// stream/import_format.h; what survives: docs/import.md, "Export").
//
// Each MPK1 record or shard row becomes one record of the target, in order:
//   position   re-encoded (PackedSfen; HuffmanCodedPos, which cannot hold a
//              position with pieces missing: refused and counted)
//   move       one candidate (first on ties): an MPK1 record's highest cp
//              (policy_source 1) or most visits (0); a shard row's highest
//              prob. Every other candidate is lost.
//   score      that candidate's cp; without one, value_q turned back,
//              2 C atanh(value_q) rounded and clamped to +-32767, with C the
//              source's eval_coef, or options.eval_coef when it has none
//   result     value_z rounded to a result: a win above +threshold, a loss
//              below -threshold, a draw between (MPK1's -1, 0, 1 are kept;
//              a shard row's mean is rounded); psv in the side to move's
//              view, hcpe as the winner's colour (0 draw, 1 Black, 2 White)
//   ply        psv gamePly; hcpe has none
// Values of a pov-1 (Black's view) source are turned to the side to move.
// The output is written as "<output>.tmp-<pid>" and renamed when complete,
// after the output policy (core/output.h).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/file.h"
#include "core/status.h"
#include "shogi/position.h"
#include "stream/import_format.h"

namespace manaka::stream {

inline constexpr double kDefaultResultThreshold = 0.5;  // value_z rounds to the nearest result

struct ExportOptions {
  SourceFormat to = SourceFormat::Psv;  // psv or hcpe
  // export_stream: MPK1 streams; shard_export's export_records: MPK1 streams
  // and shards (files or directories of *.parquet), one after another.
  std::vector<std::string> inputs;
  std::string output;
  double eval_coef = 0.0;  // for sources without one (0: none given)
  double result_threshold = kDefaultResultThreshold;  // 0 <= t < 1
  bool strict = false;     // stop at the first record the target cannot hold
  bool overwrite = false;
  bool progress = false;
};

struct ExportSummary {
  SourceFormat to = SourceFormat::Psv;
  std::vector<std::string> files;  // the inputs as given
  std::string output;
  uint64_t records_read = 0;       // MPK1 records and shard rows
  uint64_t shard_rows = 0;         // of which shard rows
  uint64_t records_written = 0;
  uint64_t bytes_written = 0;
  uint64_t refused = 0;  // positions the target cannot hold (hcpe: pieces missing; a row with no move)
  std::optional<std::string> first_refusal;
  // refused, by reason (ExportRefusal's names), each with its first message.
  std::map<std::string, uint64_t> refused_by;
  std::map<std::string, std::string> first_by;
  uint64_t scores_from_value_q = 0;  // records whose score came from value_q
  uint64_t results_rounded = 0;      // value_z not exactly -1, 0 or 1 (shard means)
  double seconds = 0.0;
};

// The rules above, one function each: the exporters of both sources call them.
// The first index of the largest key (keys not empty).
template <class T>
size_t best_candidate(std::span<const T> keys) {
  size_t best = 0;
  for (size_t i = 1; i < keys.size(); ++i)
    if (keys[i] > keys[best]) best = i;
  return best;
}
// round(2 C atanh(q)) clamped to +-32767 (q = +-1 gives +-32767).
int16_t score_from_value_q(float value_q, double eval_coef);
// 1 above threshold, -1 below -threshold, 0 between.
int8_t result_from_value_z(float value_z, double threshold);

// One position on its way out: its values in the side to move's view.
struct ExportItem {
  const shogi::Position* pos = nullptr;
  uint16_t move = 0;  // MPK move16 (shogi::Move::raw); checked legal by add()
  int16_t score = 0;
  bool score_from_q = false;
  float value_z = 0.0f;
  uint16_t ply = 0;
};

// The item of one position whose kept candidate is `move` with `cp` (kNoCp:
// none, the score then comes from value_q and eval_coef, which the caller has
// checked is not 0), its values in `pov`'s view turned to the side to move's.
ExportItem export_item(const shogi::Position& pos, uint16_t move, int16_t cp, float value_q, float value_z,
                       uint16_t ply, Pov pov, double eval_coef);

// The output file and the counts: items in, psv / hcpe records out.
class ExportWriter {
 public:
  // Checks the options and the output policy against `inputs` (the paths to
  // compare the output with: the files read), then creates the temporary.
  static Result<ExportWriter> create(const ExportOptions& options, const std::vector<std::string>& inputs);

  // Writes the item's record, or refuses it (counted; an error with
  // options.strict): a move that is not legal in the position, a position
  // the target cannot hold. where() names the item in the message.
  Status add(const ExportItem& item, const std::function<std::string()>& where);
  // A refusal found by the caller (a row with no candidate), counted as
  // add's under `reason` (a name for the summary: "no_candidate").
  Status refuse(const char* reason, const std::string& message);

  ExportSummary& summary() { return s_; }
  const ExportOptions& options() const { return o_; }
  // Writes what is buffered, renames the output into place; the summary.
  Result<ExportSummary> finish();

 private:
  ExportWriter(const ExportOptions& options, AtomicFile out);
  Status flush();

  ExportOptions o_;
  AtomicFile out_;
  std::vector<uint8_t> buffer_;
  ExportSummary s_;
  double start_ = 0.0;  // steady clock seconds at create()
};

// Every record of one MPK1 stream into the writer.
Status export_stream_file(const std::string& file, ExportWriter& writer);

// MPK1 streams only (options.inputs): the formats layer's whole export.
Result<ExportSummary> export_stream(const ExportOptions& options);

std::string format_export_summary(const ExportSummary& s);
std::string export_summary_json(const ExportSummary& s);

}  // namespace manaka::stream
