// Rows -> one row group of the shard schema as plain column buffers, viewed
// by the parquet adapter without a copy (no per-value builder calls): the
// writer's unit of work, one parquet row group.
//
// Buffers per row group of n rows and m candidates in all:
//   packed   n * 96 bytes        ply u16[n]  value_z f32[n]  value_q f32[n]
//   weight   u32[n]              offsets i32[n + 1] into the candidates
//   mv u16[m]  prob f32[m]  cp i16[m] with a validity bitmap when any cp is
//   null (kNullCp in the Row)
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/default_init.h"
#include "core/status.h"
#include "parquet/column.h"
#include "shard/row.h"

namespace manaka::shard {

// One row group's columns, owned: what the writer thread encodes.
struct RowGroupColumns {
  int64_t rows = 0;
  std::vector<uint8_t> packed;
  std::vector<uint16_t> ply;
  std::vector<float> value_z, value_q;
  std::vector<uint32_t> weight;
  std::vector<int32_t> offsets;  // rows + 1
  UninitVector<uint16_t> mv;
  UninitVector<float> prob;
  UninitVector<int16_t> cp;
  std::vector<uint8_t> cp_validity;  // bit set = valid, LSB first; empty: no null cp
  int64_t null_cps = 0;

  // Views of the buffers in shard column order (shard/schema.h), valid while
  // this lives.
  std::vector<parquet::Column> columns() const;
};

class RowGroupBuffer {
 public:
  void append(const Row& row);
  // append() of a row whose candidates the caller writes in place: `head`'s
  // fields but its candidate vectors are copied, n candidates are added,
  // their cp null, and their mv and prob slots handed out to be filled
  // before the next row.
  CandidateSlots open_row(const Row& head, size_t n);
  int64_t rows() const { return static_cast<int64_t>(ply_.size()); }
  // The buffered rows as columns; the buffer is left empty. Fails only when
  // one row group holds more than 2^31 - 1 candidates (list<> offsets are int32).
  Result<std::unique_ptr<RowGroupColumns>> take_columns();

 private:
  std::vector<uint8_t> packed_;
  std::vector<uint16_t> ply_;
  std::vector<float> value_z_, value_q_;
  std::vector<uint32_t> weight_;
  std::vector<int64_t> offsets_{0};
  UninitVector<uint16_t> mv_;
  UninitVector<float> prob_;
  UninitVector<int16_t> cp_;
  int64_t null_cps_ = 0;
  int64_t last_rows_ = 0, last_cands_ = 0;

  void reserve_like_last();
  void append_head(const Row& row);  // the fields but the candidates
};

}  // namespace manaka::shard
