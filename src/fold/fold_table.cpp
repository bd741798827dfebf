#include "fold/fold_table.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <span>

#include "fold/board_hash.h"
#include "shard/shard_writer.h"

namespace manaka::fold {

namespace {
constexpr uint64_t kMinIndexSlots = 1024;
constexpr uint64_t kMaxIds = UINT32_MAX - 1;  // ids fit u32 with one value spare
}  // namespace

FoldTable::FoldTable(stream::PolicySource source)
    : source_(source), index_(kMinIndexSlots, 0), index_mask_(kMinIndexSlots - 1) {}

void FoldTable::reserve(uint64_t records, uint64_t candidates) {
  records = std::min<uint64_t>(records, kMaxIds);
  boards_.reserve(records * kBoardBytes);
  groups_.reserve(records);
  cand_begin_.reserve(records + 1);
  next_.reserve(records);
  mv_.reserve(candidates);
  value_.reserve(candidates);
}

void FoldTable::clear() {
  boards_.clear();
  groups_.clear();
  std::fill(index_.begin(), index_.end(), 0);
  cand_begin_.resize(1);
  next_.clear();
  mv_.clear();
  value_.clear();
  wide_.clear();
  pending_head_ = pending_count_ = 0;
}

void FoldTable::grow_index() {
  MappedVector<uint64_t> bigger(index_.size() * 2, 0);
  const uint64_t mask = bigger.size() - 1;
  for (uint64_t e : index_) {
    if (e == 0) continue;
    uint64_t pos = (e >> 32) & mask;
    while (bigger[pos] != 0) pos = (pos + 1) & mask;
    bigger[pos] = e;
  }
  index_ = std::move(bigger);
  index_mask_ = mask;
}

uint32_t FoldTable::find_or_insert(const uint8_t* board, uint32_t tag) {
  uint64_t pos = tag & index_mask_;
  while (true) {
    const uint64_t e = index_[pos];
    if (e == 0) break;
    if ((e >> 32) == tag) {
      const auto g = static_cast<uint32_t>((e & 0xFFFFFFFFull) - 1);
      if (std::memcmp(boards_.data() + uint64_t{g} * kBoardBytes, board, kBoardBytes) == 0) return g;
    }
    pos = (pos + 1) & index_mask_;
  }
  const auto g = static_cast<uint32_t>(groups_.size());
  index_[pos] = (uint64_t{tag} << 32) | (uint64_t{g} + 1);
  boards_.insert(boards_.end(), board, board + kBoardBytes);
  groups_.emplace_back();
  if (groups_.size() * 2 > index_.size()) grow_index();
  return g;
}

Status FoldTable::add(const stream::RecordView& rec, uint64_t board_hash) {
  assert(rec.packed.size() == kBoardBytes && !rec.candidates.empty());
  assert(!index_.empty());  // not sealed
  if (next_.size() >= kMaxIds) {
    return Status::invalid("more than " + std::to_string(kMaxIds) +
                           " records in one fold; split the work with --buckets");
  }
  Pending p;
  p.record = static_cast<uint32_t>(next_.size());
  p.ply = rec.ply;
  p.value_z = rec.value_z;
  p.value_q = rec.value_q;
  p.tag = static_cast<uint32_t>(board_hash >> 32);
  std::memcpy(p.board.data(), rec.packed.data(), kBoardBytes);
  __builtin_prefetch(&index_[p.tag & index_mask_]);
  next_.push_back(kEnd);
  // Sized once, then filled: a push_back per candidate checks the capacity each time.
  const size_t at = mv_.size(), n = rec.candidates.size();
  mv_.resize(at + n);
  value_.resize(at + n);
  uint16_t* mv = mv_.data() + at;
  uint16_t* value = value_.data() + at;
  if (source_ == stream::PolicySource::Visits) {
    for (size_t i = 0; i < n; ++i) {
      mv[i] = rec.candidates[i].mv;
      const uint32_t v = rec.candidates[i].visits;
      value[i] = v < kWide ? static_cast<uint16_t>(v) : kWide;
      if (v >= kWide) [[unlikely]] wide_.push_back({at + i, v});
    }
  } else {
    for (size_t i = 0; i < n; ++i) {
      mv[i] = rec.candidates[i].mv;
      value[i] = static_cast<uint16_t>(rec.candidates[i].cp);
    }
  }
  cand_begin_.push_back(mv_.size());

  if (pending_count_ == kLookahead) {
    join_group(pending_[pending_head_]);
    pending_head_ = (pending_head_ + 1) % kLookahead;
    --pending_count_;
  }
  pending_[(pending_head_ + pending_count_) % kLookahead] = p;
  ++pending_count_;
  return Status();
}

void FoldTable::flush() {
  while (pending_count_ > 0) {
    join_group(pending_[pending_head_]);
    pending_head_ = (pending_head_ + 1) % kLookahead;
    --pending_count_;
  }
}

void FoldTable::seal() {
  flush();
  MappedVector<uint64_t>().swap(index_);
  index_mask_ = 0;
}

// Records join in the order add() saw them, so each group's list, and with
// it the candidate order and the float sums, follows the input order.
void FoldTable::join_group(const Pending& p) {
  const uint32_t g = find_or_insert(p.board.data(), p.tag);
  Group& grp = groups_[g];
  if (grp.weight == 0) {
    grp.first = p.record;
    grp.ply = p.ply;
  } else {
    next_[grp.last] = p.record;
    grp.ply = p.ply < grp.ply ? p.ply : grp.ply;
  }
  grp.last = p.record;
  ++grp.weight;
  grp.sum_z += static_cast<int64_t>(p.value_z);  // validated: exactly -1, 0 or 1
  grp.sum_q += static_cast<double>(p.value_q);
}

// wide_'s first entry at candidate i or later (wide_ is sorted by candidate).
std::vector<FoldTable::Wide>::const_iterator FoldTable::wide_from(uint64_t i) const {
  return std::lower_bound(wide_.begin(), wide_.end(), i, [](const Wide& w, uint64_t at) { return w.at < at; });
}

uint32_t FoldTable::wide_visits(uint64_t i) const {
  const auto it = wide_from(i);
  assert(it != wide_.end() && it->at == i);
  return it->visits;
}

bool FoldTable::any_wide(uint64_t lo, uint64_t hi) const {
  if (wide_.empty()) return false;
  const auto it = wide_from(lo);
  return it != wide_.end() && it->at < hi;
}

Status FoldTable::emit_to(uint32_t group, const PolicyRule& rule, shard::Row& row, EmitScratch& scratch,
                          shard::ShardSink& sink) const {
  const Group& grp = groups_[group];
  const uint64_t lo = cand_begin_[grp.first], hi = cand_begin_[grp.first + 1];
  if (grp.weight != 1 || source_ != stream::PolicySource::Visits || any_wide(lo, hi)) {
    emit(group, rule, row, scratch);
    return sink.append(row);
  }
  emit_head(group, row);
  MANAKA_ASSIGN_OR_RETURN(shard::CandidateSlots slots, sink.open_row(row, hi - lo));
  std::copy(mv_.begin() + static_cast<ptrdiff_t>(lo), mv_.begin() + static_cast<ptrdiff_t>(hi), slots.mv.begin());
  normalise_visits(std::span<const uint16_t>(value_.data() + lo, hi - lo), slots.prob);
  return sink.close_row();
}

void FoldTable::emit_head(uint32_t group, shard::Row& row) const {
  assert(pending_count_ == 0);
  const Group& grp = groups_[group];
  std::memcpy(row.packed.data(), boards_.data() + uint64_t{group} * kBoardBytes, kBoardBytes);
  row.ply = grp.ply;
  row.weight = grp.weight;
  row.value_z = static_cast<float>(static_cast<double>(grp.sum_z) / grp.weight);
  row.value_q = static_cast<float>(grp.sum_q / grp.weight);
}

void FoldTable::emit(uint32_t group, const PolicyRule& rule, shard::Row& row, EmitScratch& scratch) const {
  const Group& grp = groups_[group];
  emit_head(group, row);
  row.clear_candidates();
  const bool by_visits = source_ == stream::PolicySource::Visits;

  if (grp.weight == 1) {  // most rows: nothing to merge, the record's list as is
    const uint64_t lo = cand_begin_[grp.first], hi = cand_begin_[grp.first + 1];
    const size_t n = hi - lo;
    row.mv.assign(mv_.begin() + static_cast<ptrdiff_t>(lo), mv_.begin() + static_cast<ptrdiff_t>(hi));
    row.prob.resize(n);
    if (by_visits) {
      scratch.visits.resize(n);
      for (size_t i = 0; i < n; ++i) scratch.visits[i] = visits_at(lo + i);
      row.cp.assign(n, shard::kNullCp);
      normalise_visits(scratch.visits, row.prob);
    } else {
      row.cp.resize(n);
      for (size_t i = 0; i < n; ++i) {
        row.cp[i] = static_cast<int16_t>(static_cast<uint16_t>(value_[lo + i]));
      }
      rule.cp_prob(row.cp, row.packed[shard::kSideToMoveByte], scratch.turned, row.prob);
    }
    return;
  }

  // Merge: one slot per distinct mv, in order of first appearance.
  scratch.visits.clear();
  scratch.cp_sum.clear();
  scratch.listed.clear();
  for (uint32_t r = grp.first; r != kEnd; r = next_[r]) {
    for (uint64_t i = cand_begin_[r]; i < cand_begin_[r + 1]; ++i) {
      const uint16_t mv = mv_[i];
      int32_t s = scratch.slot[mv];
      if (s < 0) {
        s = static_cast<int32_t>(row.mv.size());
        scratch.slot[mv] = s;
        row.mv.push_back(mv);
        scratch.visits.push_back(0);
        scratch.cp_sum.push_back(0);
        scratch.listed.push_back(0);
      }
      if (by_visits) {
        scratch.visits[s] += visits_at(i);
      } else {
        scratch.cp_sum[s] += static_cast<int16_t>(static_cast<uint16_t>(value_[i]));
      }
      ++scratch.listed[s];
    }
  }
  for (uint16_t mv : row.mv) scratch.slot[mv] = -1;

  const size_t n = row.mv.size();
  row.prob.resize(n);
  if (by_visits) {
    row.cp.assign(n, shard::kNullCp);
    normalise_visits(scratch.visits, row.prob);
  } else {
    row.cp.resize(n);
    for (size_t i = 0; i < n; ++i) {
      row.cp[i] = static_cast<int16_t>(rounded_mean(scratch.cp_sum[i], scratch.listed[i]));
    }
    rule.cp_prob(row.cp, row.packed[shard::kSideToMoveByte], scratch.turned, row.prob);
  }
}

}  // namespace manaka::fold
