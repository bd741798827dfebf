#include "shard/footer_check.h"
#include "shard/shard_reader.h"

#include <algorithm>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "parquet/reader.h"
#include "shard/schema.h"

namespace manaka::shard {

struct ShardReader::Impl {
  std::unique_ptr<parquet::ParquetFileReader> file;
  FooterPairs footer;
  int fields[column::kCount];  // each shard column's index in the file's fields
  bool direct = false;         // laid out as manaka writes shards (direct_layout)
  stream::Pov pov = stream::Pov::SideToMove;  // the footer's: "1" is Black's view

  Status read_columns(int group, const ShardColumns& want, ShardBatch& b);
  Status read_direct(int group, const bool wanted[], ShardBatch& b, const std::string& where);
};

namespace {

// Whether the file's leaves are laid out as manaka writes them: top-level
// columns required (no levels), candidates a required list of a required
// struct of required mv and prob and a cp that may be null. Such a file
// decodes straight into the batch (read_direct); any other layout (a
// nullable column from another tool) takes Arrow's reader.
bool direct_layout(const parquet::ParquetFileReader& f, const int fields[]) {
  using parquet::Physical;
  const auto plain = [&](int c, Physical physical) {
    const std::vector<int>& leaves = f.leaves(fields[c]);
    if (leaves.size() != 1) return false;
    const parquet::LeafInfo info = f.leaf_info(leaves[0]);
    return info.physical == physical && info.max_def == 0 && info.max_rep == 0;
  };
  if (!plain(column::kPacked, Physical::FixedBytes) || !plain(column::kPly, Physical::Int32) ||
      !plain(column::kValueZ, Physical::Float) || !plain(column::kValueQ, Physical::Float) ||
      !plain(column::kWeight, Physical::Int32))
    return false;
  if (f.leaf_info(f.leaves(fields[column::kPacked])[0]).width != static_cast<int32_t>(kPackedLen)) return false;
  const std::vector<int>& cands = f.leaves(fields[column::kCandidates]);
  if (cands.size() != 3) return false;
  const parquet::LeafInfo mv = f.leaf_info(cands[column::kMv]), prob = f.leaf_info(cands[column::kProb]),
                          cp = f.leaf_info(cands[column::kCp]);
  return mv.physical == Physical::Int32 && mv.max_def == 1 && mv.max_rep == 1 &&
         prob.physical == Physical::Float && prob.max_def == 1 && prob.max_rep == 1 &&
         cp.physical == Physical::Int32 && (cp.max_def == 1 || cp.max_def == 2) && cp.max_rep == 1;
}

// Per decoding thread: int32 values and levels before they are narrowed or
// turned into offsets (capacity kept from row group to row group).
struct Scratch {
  std::vector<int32_t> values, cp_values;
  std::vector<int16_t> def, mv_def, rep;  // def: cp's
};
thread_local Scratch scratch;  // reached once per call: each TLS access from this library is a call

// The rows' first levels (repetition 0) of a list column with no empty
// list, as candidate offsets: offsets[r] = the index of the r-th zero.
// Returns the number of rows found, stopping at rows + 1 (a malformed
// chunk). Rows hold tens of candidates, so most blocks of 8 levels hold no
// zero: a block is tested at once (SSE2) and its zeros taken one by one.
int64_t row_starts(const int16_t* rep, size_t n, int64_t rows, int64_t* offsets) {
  int64_t row = 0;
  size_t i = 0;
#if defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128();
  for (; i + 8 <= n; i += 8) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(rep + i));
    auto mask = static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi16(v, zero)));  // two bits a level
    while (mask != 0) {
      if (row > rows) return row;
      offsets[row++] = static_cast<int64_t>(i) + (__builtin_ctz(mask) >> 1);
      mask &= mask - 1;
      mask &= mask - 1;
    }
  }
#endif
  for (; i < n; ++i) {
    if (rep[i] != 0) continue;
    if (row > rows) return row;
    offsets[row++] = static_cast<int64_t>(i);
  }
  return row;
}

// Whether any of the n levels is 0, eight at a compare.
bool any_zero(const int16_t* levels, size_t n) {
  size_t i = 0;
#if defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128();
  __m128i hits = _mm_setzero_si128();
  for (; i + 8 <= n; i += 8)
    hits = _mm_or_si128(hits, _mm_cmpeq_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(levels + i)), zero));
  if (_mm_movemask_epi8(hits) != 0) return true;
#endif
  for (; i < n; ++i)
    if (levels[i] == 0) return true;
  return false;
}

// Every cp null (self-play rows): eight at a store, where the plain loop
// the compiler left was a tenth of a row group's decoding outside parquet.
void fill_null_cp(std::vector<int16_t>& cp) {
  int16_t* p = cp.data();
  const size_t n = cp.size();
  size_t i = 0;
#if defined(__SSE2__)
  const __m128i nulls = _mm_set1_epi16(kNullCp);
  for (; i + 8 <= n; i += 8) _mm_storeu_si128(reinterpret_cast<__m128i*>(p + i), nulls);
#endif
  for (; i < n; ++i) p[i] = kNullCp;
}

// Sized for n, with an eighth to spare when it must grow: pooled buffers
// come back from row groups of other sizes, and a buffer grown to exactly
// each new size is a fresh allocation (pages the kernel zeroes) every time a
// row group is larger than the last. Old contents are not kept.
template <typename T>
void fit(std::vector<T>& v, size_t n) {
  if (v.capacity() < n) {
    v.clear();
    v.reserve(n + n / 8);
  }
  v.resize(n);
}

// Narrowed from parquet's int32.
template <typename T>
void narrow(const int32_t* from, int64_t count, std::vector<T>& out) {
  fit(out, static_cast<size_t>(count));
  std::copy(from, from + count, out.begin());
}

}  // namespace

// One row group of a direct_layout file: each leaf decoded by parquet's
// column reader into the batch's vectors (or the scratch, then narrowed);
// the candidates' offsets from mv's repetition levels.
Status ShardReader::Impl::read_direct(int group, const bool wanted[], ShardBatch& b, const std::string& where) {
  const int64_t rows = b.rows;
  Scratch& s = scratch;
  const auto leaf = [&](int c, size_t k = 0) { return file->leaves(fields[c])[k]; };
  const auto expect_rows = [&](int64_t got, const char* name) {
    return got == rows ? Status()
                       : Status::invalid(where + ": column " + name + " holds " + std::to_string(got) +
                                         " values in a row group of " + std::to_string(rows) + " rows");
  };
  if (wanted[column::kPacked]) {
    fit(b.packed, static_cast<size_t>(rows) * kPackedLen);
    MANAKA_ASSIGN_OR_RETURN(int64_t got, file->read_leaf_fixed(group, leaf(column::kPacked), kPackedLen, b.packed.data()));
    MANAKA_RETURN_NOT_OK(expect_rows(got, "packed"));
  }
  if (wanted[column::kPly]) {
    fit(s.values, static_cast<size_t>(rows));
    MANAKA_ASSIGN_OR_RETURN(int64_t got, file->read_leaf(group, leaf(column::kPly), s.values.data(), nullptr, nullptr));
    MANAKA_RETURN_NOT_OK(expect_rows(got, "ply"));
    narrow(s.values.data(), rows, b.ply);
  }
  const auto floats = [&](int c, std::vector<float>& out, const char* name) -> Status {
    fit(out, static_cast<size_t>(rows));
    MANAKA_ASSIGN_OR_RETURN(int64_t got, file->read_leaf(group, leaf(c), out.data(), nullptr, nullptr));
    return expect_rows(got, name);
  };
  if (wanted[column::kValueZ]) MANAKA_RETURN_NOT_OK(floats(column::kValueZ, b.value_z, "value_z"));
  if (wanted[column::kValueQ]) MANAKA_RETURN_NOT_OK(floats(column::kValueQ, b.value_q, "value_q"));
  if (wanted[column::kWeight]) {
    fit(b.weight, static_cast<size_t>(rows));  // u32 read as parquet's int32, the same bits
    MANAKA_ASSIGN_OR_RETURN(int64_t got, file->read_leaf(group, leaf(column::kWeight),
                                                         reinterpret_cast<int32_t*>(b.weight.data()), nullptr, nullptr));
    MANAKA_RETURN_NOT_OK(expect_rows(got, "weight"));
  }
  if (!wanted[column::kCandidates]) return Status();

  // prob and cp share mv's lists (the struct's fields are required): the
  // same level count.
  const int mv_leaf = leaf(column::kCandidates, column::kMv);
  MANAKA_ASSIGN_OR_RETURN(const int64_t levels, file->leaf_level_count(group, mv_leaf));
  const auto n = static_cast<size_t>(levels);
  const auto same_levels = [&](int k, const char* name) -> Status {
    MANAKA_ASSIGN_OR_RETURN(int64_t got, file->leaf_level_count(group, leaf(column::kCandidates, k)));
    if (got == levels) return Status();
    return Status::invalid(where + ": candidates." + name + " holds " + std::to_string(got) +
                           " levels, candidates.mv " + std::to_string(levels));
  };
  MANAKA_RETURN_NOT_OK(same_levels(column::kProb, "prob"));
  MANAKA_RETURN_NOT_OK(same_levels(column::kCp, "cp"));

  // cp first: its definition levels (0 the empty list; then 1 a null cp and
  // 2 a value, or 1 a value for a required cp) say whether any list is
  // empty. With none, every level of mv and prob holds a value and their
  // definition levels need not be decoded.
  const int cp_leaf = leaf(column::kCandidates, column::kCp);
  fit(s.cp_values, n);
  fit(s.def, n);
  MANAKA_ASSIGN_OR_RETURN(const int64_t cps,
                          file->read_leaf(group, cp_leaf, s.cp_values.data(), s.def.data(), nullptr));
  const bool every_level_a_candidate = !any_zero(s.def.data(), n);

  // mv: its repetition levels give the rows' lengths (0 starts a row).
  fit(s.values, n);
  fit(s.rep, n);
  if (!every_level_a_candidate) fit(s.mv_def, n);
  MANAKA_ASSIGN_OR_RETURN(const int64_t m,
                          file->read_leaf(group, mv_leaf, s.values.data(),
                                          every_level_a_candidate ? nullptr : s.mv_def.data(), s.rep.data()));
  fit(b.cand_offsets, static_cast<size_t>(rows) + 2);  // room for one row too many, refused below
  int64_t row = -1, count = 0;
  if (every_level_a_candidate) {  // a row starts at each repetition 0
    row = row_starts(s.rep.data(), n, rows, b.cand_offsets.data()) - 1;
    count = levels;
  } else {
    const int16_t *rep = s.rep.data(), *def = s.mv_def.data();
    int64_t* offsets = b.cand_offsets.data();
    for (size_t i = 0; i < n; ++i) {
      if (rep[i] == 0) {
        if (++row >= rows) break;
        offsets[row] = count;
      }
      count += def[i];  // 1: a candidate, 0: the empty list
    }
  }
  b.cand_offsets.resize(static_cast<size_t>(rows) + 1);
  if (row + 1 != rows || count != m || (n > 0 && s.rep[0] != 0)) {
    return Status::invalid(where + ": column candidates holds lists of " + std::to_string(row + 1) + " rows (" +
                           std::to_string(m) + " candidates) in a row group of " + std::to_string(rows) + " rows");
  }
  b.cand_offsets[rows] = m;
  narrow(s.values.data(), m, b.mv);

  fit(b.prob, n);
  MANAKA_ASSIGN_OR_RETURN(const int64_t probs,
                          file->read_leaf(group, leaf(column::kCandidates, column::kProb), b.prob.data(),
                                          every_level_a_candidate ? nullptr : s.mv_def.data(), nullptr));
  if (probs != m) return Status::invalid(where + ": candidates.prob has nulls");
  b.prob.resize(static_cast<size_t>(m));

  if (file->leaf_info(cp_leaf).max_def == 1) {
    if (cps != m) return Status::invalid(where + ": candidates.cp holds " + std::to_string(cps) + " values for " +
                                         std::to_string(m) + " candidates");
    narrow(s.cp_values.data(), m, b.cp);
    return Status();
  }
  if (cps == 0 && every_level_a_candidate) {  // self-play rows: every cp null
    fit(b.cp, static_cast<size_t>(m));
    fill_null_cp(b.cp);
    return Status();
  }
  fit(b.cp, static_cast<size_t>(m));
  int64_t at = 0, value = 0;
  {
    const int16_t* def = s.def.data();
    const int32_t* values = s.cp_values.data();
    int16_t* cp = b.cp.data();
    for (size_t i = 0; i < n; ++i) {
      const int16_t d = def[i];
      if (d == 0) continue;
      if (at == m) break;
      cp[at++] = d == 2 ? static_cast<int16_t>(values[value++]) : kNullCp;
    }
  }
  if (at != m || value != cps) {
    return Status::invalid(where + ": candidates.cp holds other than one value or null per candidate");
  }
  return Status();
}

ShardReader::ShardReader(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ShardReader::ShardReader(ShardReader&&) noexcept = default;
ShardReader& ShardReader::operator=(ShardReader&&) noexcept = default;
ShardReader::~ShardReader() = default;

Result<ShardReader> ShardReader::open(const std::string& path) {
  auto impl = std::make_unique<Impl>();
  MANAKA_ASSIGN_OR_RETURN(impl->file, parquet::ParquetFileReader::open(path));
  MANAKA_RETURN_NOT_OK(check_schema(impl->file->fields(), path));
  for (int c = 0; c < column::kCount; ++c) impl->fields[c] = impl->file->field_index(shard_fields()[c].name);
  impl->direct = direct_layout(*impl->file, impl->fields);
  for (const auto& [key, value] : impl->file->footer()) {
    if (key != "ARROW:schema") impl->footer.emplace_back(key, value);
    if (key == "pov" && value == "1") impl->pov = stream::Pov::Black;
  }
  MANAKA_RETURN_NOT_OK(check_footer(path, impl->footer));
  return ShardReader(std::move(impl));
}

const std::string& ShardReader::path() const { return impl_->file->path(); }
int64_t ShardReader::num_rows() const { return impl_->file->num_rows(); }
int ShardReader::num_row_groups() const { return impl_->file->num_row_groups(); }
int64_t ShardReader::row_group_rows(int group) const { return impl_->file->row_group_rows(group); }
const FooterPairs& ShardReader::footer() const { return impl_->footer; }

std::string footer_value(const FooterPairs& footer, std::string_view key) {
  for (const auto& [k, v] : footer)
    if (k == key) return v;
  return "";
}

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

// A pov-1 shard's values turned to the side to move's: value_z, value_q and
// every cp negated in the rows where White moves (stream::side_to_move_sign).
// 0 - v, not -v: a draw stays +0.0.
void turn_to_side_to_move(ShardBatch& b, stream::Pov pov) {
  for (int64_t r = 0; r < b.rows; ++r) {
    if (stream::side_to_move_sign(pov, b.packed[static_cast<size_t>(r) * kPackedLen + kSideToMoveByte]) > 0) continue;
    if (!b.value_z.empty()) b.value_z[r] = 0.0f - b.value_z[r];
    if (!b.value_q.empty()) b.value_q[r] = 0.0f - b.value_q[r];
    if (b.cand_offsets.empty()) continue;
    for (int64_t i = b.cand_offsets[r]; i < b.cand_offsets[r + 1]; ++i) {
      if (b.cp[i] != kNullCp) b.cp[i] = static_cast<int16_t>(-b.cp[i]);
    }
  }
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
  // Turning needs each row's side to move: packed is read for it, asked for or not.
  const bool turn = impl_->pov == stream::Pov::Black && (want.value_z || want.value_q || want.candidates);
  ShardColumns read = want;
  read.packed = want.packed || turn;
  MANAKA_RETURN_NOT_OK(impl_->read_columns(group, read, b));
  if (!turn) return Status();
  turn_to_side_to_move(b, impl_->pov);
  if (!want.packed) b.packed.clear();
  return Status();
}

Status ShardReader::Impl::read_columns(int group, const ShardColumns& want, ShardBatch& b) {
  const std::string& path = file->path();
  const bool wanted[column::kCount] = {want.packed, want.ply, want.value_z,
                                       want.value_q, want.weight, want.candidates};
  std::vector<int> fields;  // which file columns, in shard column order
  std::vector<int> columns;  // which shard columns
  for (int c = 0; c < column::kCount; ++c) {
    if (!wanted[c]) continue;
    fields.push_back(this->fields[c]);
    columns.push_back(c);
  }
  // Columns not asked for are emptied. Those asked for are resized by the
  // direct path (from their old size: a pooled vector fills no zeros where
  // it is overwritten), and emptied for Arrow's path, whose copies assign.
  if (!want.packed) b.packed.clear();
  if (!want.ply) b.ply.clear();
  if (!want.value_z) b.value_z.clear();
  if (!want.value_q) b.value_q.clear();
  if (!want.weight) b.weight.clear();
  if (!want.candidates) {
    b.cand_offsets.clear();
    b.mv.clear();
    b.prob.clear();
    b.cp.clear();
  }
  b.rows = file->row_group_rows(group);
  if (columns.empty()) return Status();
  const std::string where = path + ": row group " + std::to_string(group);
  if (direct) return read_direct(group, wanted, b, where);
  b.packed.clear();
  b.ply.clear();
  b.value_z.clear();
  b.value_q.clear();
  b.weight.clear();
  b.cand_offsets.clear();
  b.mv.clear();
  b.prob.clear();
  b.cp.clear();
  MANAKA_ASSIGN_OR_RETURN(parquet::ColumnBatch read, file->read_row_group(group, fields));

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
