#include "shard/shard_reader.h"

#include <arrow/api.h>
#include <arrow/io/file.h>
#include <parquet/arrow/reader.h>
#include <parquet/arrow/schema.h>
#include <parquet/file_reader.h>
#include <parquet/metadata.h>

#include <cstring>
#include <mutex>

#include "shard/parquet_file.h"
#include "shard/schema.h"

namespace manaka::shard {

struct ShardReader::Impl {
  std::string path;
  std::unique_ptr<parquet::arrow::FileReader> reader;
  // parquet::arrow::FileReader is not safe to share: ReadRowGroup pre-buffers
  // into one cache per file (a concurrent read finds the other's entries, or
  // none: "ReadRangeCache did not find matching cache entry", or a crash).
  // One read at a time per file; the copy into the batch runs unlocked.
  std::mutex read_mutex;
  FooterPairs footer;
  // Leaf (parquet column) indices of each shard column, by column::k*.
  std::vector<int> leaves[column::kCount];
};

ShardReader::ShardReader(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ShardReader::ShardReader(ShardReader&&) noexcept = default;
ShardReader& ShardReader::operator=(ShardReader&&) noexcept = default;
ShardReader::~ShardReader() = default;

namespace {

void collect_leaves(const parquet::arrow::SchemaField& f, std::vector<int>& out) {
  if (f.is_leaf()) out.push_back(f.column_index);
  for (const auto& c : f.children) collect_leaves(c, out);
}

}  // namespace

Result<ShardReader> ShardReader::open(const std::string& path) {
  auto impl = std::make_unique<Impl>();
  impl->path = path;
  MANAKA_ASSIGN_OR_RETURN(auto input, open_readable(path));
  auto reader = parquet::arrow::OpenFile(input, arrow::default_memory_pool());
  if (!reader.ok()) return from_arrow(reader.status(), path);
  impl->reader = std::move(*reader);
  std::shared_ptr<arrow::Schema> schema;
  MANAKA_RETURN_NOT_OK(from_arrow(impl->reader->GetSchema(&schema), path));
  MANAKA_RETURN_NOT_OK(check_schema(*schema, path));
  const auto& fields = impl->reader->manifest().schema_fields;
  auto want = shard_schema();
  for (int c = 0; c < column::kCount; ++c) {
    for (const auto& f : fields) {
      if (f.field->name() == want->field(c)->name()) collect_leaves(f, impl->leaves[c]);
    }
  }
  auto kv = impl->reader->parquet_reader()->metadata()->key_value_metadata();
  if (kv) {
    for (int64_t i = 0; i < kv->size(); ++i) {
      if (kv->key(i) != "ARROW:schema") impl->footer.emplace_back(kv->key(i), kv->value(i));
    }
  }
  return ShardReader(std::move(impl));
}

const std::string& ShardReader::path() const { return impl_->path; }
int64_t ShardReader::num_rows() const {
  return impl_->reader->parquet_reader()->metadata()->num_rows();
}
int ShardReader::num_row_groups() const { return impl_->reader->num_row_groups(); }
int64_t ShardReader::row_group_rows(int group) const {
  return impl_->reader->parquet_reader()->metadata()->RowGroup(group)->num_rows();
}
const FooterPairs& ShardReader::footer() const { return impl_->footer; }

namespace {

template <typename ArrayT, typename T>
void copy_values(const arrow::Array& a, std::vector<T>& out) {
  const auto& arr = static_cast<const ArrayT&>(a);
  out.resize(static_cast<size_t>(arr.length()));
  if (arr.length() > 0) std::memcpy(out.data(), arr.raw_values(), sizeof(T) * out.size());
}

}  // namespace

Result<ShardBatch> ShardReader::read_row_group(int group, const ShardColumns& want) {
  if (group < 0 || group >= num_row_groups()) {
    return Status::invalid(impl_->path + ": no row group " + std::to_string(group) + " (the file has " +
                           std::to_string(num_row_groups()) + ")");
  }
  const bool wanted[column::kCount] = {want.packed, want.ply, want.value_z,
                                       want.value_q, want.weight, want.candidates};
  std::vector<int> leaves;
  std::vector<int> columns;  // which shard columns, in read order
  for (int c = 0; c < column::kCount; ++c) {
    if (!wanted[c]) continue;
    leaves.insert(leaves.end(), impl_->leaves[c].begin(), impl_->leaves[c].end());
    columns.push_back(c);
  }
  ShardBatch b;
  b.rows = row_group_rows(group);
  if (columns.empty()) return b;
  arrow::Result<std::shared_ptr<arrow::Table>> read;
  {
    std::lock_guard<std::mutex> lock(impl_->read_mutex);
    read = impl_->reader->ReadRowGroup(group, leaves);
  }
  const std::string where = impl_->path + ": row group " + std::to_string(group);
  if (!read.ok()) return from_arrow(read.status(), where);
  auto combined = (*read)->CombineChunks();
  if (!combined.ok()) return from_arrow(combined.status(), where);
  const auto& table = *combined;

  for (int c : columns) {
    auto chunked = table->GetColumnByName(shard_schema()->field(c)->name());
    if (!chunked || chunked->num_chunks() != 1) {
      if (chunked && chunked->length() == 0) continue;
      return Status::invalid(where + ": cannot read column " + shard_schema()->field(c)->name());
    }
    const arrow::Array& a = *chunked->chunk(0);
    if (a.null_count() > 0 && c != column::kCandidates) {
      return Status::invalid(where + ": column " + shard_schema()->field(c)->name() + " has " +
                             std::to_string(a.null_count()) + " nulls");
    }
    switch (c) {
      case column::kPacked: {
        const auto& arr = static_cast<const arrow::FixedSizeBinaryArray&>(a);
        b.packed.resize(static_cast<size_t>(arr.length()) * kPackedLen);
        if (arr.length() > 0) std::memcpy(b.packed.data(), arr.GetValue(0), b.packed.size());
        break;
      }
      case column::kPly: copy_values<arrow::UInt16Array>(a, b.ply); break;
      case column::kValueZ: copy_values<arrow::FloatArray>(a, b.value_z); break;
      case column::kValueQ: copy_values<arrow::FloatArray>(a, b.value_q); break;
      case column::kWeight: copy_values<arrow::UInt32Array>(a, b.weight); break;
      case column::kCandidates: {
        const auto& list = static_cast<const arrow::ListArray&>(a);
        if (list.null_count() > 0) {
          return Status::invalid(where + ": column candidates has " +
                                 std::to_string(list.null_count()) + " null lists");
        }
        const int64_t n = list.length();
        const int32_t base = n > 0 ? list.value_offset(0) : 0;
        b.cand_offsets.resize(static_cast<size_t>(n) + 1);
        for (int64_t i = 0; i <= n; ++i) b.cand_offsets[i] = list.value_offset(i) - base;
        const int64_t m = b.cand_offsets[n];
        auto cands = std::static_pointer_cast<arrow::StructArray>(list.values()->Slice(base, m));
        if (cands->null_count() > 0) {
          return Status::invalid(where + ": column candidates has null elements");
        }
        auto mv = cands->GetFieldByName("mv"), prob = cands->GetFieldByName("prob"),
             cp = cands->GetFieldByName("cp");
        if (mv->null_count() > 0 || prob->null_count() > 0) {
          return Status::invalid(where + ": candidates.mv or candidates.prob has nulls");
        }
        copy_values<arrow::UInt16Array>(*mv, b.mv);
        copy_values<arrow::FloatArray>(*prob, b.prob);
        copy_values<arrow::Int16Array>(*cp, b.cp);
        if (cp->null_count() > 0) {
          for (int64_t i = 0; i < m; ++i) {
            if (cp->IsNull(i)) b.cp[i] = kNullCp;
          }
        }
        break;
      }
    }
  }
  if (want.candidates && b.cand_offsets.empty()) b.cand_offsets.assign(1, 0);
  return b;
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
