// The fold: records grouped by their board bytes alone (ply is not part of
// the key), each group becoming one shard row (docs: "Folding, and where the
// division happens").
//
//   candidates  the union, matched by mv, in order of first appearance: the
//               first record of the group (in the order add() saw them) in its
//               own order, then each later record's moves not yet listed.
//               visits summed in u64, or cp summed in i64 and divided by the
//               number of records that listed the move (rounded_mean).
//   value_z     mean over the group (exact: a sum of -1/0/1 in an i64)
//   value_q     mean over the group (summed in double, in add() order)
//   ply         the minimum
//   weight      the number of records
// prob is derived last, in emit(), from the merged list (fold/policy.h).
//
// Memory, for R records, G groups and C candidates in all:
//   boards     G x 96 bytes, one arena, in group order
//   groups     G x 32 bytes (first/last record, weight, min ply, sums)
//   index      open addressing, 2^k u64 slots at load <= 1/2; a slot is
//              (high 32 bits of the board hash) << 32 | (group + 1)
//   records    R x 12 bytes (candidate offset u64, next record in group u32)
//   candidates C x 4 bytes (mv u16, visits or cp as u16); a visit count of
//              65535 or more (rare: self-play searches are a few thousand
//              visits) is kept aside in `wide`, 12 bytes each
// Each arena is a MappedVector (fold/mapped_vector.h), returned to the system
// when the table goes. Nothing per group is allocated on its own: a group's records are a linked
// list through `records`, walked once when the row is emitted.
#pragma once

#include <algorithm>
#include <array>
#include <cassert>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "core/status.h"
#include "fold/board_hash.h"
#include "fold/mapped_vector.h"
#include "fold/policy.h"
#include "shard/row.h"
#include "stream/format.h"

namespace manaka::shard {
class ShardSink;
}

namespace manaka::fold {

class FoldTable {
 public:
  explicit FoldTable(stream::PolicySource source);

  // Capacity hints (the vectors still grow past them).
  void reserve(uint64_t records, uint64_t candidates);

  // Adds a validated record whose packed is 96 bytes and whose moves are
  // distinct (the reader's rule 9). Fails only past 2^32 - 1 records or groups.
  // A record joins its group kLookahead records later (its index slot is
  // prefetched meanwhile), and the last ones at flush(): call flush() after
  // the last add() and before groups(), weight() or emit().
  Status add(const stream::RecordView& rec) { return add(rec, hash_board(rec.packed.data())); }
  // The same, for a caller that has hashed the board already (hash_board).
  Status add(const stream::RecordView& rec, uint64_t board_hash);
  void flush();
  // flush(), then gives back the index's memory: for a table that takes no
  // more records, whose index would otherwise stay resident while its rows
  // are emitted (the in-memory fold's parts: 16 MiB each for 2M records).
  void seal();

  uint32_t groups() const {
    assert(pending_count_ == 0);
    return static_cast<uint32_t>(groups_.size());
  }
  uint64_t records() const { return next_.size(); }
  uint32_t weight(uint32_t group) const { return groups_[group].weight; }
  // The group's first record (records are numbered in add() order). Groups
  // are numbered in the order of their first records.
  uint32_t first_record(uint32_t group) const { return groups_[group].first; }

  // emit()'s working memory: one per thread emitting at once (the table
  // itself is only read by emit()).
  struct EmitScratch {
    std::vector<int32_t> slot = std::vector<int32_t>(size_t{1} << 16, -1);  // mv -> slot, -1 none
    std::vector<uint64_t> visits;
    std::vector<int64_t> cp_sum;
    std::vector<uint32_t> listed;
    std::vector<int16_t> turned;  // cp in the side to move's view (PolicyRule::cp_prob)
  };

  // Group g's folded row, prob derived by `rule`; row's vectors are reused.
  // The form with a scratch may run on several threads at once.
  void emit(uint32_t group, const PolicyRule& rule, shard::Row& row) { emit(group, rule, row, scratch_); }
  void emit(uint32_t group, const PolicyRule& rule, shard::Row& row, EmitScratch& scratch) const;

  // Emits the groups in the order given, calling sink(const shard::Row&) ->
  // Status for each; stops at the first error. Groups in a random order
  // touch memory at random, so this walks the order with software
  // prefetches running ahead of it in stages (group, then its board and
  // first record, then that record's candidates).
  template <typename Sink>
  Status emit_in_order(std::span<const uint32_t> order, const PolicyRule& rule, Sink&& sink) {
    return emit_in_order(order, rule, scratch_, std::forward<Sink>(sink));
  }
  template <typename Sink>
  Status emit_in_order(std::span<const uint32_t> order, const PolicyRule& rule, EmitScratch& scratch,
                       Sink&& sink) const {
    return emit_each(order.size(), [&](size_t k) { return GroupRef{this, order[k]}; }, rule, scratch,
                     std::forward<Sink>(sink));
  }

  // emit() into a shard: a row of one record with visit counts (most
  // self-play rows) goes straight into the sink's row group, its mv and prob
  // written in place (no Row, no copy of it); any other through emit() and
  // sink.append(). The same values either way.
  Status emit_to(uint32_t group, const PolicyRule& rule, shard::Row& row, EmitScratch& scratch,
                 shard::ShardSink& sink) const;

  // A group of one of several tables (a fold split by board hash, each part
  // folded on its own thread).
  struct GroupRef {
    const FoldTable* table;
    uint32_t group;
  };
  // Calls visit(GroupRef) -> Status for at(0), ..., at(n - 1) (at(k) ->
  // GroupRef), prefetching ahead as emit_in_order does; stops at the first error.
  template <typename At, typename Visit>
  static Status visit_each(size_t n, At&& at, Visit&& visit);
  // Emits rows at(0), ..., at(n - 1) through emit() and sink(const Row&).
  template <typename At, typename Sink>
  static Status emit_each(size_t n, At&& at, const PolicyRule& rule, EmitScratch& scratch, Sink&& sink);

  // Drops every record and group, keeping the arenas' memory for the next
  // fold: a table reused spool after spool (--buckets) faults its pages in
  // once, not once a spool. The memory goes with the table.
  void clear();

 private:
  struct Group {
    uint32_t first = 0, last = 0;  // records, linked through next_
    uint32_t weight = 0;
    uint16_t ply = 0;
    int64_t sum_z = 0;
    double sum_q = 0.0;
  };
  static constexpr uint32_t kEnd = UINT32_MAX;
  static constexpr size_t kLookahead = 16;

  // A record whose candidates are stored but whose group is not yet known.
  struct Pending {
    uint32_t record;
    uint16_t ply;
    float value_z, value_q;
    uint32_t tag;  // high 32 bits of the board hash
    std::array<uint8_t, shard::kPackedLen> board;
  };

  void join_group(const Pending& p);
  void emit_head(uint32_t group, shard::Row& row) const;  // the row's fields but its candidates
  uint32_t find_or_insert(const uint8_t* board, uint32_t tag);
  void prefetch_group(uint32_t g) const { __builtin_prefetch(&groups_[g]); }
  void prefetch_record_of(uint32_t g) const {
    const uint8_t* b = boards_.data() + uint64_t{g} * shard::kPackedLen;
    __builtin_prefetch(b);
    __builtin_prefetch(b + shard::kPackedLen - 1);
    const uint32_t r = groups_[g].first;
    __builtin_prefetch(&cand_begin_[r]);
    __builtin_prefetch(&next_[r]);
  }
  void prefetch_candidates_of(uint32_t g) const {
    const uint64_t c = cand_begin_[groups_[g].first];
    __builtin_prefetch(&mv_[c]);
    __builtin_prefetch(&value_[c]);
  }
  void grow_index();

  // A candidate's visits: value_[i], or its entry in wide_ when value_[i] is kWide.
  uint32_t visits_at(uint64_t i) const { return value_[i] != kWide ? value_[i] : wide_visits(i); }

  stream::PolicySource source_;
  MappedVector<uint8_t> boards_;
  MappedVector<Group> groups_;
  MappedVector<uint64_t> index_;
  uint64_t index_mask_ = 0;
  MappedVector<uint64_t> cand_begin_{0};  // record r's candidates: [begin[r], begin[r+1])
  MappedVector<uint32_t> next_;
  MappedVector<uint16_t> mv_;
  // Visits, or cp as uint16 bits: 2 bytes a candidate instead of 4 saves a
  // sixth of the fold's memory (a gigabyte's arenas for 2M records) and a
  // cache line of emit's random reads a row.
  MappedVector<uint16_t> value_;
  static constexpr uint16_t kWide = UINT16_MAX;  // visits >= kWide: see wide_
  struct Wide {
    uint64_t at;  // the candidate's index; ascending, as add() appends
    uint32_t visits;
  };
  std::vector<Wide> wide_;
  std::vector<Wide>::const_iterator wide_from(uint64_t i) const;
  uint32_t wide_visits(uint64_t i) const;
  // Whether any of candidates [lo, hi) is wide.
  bool any_wide(uint64_t lo, uint64_t hi) const;
  std::array<Pending, kLookahead> pending_;  // a ring
  size_t pending_head_ = 0, pending_count_ = 0;

  EmitScratch scratch_;  // the single-threaded emit()'s
};

template <typename At, typename Visit>
Status FoldTable::visit_each(size_t n, At&& at, Visit&& visit) {
  constexpr size_t kFar = 24, kMid = 12, kNear = 6;  // rows ahead of the one emitted
  for (size_t k = 0; k < std::min(n, kFar); ++k) { const GroupRef g = at(k); g.table->prefetch_group(g.group); }
  for (size_t k = 0; k < std::min(n, kMid); ++k) { const GroupRef g = at(k); g.table->prefetch_record_of(g.group); }
  for (size_t k = 0; k < std::min(n, kNear); ++k) { const GroupRef g = at(k); g.table->prefetch_candidates_of(g.group); }
  for (size_t k = 0; k < n; ++k) {
    if (k + kFar < n) { const GroupRef g = at(k + kFar); g.table->prefetch_group(g.group); }
    if (k + kMid < n) { const GroupRef g = at(k + kMid); g.table->prefetch_record_of(g.group); }
    if (k + kNear < n) { const GroupRef g = at(k + kNear); g.table->prefetch_candidates_of(g.group); }
    MANAKA_RETURN_NOT_OK(visit(at(k)));
  }
  return Status();
}

template <typename At, typename Sink>
Status FoldTable::emit_each(size_t n, At&& at, const PolicyRule& rule, EmitScratch& scratch, Sink&& sink) {
  shard::Row row;
  return visit_each(n, at, [&](const GroupRef g) {
    g.table->emit(g.group, rule, row, scratch);
    return sink(static_cast<const shard::Row&>(row));
  });
}

}  // namespace manaka::fold
