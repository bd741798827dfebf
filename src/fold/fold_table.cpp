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
// Index slots and links hold a record's offset / 8 in 32 bits, UINT32_MAX
// being the end of a list.
constexpr uint64_t kMaxRecordBytes = uint64_t{8} * UINT32_MAX;
}  // namespace

FoldTable::FoldTable(stream::PolicySource source)
    : source_(source), index_(kMinIndexSlots, 0), index_mask_(kMinIndexSlots - 1) {}

// A record's head and board, 4 bytes of padding at most, 4 bytes a candidate.
uint64_t FoldTable::arena_bytes(uint64_t records, uint64_t candidates) {
  return std::min(std::min<uint64_t>(records, kMaxIds) * (kHeadBytes + kBoardBytes + 4) + candidates * 4,
                  kMaxRecordBytes);
}

// And a group a record at most.
uint64_t FoldTable::reserve_bytes(uint64_t records, uint64_t candidates) {
  return arena_bytes(records, candidates) + std::min<uint64_t>(records, kMaxIds) * sizeof(Group);
}

void FoldTable::reserve(uint64_t records, uint64_t candidates) {
  records_.reserve(arena_bytes(records, candidates));
  groups_.reserve(std::min<uint64_t>(records, kMaxIds));
}

void FoldTable::clear() {
  records_.clear();
  record_count_ = 0;
  groups_.clear();
  std::fill(index_.begin(), index_.end(), 0);
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

// A slot is tag << 32 | (offset / 8 + 1): never 0, which marks an empty slot.
uint32_t FoldTable::find_or_insert(uint64_t at, uint32_t tag) {
  const uint8_t* board = board_at(at);
  uint64_t pos = tag & index_mask_;
  while (true) {
    const uint64_t e = index_[pos];
    if (e == 0) break;
    if ((e >> 32) == tag) {
      const uint64_t first = ((e & 0xFFFFFFFFull) - 1) * 8;
      if (std::memcmp(board_at(first), board, kBoardBytes) == 0) return head(first).group;
    }
    pos = (pos + 1) & index_mask_;
  }
  const auto g = static_cast<uint32_t>(groups_.size());
  index_[pos] = (uint64_t{tag} << 32) | (at / 8 + 1);
  groups_.emplace_back();
  if (groups_.size() * 2 > index_.size()) grow_index();
  return g;
}

Status FoldTable::add(const stream::RecordView& rec, uint64_t board_hash) {
  assert(rec.packed.size() == kBoardBytes && !rec.candidates.empty());
  assert(!index_.empty());  // not sealed
  const size_t n = rec.candidates.size();
  const uint64_t at = records_.size(), bytes = record_bytes(n);
  if (record_count_ >= kMaxIds || at + bytes > kMaxRecordBytes) {
    return Status::invalid(std::to_string(record_count_) + " records (" + std::to_string(at) +
                           " bytes) fill one fold table, which holds at most " + std::to_string(kMaxIds) +
                           " records and 32 GiB of them; split the work with --buckets");
  }
  records_.resize(at + bytes);
  uint8_t* r = records_.data() + at;
  const Head h{kEnd, record_count_, 0, rec.value_q, static_cast<uint16_t>(n), rec.ply,
               static_cast<int8_t>(rec.value_z), {}};
  std::memcpy(r, &h, sizeof h);
  std::memcpy(r + kHeadBytes, rec.packed.data(), kBoardBytes);
  auto* mv = reinterpret_cast<uint16_t*>(r + kHeadBytes + kBoardBytes);
  uint16_t* value = mv + n;
  if (source_ == stream::PolicySource::Visits) {
    for (size_t i = 0; i < n; ++i) {
      mv[i] = rec.candidates[i].mv;
      const uint32_t v = rec.candidates[i].visits;
      value[i] = v < kWide ? static_cast<uint16_t>(v) : kWide;
      if (v >= kWide) [[unlikely]] wide_.push_back({offset_of(value + i), v});
    }
  } else {
    for (size_t i = 0; i < n; ++i) {
      mv[i] = rec.candidates[i].mv;
      value[i] = static_cast<uint16_t>(rec.candidates[i].cp);
    }
  }
  ++record_count_;

  const Pending p{at, static_cast<uint32_t>(board_hash >> 32)};
  __builtin_prefetch(&index_[p.tag & index_mask_]);
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
  const uint32_t g = find_or_insert(p.at, p.tag);
  const Head h = head(p.at);
  Group& grp = groups_[g];
  if (grp.weight == 0) {
    grp.first = p.at;
    grp.ply = h.ply;
    set(p.at, offsetof(Head, group), g);
  } else {  // right after the first record (Head)
    set(p.at, offsetof(Head, next), head(grp.first).next);
    set(grp.first, offsetof(Head, next), static_cast<uint32_t>(p.at / 8));
    grp.ply = h.ply < grp.ply ? h.ply : grp.ply;
  }
  ++grp.weight;
  grp.sum_z += h.value_z;
  grp.sum_q += static_cast<double>(h.value_q);
}

// wide_'s first entry at byte offset `at` or later (wide_ is sorted).
std::vector<FoldTable::Wide>::const_iterator FoldTable::wide_from(uint64_t at) const {
  return std::lower_bound(wide_.begin(), wide_.end(), at, [](const Wide& w, uint64_t x) { return w.at < x; });
}

uint32_t FoldTable::wide_visits(uint64_t at) const {
  const auto it = wide_from(at);
  assert(it != wide_.end() && it->at == at);
  return it->visits;
}

bool FoldTable::any_wide(uint64_t lo, uint64_t hi) const {
  if (wide_.empty()) return false;
  const auto it = wide_from(lo);
  return it != wide_.end() && it->at < hi;
}

Status FoldTable::emit_to(uint64_t at, const PolicyRule& rule, shard::Row& row, EmitScratch& scratch,
                          shard::ShardSink& sink) const {
  const Head h = head(at);
  if (h.next != kEnd || source_ != stream::PolicySource::Visits || any_wide(at, at + record_bytes(h.n))) {
    emit_row(at, rule, row, scratch);
    return sink.append(row);
  }
  emit_head(at, h, row);
  MANAKA_ASSIGN_OR_RETURN(shard::CandidateSlots slots, sink.open_row(row, h.n));
  const uint16_t* mv = mv_at(at);
  std::copy(mv, mv + h.n, slots.mv.begin());
  normalise_visits(std::span<const uint16_t>(value_at(at, h.n), h.n), slots.prob);
  return sink.close_row();
}

// A group of one record: its own ply and values are the group's (the means
// of one value are the value, as the group's sums would give them).
void FoldTable::emit_head(uint64_t at, const Head& h, shard::Row& row) const {
  assert(pending_count_ == 0);
  std::memcpy(row.packed.data(), board_at(at), kBoardBytes);
  if (h.next == kEnd) {
    row.ply = h.ply;
    row.weight = 1;
    row.value_z = static_cast<float>(h.value_z);
    row.value_q = h.value_q;
    return;
  }
  const Group& grp = groups_[h.group];
  row.ply = grp.ply;
  row.weight = grp.weight;
  row.value_z = static_cast<float>(static_cast<double>(grp.sum_z) / grp.weight);
  row.value_q = static_cast<float>(grp.sum_q / grp.weight);
}

void FoldTable::emit_row(uint64_t first, const PolicyRule& rule, shard::Row& row, EmitScratch& scratch) const {
  const Head h = head(first);
  emit_head(first, h, row);
  row.clear_candidates();
  const bool by_visits = source_ == stream::PolicySource::Visits;

  if (h.next == kEnd) {  // most rows: nothing to merge, the record's list as is
    const size_t n = h.n;
    const uint16_t* mv = mv_at(first);
    const uint16_t* value = value_at(first, n);
    row.mv.assign(mv, mv + n);
    row.prob.resize(n);
    if (by_visits) {
      scratch.visits.resize(n);
      for (size_t i = 0; i < n; ++i) scratch.visits[i] = visits_at(value + i);
      row.cp.assign(n, shard::kNullCp);
      normalise_visits(scratch.visits, row.prob);
    } else {
      row.cp.resize(n);
      for (size_t i = 0; i < n; ++i) row.cp[i] = static_cast<int16_t>(value[i]);
      rule.cp_prob(row.cp, row.packed[shard::kSideToMoveByte], scratch.turned, row.prob);
    }
    return;
  }

  // The records in add() order: the first, then the rest of the list reversed.
  scratch.chain.assign(1, first);
  for (uint32_t next = h.next; next != kEnd; next = head(uint64_t{next} * 8).next) {
    scratch.chain.push_back(uint64_t{next} * 8);
  }
  std::reverse(scratch.chain.begin() + 1, scratch.chain.end());

  // Merge: one slot per distinct mv, in order of first appearance.
  scratch.visits.clear();
  scratch.cp_sum.clear();
  scratch.listed.clear();
  for (const uint64_t at : scratch.chain) {
    const Head r = head(at);
    const uint16_t* mv = mv_at(at);
    const uint16_t* value = value_at(at, r.n);
    for (size_t i = 0; i < r.n; ++i) {
      int32_t s = scratch.slot[mv[i]];
      if (s < 0) {
        s = static_cast<int32_t>(row.mv.size());
        scratch.slot[mv[i]] = s;
        row.mv.push_back(mv[i]);
        scratch.visits.push_back(0);
        scratch.cp_sum.push_back(0);
        scratch.listed.push_back(0);
      }
      if (by_visits) {
        scratch.visits[s] += visits_at(value + i);
      } else {
        scratch.cp_sum[s] += static_cast<int16_t>(value[i]);
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
