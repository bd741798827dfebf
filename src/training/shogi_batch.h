// Shard rows as the shogi network's inputs and targets (docs/shogi-training.md):
// the planes from `packed` (shogi/encode.h), the policy target from the
// candidates, the value target from value_z and value_q, a weight per row.
//
//   planes  int8 (rows, 44, 9, 9): encode_packed of the row's 96 bytes
//   policy  float (rows, 11259): prob of each candidate at its move_index
//           (shogi/move_index.h), zero elsewhere. prob is already the
//           target the footer's policy_source names: normalised visits
//           (self-play, a Gumbel search's quantised policy included) or the
//           softmax over the teacher's cp at the footer's temperature.
//   value   float (rows): (1 - w) value_z + w value_q, w = value_q_weight,
//           both in the side to move's view as the reader hands them out
//   weight  float (rows): the row's `weight` (records folded into it) when
//           row_weights, else 1
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "shard/shard_reader.h"

namespace manaka::training {

struct TargetOptions {
  float value_q_weight = 0.0f;  // in [0, 1]
  bool row_weights = false;
};

struct ShogiBatch {
  int64_t rows = 0;
  std::vector<int8_t> planes;
  std::vector<float> policy;
  std::vector<float> value;
  std::vector<float> weight;

  // `rows` rows, the policy zeroed (the other columns are written whole).
  void reset(int64_t rows);
  // The first `rows` rows only (a short last batch).
  void truncate(int64_t rows);
};

// The columns encode_rows reads.
shard::ShardColumns shogi_batch_columns();

// Rows [first, first + count) of `in` into rows [at, at + count) of `out`
// (already reset to at least at + count rows). A row whose bytes are not a
// position, or a candidate with no policy index, is refused with `where` and
// the row's number in `in` ("<shard> row group 3, row 17: ...").
Status encode_rows(const shard::ShardBatch& in, int64_t first, int64_t count, const TargetOptions& options,
                   ShogiBatch& out, int64_t at, const std::string& where);

}  // namespace manaka::training
