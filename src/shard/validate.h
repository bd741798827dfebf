// `manaka shards validate`: every row of a shard set read back, every column
// decoded (a damaged page is an error naming the file and row group, where
// `shards inspect`, which reads a few columns, passes it), and each row held
// to the rules `manaka pack` writes by:
//
//   board          packed is a position shogi::unpack accepts
//   value          value_z and value_q finite, within [-1, 1]
//   weight         at least 1
//   candidates     at least one
//   move           each mv a move16 (stream rule 5), none listed twice
//   prob           each finite and >= 0, the row's sum within 1e-3 of 1
//
// A row that breaks rules is counted once under each rule it breaks; the
// first of each names its file, row group and row. Values are as the shard
// reader hands them out (a pov-1 set's turned to the side to move: the
// rules do not depend on the view).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"

namespace manaka {
class Progress;
}

namespace manaka::shard {

enum class RowRule : uint8_t { Board, Value, Weight, Candidates, Move, Prob, Count };
inline constexpr size_t kRowRuleCount = size_t(RowRule::Count);

struct ValidateReport {
  std::vector<std::string> files;
  int64_t rows = 0, row_groups = 0, candidates = 0;
  std::array<uint64_t, kRowRuleCount> broken{};    // rows breaking each rule
  std::array<std::string, kRowRuleCount> first{};  // "<file>: row group G row R: <detail>"
  double seconds = 0.0;

  uint64_t rows_broken = 0;  // rows breaking at least one rule
  bool ok() const { return rows_broken == 0; }
};

// The files must make whole shard sets (check_shard_sets). progress may be null.
Result<ValidateReport> validate_shards(const std::vector<std::string>& paths, Progress* progress = nullptr);

std::string format_validate(const ValidateReport& report);
std::string validate_json(const ValidateReport& report);

}  // namespace manaka::shard
