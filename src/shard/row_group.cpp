#include "shard/row_group.h"

#include <cassert>
#include <cstring>
#include <limits>

#include "shard/schema.h"

namespace manaka::shard {

void RowGroupBuffer::append(const Row& row) {
  assert(row.mv.size() == row.prob.size() && row.mv.size() == row.cp.size());
  if (ply_.empty() && last_rows_ > 0) reserve_like_last();
  packed_.insert(packed_.end(), row.packed.begin(), row.packed.end());
  ply_.push_back(row.ply);
  value_z_.push_back(row.value_z);
  value_q_.push_back(row.value_q);
  weight_.push_back(row.weight);
  mv_.insert(mv_.end(), row.mv.begin(), row.mv.end());
  prob_.insert(prob_.end(), row.prob.begin(), row.prob.end());
  cp_.insert(cp_.end(), row.cp.begin(), row.cp.end());
  for (int16_t c : row.cp) null_cps_ += c == kNullCp;
  offsets_.push_back(static_cast<int64_t>(mv_.size()));
}

// Sizes each column for a batch like the last one, so the vectors (handed
// to Arrow by take_batch) do not regrow by doubling every batch.
void RowGroupBuffer::reserve_like_last() {
  const auto n = static_cast<size_t>(last_rows_), m = static_cast<size_t>(last_cands_);
  packed_.reserve(n * kPackedLen);
  ply_.reserve(n);
  value_z_.reserve(n);
  value_q_.reserve(n);
  weight_.reserve(n);
  offsets_.reserve(n + 1);
  mv_.reserve(m);
  prob_.reserve(m);
  cp_.reserve(m);
}

namespace {

template <typename T>
std::shared_ptr<arrow::Buffer> buffer_of(std::vector<T>& v) {
  auto buf = arrow::Buffer::FromVector(std::move(v));
  v = {};
  return buf;
}

// Validity bitmap (bit set = valid), LSB first as Arrow lays it out.
std::shared_ptr<arrow::Buffer> cp_validity(const std::vector<int16_t>& cp) {
  std::vector<uint8_t> bits((cp.size() + 7) / 8, 0);
  for (size_t i = 0; i < cp.size(); ++i) {
    if (cp[i] != kNullCp) bits[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
  }
  return arrow::Buffer::FromVector(std::move(bits));
}

}  // namespace

Result<std::shared_ptr<arrow::RecordBatch>> RowGroupBuffer::take_batch() {
  const int64_t n = rows();
  const auto m = static_cast<int64_t>(mv_.size());
  last_rows_ = n;
  last_cands_ = m + m / 8;  // some headroom: the next batch's rows differ
  if (m > std::numeric_limits<int32_t>::max()) {
    return Status::invalid("a row group of " + std::to_string(n) + " rows holds " +
                           std::to_string(m) + " candidates, more than list<> offsets can address");
  }
  std::vector<int32_t> offsets32(offsets_.begin(), offsets_.end());
  offsets_.assign(1, 0);

  auto schema = shard_schema();
  auto packed = std::make_shared<arrow::FixedSizeBinaryArray>(
      schema->field(column::kPacked)->type(), n, buffer_of(packed_));
  auto ply = std::make_shared<arrow::UInt16Array>(n, buffer_of(ply_));
  auto vz = std::make_shared<arrow::FloatArray>(n, buffer_of(value_z_));
  auto vq = std::make_shared<arrow::FloatArray>(n, buffer_of(value_q_));
  auto weight = std::make_shared<arrow::UInt32Array>(n, buffer_of(weight_));

  auto mv = std::make_shared<arrow::UInt16Array>(m, buffer_of(mv_));
  auto prob = std::make_shared<arrow::FloatArray>(m, buffer_of(prob_));
  std::shared_ptr<arrow::Buffer> validity = null_cps_ > 0 ? cp_validity(cp_) : nullptr;
  auto cp = std::make_shared<arrow::Int16Array>(m, buffer_of(cp_), validity, null_cps_);
  null_cps_ = 0;
  auto cands = std::make_shared<arrow::StructArray>(
      candidate_type(), m, std::vector<std::shared_ptr<arrow::Array>>{mv, prob, cp});
  auto list = std::make_shared<arrow::ListArray>(schema->field(column::kCandidates)->type(), n,
                                                 buffer_of(offsets32), cands);
  return arrow::RecordBatch::Make(schema, n, {packed, ply, vz, vq, weight, list});
}

}  // namespace manaka::shard
