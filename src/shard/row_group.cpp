#include "shard/row_group.h"

#include <cassert>
#include <cstring>
#include <limits>

#include "shard/schema.h"

namespace manaka::shard {

void RowGroupBuffer::append_head(const Row& row) {
  if (ply_.empty() && last_rows_ > 0) reserve_like_last();
  packed_.insert(packed_.end(), row.packed.begin(), row.packed.end());
  ply_.push_back(row.ply);
  value_z_.push_back(row.value_z);
  value_q_.push_back(row.value_q);
  weight_.push_back(row.weight);
}

void RowGroupBuffer::append(const Row& row) {
  assert(row.mv.size() == row.prob.size() && row.mv.size() == row.cp.size());
  append_head(row);
  mv_.insert(mv_.end(), row.mv.begin(), row.mv.end());
  prob_.insert(prob_.end(), row.prob.begin(), row.prob.end());
  cp_.insert(cp_.end(), row.cp.begin(), row.cp.end());
  for (int16_t c : row.cp) null_cps_ += c == kNullCp;
  offsets_.push_back(static_cast<int64_t>(mv_.size()));
}

CandidateSlots RowGroupBuffer::open_row(const Row& head, size_t n) {
  append_head(head);
  const size_t at = mv_.size();
  mv_.resize(at + n);  // left for the caller: not zeroed
  prob_.resize(at + n);
  cp_.resize(at + n, kNullCp);
  null_cps_ += static_cast<int64_t>(n);
  offsets_.push_back(static_cast<int64_t>(at + n));
  return {std::span<uint16_t>(mv_.data() + at, n), std::span<float>(prob_.data() + at, n)};
}

// Sizes each column for a row group like the last one, so the vectors (moved
// out by take_columns) do not regrow by doubling every row group.
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

template <typename V>
V take(V& v) {
  V out = std::move(v);
  v = {};
  return out;
}

// Validity bitmap (bit set = valid), LSB first as Arrow lays it out.
std::vector<uint8_t> cp_validity(const UninitVector<int16_t>& cp, int64_t nulls) {
  std::vector<uint8_t> bits((cp.size() + 7) / 8, 0);
  if (static_cast<size_t>(nulls) == cp.size()) return bits;  // self-play: every cp null
  for (size_t i = 0; i < cp.size(); ++i) {
    if (cp[i] != kNullCp) bits[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
  }
  return bits;
}

parquet::Column fixed(parquet::Type type, int64_t length, const void* values) {
  parquet::Column c;
  c.type = type;
  c.length = length;
  c.values = values;
  return c;
}

}  // namespace

Result<std::unique_ptr<RowGroupColumns>> RowGroupBuffer::take_columns() {
  const int64_t n = rows();
  const auto m = static_cast<int64_t>(mv_.size());
  last_rows_ = n;
  last_cands_ = m + m / 8;  // some headroom: the next row group's rows differ
  if (m > std::numeric_limits<int32_t>::max()) {
    return Status::invalid("a row group of " + std::to_string(n) + " rows holds " +
                           std::to_string(m) + " candidates, more than list<> offsets can address");
  }
  auto g = std::make_unique<RowGroupColumns>();
  g->rows = n;
  g->offsets.assign(offsets_.begin(), offsets_.end());
  offsets_.assign(1, 0);
  g->packed = take(packed_);
  g->ply = take(ply_);
  g->value_z = take(value_z_);
  g->value_q = take(value_q_);
  g->weight = take(weight_);
  g->mv = take(mv_);
  g->prob = take(prob_);
  if (null_cps_ > 0) g->cp_validity = cp_validity(cp_, null_cps_);
  g->cp = take(cp_);
  g->null_cps = null_cps_;
  null_cps_ = 0;
  return g;
}

std::vector<parquet::Column> RowGroupColumns::columns() const {
  using parquet::Type;
  const auto m = static_cast<int64_t>(mv.size());
  parquet::Column packed_col = fixed(Type::FixedSizeBinary, rows, packed.data());
  packed_col.byte_width = static_cast<int32_t>(kPackedLen);
  parquet::Column cp_col = fixed(Type::Int16, m, cp.data());
  if (null_cps > 0) {
    cp_col.validity = cp_validity.data();
    cp_col.null_count = null_cps;
  }
  parquet::Column candidate;
  candidate.type = Type::Struct;
  candidate.length = m;
  candidate.children = {fixed(Type::UInt16, m, mv.data()), fixed(Type::Float, m, prob.data()), std::move(cp_col)};
  parquet::Column list;
  list.type = Type::List;
  list.length = rows;
  list.offsets = offsets.data();
  list.children.push_back(std::move(candidate));
  return {std::move(packed_col),
          fixed(Type::UInt16, rows, ply.data()),
          fixed(Type::Float, rows, value_z.data()),
          fixed(Type::Float, rows, value_q.data()),
          fixed(Type::UInt32, rows, weight.data()),
          std::move(list)};
}

}  // namespace manaka::shard
