#include "shard/shard_reader.h"

#include <cstring>

#include "parquet/reader.h"
#include "shard/schema.h"

namespace manaka::shard {

struct ShardReader::Impl {
  std::unique_ptr<parquet::ParquetFileReader> file;
  FooterPairs footer;
  int fields[column::kCount];  // each shard column's index in the file's fields
};

ShardReader::ShardReader(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ShardReader::ShardReader(ShardReader&&) noexcept = default;
ShardReader& ShardReader::operator=(ShardReader&&) noexcept = default;
ShardReader::~ShardReader() = default;

Result<ShardReader> ShardReader::open(const std::string& path) {
  auto impl = std::make_unique<Impl>();
  MANAKA_ASSIGN_OR_RETURN(impl->file, parquet::ParquetFileReader::open(path));
  MANAKA_RETURN_NOT_OK(check_schema(impl->file->fields(), path));
  for (int c = 0; c < column::kCount; ++c) impl->fields[c] = impl->file->field_index(shard_fields()[c].name);
  for (const auto& [key, value] : impl->file->footer()) {
    if (key != "ARROW:schema") impl->footer.emplace_back(key, value);
  }
  return ShardReader(std::move(impl));
}

const std::string& ShardReader::path() const { return impl_->file->path(); }
int64_t ShardReader::num_rows() const { return impl_->file->num_rows(); }
int ShardReader::num_row_groups() const { return impl_->file->num_row_groups(); }
int64_t ShardReader::row_group_rows(int group) const { return impl_->file->row_group_rows(group); }
const FooterPairs& ShardReader::footer() const { return impl_->footer; }

namespace {

// `count` values from element `from` of a fixed-width column, copied once
// (assign, not resize + memcpy: no pass zero-filling what is overwritten).
template <typename T>
void copy_values(const parquet::Column& a, int64_t from, int64_t count, std::vector<T>& out) {
  if (count <= 0) return out.clear();
  const T* first = a.values_as<T>() + from;
  out.assign(first, first + count);
}

bool has_null(const parquet::Column& a, int64_t from, int64_t count) {
  if (a.null_count == 0) return false;
  for (int64_t i = from; i < from + count; ++i)
    if (a.is_null(i)) return true;
  return false;
}

}  // namespace

Result<ShardBatch> ShardReader::read_row_group(int group, const ShardColumns& want) {
  ShardBatch b;
  MANAKA_RETURN_NOT_OK(read_row_group_into(group, want, b));
  return b;
}

Status ShardReader::read_row_group_into(int group, const ShardColumns& want, ShardBatch& b) {
  const std::string& path = impl_->file->path();
  if (group < 0 || group >= num_row_groups()) {
    return Status::invalid(path + ": no row group " + std::to_string(group) + " (the file has " +
                           std::to_string(num_row_groups()) + ")");
  }
  const bool wanted[column::kCount] = {want.packed, want.ply, want.value_z,
                                       want.value_q, want.weight, want.candidates};
  std::vector<int> fields;  // which file columns, in shard column order
  std::vector<int> columns;  // which shard columns
  for (int c = 0; c < column::kCount; ++c) {
    if (!wanted[c]) continue;
    fields.push_back(impl_->fields[c]);
    columns.push_back(c);
  }
  // Sizes 0, capacities kept: the copies below assign into them.
  b.packed.clear();
  b.ply.clear();
  b.value_z.clear();
  b.value_q.clear();
  b.weight.clear();
  b.cand_offsets.clear();
  b.mv.clear();
  b.prob.clear();
  b.cp.clear();
  b.rows = row_group_rows(group);
  if (columns.empty()) return Status();
  MANAKA_ASSIGN_OR_RETURN(parquet::ColumnBatch read, impl_->file->read_row_group(group, fields));
  const std::string where = path + ": row group " + std::to_string(group);

  for (int c : columns) {
    const std::string& name = shard_fields()[c].name;
    const parquet::Column* found = read.find(name);
    if (!found) return Status::invalid(where + ": cannot read column " + name);
    const parquet::Column& a = *found;
    if (a.length == 0) continue;
    if (a.null_count > 0 && c != column::kCandidates) {
      return Status::invalid(where + ": column " + name + " has " + std::to_string(a.null_count) + " nulls");
    }
    switch (c) {
      case column::kPacked: {
        const uint8_t* first = static_cast<const uint8_t*>(a.values) + a.offset * kPackedLen;
        b.packed.assign(first, first + a.length * static_cast<int64_t>(kPackedLen));
        break;
      }
      case column::kPly: copy_values(a, 0, a.length, b.ply); break;
      case column::kValueZ: copy_values(a, 0, a.length, b.value_z); break;
      case column::kValueQ: copy_values(a, 0, a.length, b.value_q); break;
      case column::kWeight: copy_values(a, 0, a.length, b.weight); break;
      case column::kCandidates: {
        if (a.null_count > 0) {
          return Status::invalid(where + ": column candidates has " + std::to_string(a.null_count) +
                                 " null lists");
        }
        const int64_t n = a.length;
        const int32_t* at = a.offsets_as<int32_t>();
        const int32_t base = at[0];
        b.cand_offsets.resize(static_cast<size_t>(n) + 1);
        for (int64_t i = 0; i <= n; ++i) b.cand_offsets[i] = at[i] - base;
        const int64_t m = b.cand_offsets[n];
        const parquet::Column& cands = a.children[0];
        if (has_null(cands, base, m)) return Status::invalid(where + ": column candidates has null elements");
        const parquet::Column &mv = cands.children[column::kMv], &prob = cands.children[column::kProb],
                              &cp = cands.children[column::kCp];
        if (has_null(mv, base, m) || has_null(prob, base, m)) {
          return Status::invalid(where + ": candidates.mv or candidates.prob has nulls");
        }
        copy_values(mv, base, m, b.mv);
        copy_values(prob, base, m, b.prob);
        copy_values(cp, base, m, b.cp);
        if (cp.null_count > 0) {
          for (int64_t i = 0; i < m; ++i) {
            if (cp.is_null(base + i)) b.cp[i] = kNullCp;
          }
        }
        break;
      }
    }
  }
  if (want.candidates && b.cand_offsets.empty()) b.cand_offsets.assign(1, 0);
  return Status();
}

Row ShardBatch::row(int64_t i) const {
  Row r;
  if (!packed.empty()) std::memcpy(r.packed.data(), packed.data() + i * kPackedLen, kPackedLen);
  if (!ply.empty()) r.ply = ply[i];
  if (!value_z.empty()) r.value_z = value_z[i];
  if (!value_q.empty()) r.value_q = value_q[i];
  if (!weight.empty()) r.weight = weight[i];
  if (!cand_offsets.empty()) {
    const auto lo = static_cast<size_t>(cand_offsets[i]), hi = static_cast<size_t>(cand_offsets[i + 1]);
    r.mv.assign(mv.begin() + lo, mv.begin() + hi);
    r.prob.assign(prob.begin() + lo, prob.begin() + hi);
    r.cp.assign(cp.begin() + lo, cp.begin() + hi);
  }
  return r;
}

}  // namespace manaka::shard
