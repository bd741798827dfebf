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
//   records    one arena of R records in add() order, each 8-aligned and
//              contiguous: a 24-byte head (the next record of its group as
//              offset / 8, record number, group, candidate count, the
//              record's own ply, value_z and value_q), the board's 96 bytes,
//              mv u16[n], visits or cp as u16[n]: 120 + 4n bytes, rounded up
//              to 8
//   groups     G x 32 bytes (first record's offset, weight, min ply, sums)
//   index      open addressing, 2^k u64 slots at load <= 1/2; a slot is
//              (high 32 bits of the board hash) << 32 | (first record's
//              offset / 8 + 1), so a probe reads the board it compares with
//              straight away
//   wide       a visit count of 65535 or more (rare: self-play searches are
//              a few thousand visits), kept aside, 16 bytes each
// A shuffled emit reaches a row by its first record (row_of): the row of one
// record (most rows) is then one contiguous run of about 5 cache lines,
// where separate arrays for the groups, boards, record starts, links, moves
// and values cost a cache miss and a page walk each (src/fold/README.md,
// "Records in one piece").
// Each arena is a MappedVector (fold/mapped_vector.h), returned to the system
// when the table goes. Nothing per group is allocated on its own: a group's
// records are a linked list through their heads, walked once when the row is
// emitted.
#pragma once

#include <algorithm>
#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
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

  // Capacity hints (the vectors still grow past them), and the memory they
  // ask for: address space, resident only as records are added.
  void reserve(uint64_t records, uint64_t candidates);
  static uint64_t reserve_bytes(uint64_t records, uint64_t candidates);

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
  uint64_t records() const { return record_count_; }
  uint32_t weight(uint32_t group) const { return groups_[group].weight; }
  // The group's first record (records are numbered in add() order). Groups
  // are numbered in the order of their first records.
  uint32_t first_record(uint32_t group) const { return head(groups_[group].first).record; }

  // emit()'s working memory: one per thread emitting at once (the table
  // itself is only read by emit()).
  struct EmitScratch {
    std::vector<int32_t> slot = std::vector<int32_t>(size_t{1} << 16, -1);  // mv -> slot, -1 none
    std::vector<uint64_t> visits;
    std::vector<int64_t> cp_sum;
    std::vector<uint32_t> listed;
    std::vector<int16_t> turned;  // cp in the side to move's view (PolicyRule::cp_prob)
    std::vector<uint64_t> chain;  // a group's records in add() order
  };

  // Group g's folded row, prob derived by `rule`; row's vectors are reused.
  // The form with a scratch may run on several threads at once.
  void emit(uint32_t group, const PolicyRule& rule, shard::Row& row) { emit(group, rule, row, scratch_); }
  void emit(uint32_t group, const PolicyRule& rule, shard::Row& row, EmitScratch& scratch) const {
    emit_row(row_of(group), rule, row, scratch);
  }

  // A group's row by where its first record lies, the handle a shuffled emit
  // walks: a row of one record (most rows) is then read from that record
  // alone, one contiguous run of memory, without the group's entry.
  uint64_t row_of(uint32_t group) const { return groups_[group].first; }
  void emit_row(uint64_t row_ref, const PolicyRule& rule, shard::Row& row, EmitScratch& scratch) const;

  // emit_row() into a shard: a row of one record with visit counts (most
  // self-play rows) goes straight into the sink's row group, its mv and prob
  // written in place (no Row, no copy of it); any other through emit_row()
  // and sink.append(). The same values either way.
  Status emit_to(uint64_t row_ref, const PolicyRule& rule, shard::Row& row, EmitScratch& scratch,
                 shard::ShardSink& sink) const;

  // A row of one of several tables (a fold split by board hash, each part
  // folded on its own thread).
  struct RowRef {
    const FoldTable* table;
    uint64_t row;  // row_of(group)
  };
  // Calls visit(RowRef) -> Status for at(0), ..., at(n - 1) (at(k) ->
  // RowRef); stops at the first error. Rows in a random order touch memory
  // at random, so this walks the order with software prefetches running
  // ahead of it in two stages (a record's head and board, then the rest of
  // it and, for a row of several records, its group).
  template <typename At, typename Visit>
  static Status visit_each(size_t n, At&& at, Visit&& visit);

  // Drops every record and group, keeping the arenas' memory for the next
  // fold: a table reused spool after spool (--buckets) faults its pages in
  // once, not once a spool. The memory goes with the table.
  void clear();

 private:
  // A record's head in records_; the board, mv[n] and value[n] follow it.
  // Links are offsets / 8 (records_ stays under 32 GiB, kMaxRecordBytes).
  // The record's own ply and values are kept for the row of one record.
  // A group's list is its first record, then the others newest first (a
  // record joins right after the first: no link to the last is kept), and
  // is read in add() order by emit_row.
  struct Head {
    uint32_t next;    // the list's next record, kEnd for none
    uint32_t record;  // add() order
    uint32_t group;
    float value_q;
    uint16_t n;       // candidates
    uint16_t ply;
    int8_t value_z;   // validated: -1, 0 or 1
    uint8_t unused[3];
  };
  static constexpr uint64_t kHeadBytes = sizeof(Head);
  static_assert(kHeadBytes == 24 && (kHeadBytes + shard::kPackedLen) % 8 == 0);
  struct Group {
    uint64_t first = 0;  // the first record's offset in records_
    double sum_q = 0.0;
    int64_t sum_z = 0;
    uint32_t weight = 0;
    uint16_t ply = 0;
  };
  static_assert(sizeof(Group) == 32);
  static constexpr uint32_t kEnd = UINT32_MAX;
  static constexpr size_t kLookahead = 16;

  // A record stored, whose group is not yet known.
  struct Pending {
    uint64_t at;   // offset in records_
    uint32_t tag;  // high 32 bits of the board hash
  };

  // records_'s share of reserve_bytes().
  static uint64_t arena_bytes(uint64_t records, uint64_t candidates);
  // Bytes a record of n candidates takes in records_ (8-aligned).
  static uint64_t record_bytes(size_t n) { return (kHeadBytes + shard::kPackedLen + 4 * n + 7) & ~uint64_t{7}; }
  Head head(uint64_t at) const {
    Head h;
    std::memcpy(&h, records_.data() + at, sizeof h);
    return h;
  }
  template <typename T>
  void set(uint64_t at, size_t field, T value) { std::memcpy(records_.data() + at + field, &value, sizeof value); }
  const uint8_t* board_at(uint64_t at) const { return records_.data() + at + kHeadBytes; }
  const uint16_t* mv_at(uint64_t at) const {
    return reinterpret_cast<const uint16_t*>(records_.data() + at + kHeadBytes + shard::kPackedLen);
  }
  // The values (visits or cp bits) of a record of n candidates.
  const uint16_t* value_at(uint64_t at, size_t n) const { return mv_at(at) + n; }

  void join_group(const Pending& p);
  // The row's fields but its candidates, from the record when it is the
  // group's only one, else from the group.
  void emit_head(uint64_t at, const Head& h, shard::Row& row) const;
  // The group of the record at `at` (a new one when its board is new).
  uint32_t find_or_insert(uint64_t at, uint32_t tag);
  // A record's head, its board and its first moves: the first three lines.
  void prefetch_head(uint64_t at) const {
    const uint8_t* r = records_.data() + at;
    __builtin_prefetch(r);
    __builtin_prefetch(r + 64);
    __builtin_prefetch(r + 127);
  }
  // The rest of the record, its head now at hand, and its group's entry when
  // the row has several records.
  void prefetch_rest(uint64_t at) const {
    const Head h = head(at);
    const uint8_t* r = records_.data() + at;
    const uint8_t* end = r + record_bytes(h.n);
    for (const uint8_t* p = r + 192; p < end; p += 64) __builtin_prefetch(p);
    if (h.next != kEnd) __builtin_prefetch(&groups_[h.group]);
  }
  void grow_index();

  // A candidate's visits: *value, or its entry in wide_ when that is kWide.
  uint32_t visits_at(const uint16_t* value) const { return *value != kWide ? *value : wide_visits(offset_of(value)); }
  uint64_t offset_of(const uint16_t* p) const {
    return static_cast<uint64_t>(reinterpret_cast<const uint8_t*>(p) - records_.data());
  }

  stream::PolicySource source_;
  MappedVector<uint8_t> records_;
  uint32_t record_count_ = 0;
  MappedVector<Group> groups_;
  MappedVector<uint64_t> index_;
  uint64_t index_mask_ = 0;
  // A record's values are visits, or cp as uint16 bits: 2 bytes a candidate
  // instead of 4 saves a sixth of the fold's memory and a cache line of
  // emit's random reads a row. Visits >= kWide are kept aside in wide_.
  static constexpr uint16_t kWide = UINT16_MAX;
  struct Wide {
    uint64_t at;  // the value's byte offset in records_; ascending, as add() appends
    uint32_t visits;
  };
  std::vector<Wide> wide_;
  std::vector<Wide>::const_iterator wide_from(uint64_t at) const;
  uint32_t wide_visits(uint64_t at) const;
  // Whether any value in bytes [lo, hi) of records_ is wide.
  bool any_wide(uint64_t lo, uint64_t hi) const;
  std::array<Pending, kLookahead> pending_;  // a ring
  size_t pending_head_ = 0, pending_count_ = 0;

  EmitScratch scratch_;  // the single-threaded emit()'s
};

template <typename At, typename Visit>
Status FoldTable::visit_each(size_t n, At&& at, Visit&& visit) {
  constexpr size_t kFar = 16, kNear = 8;  // rows ahead of the one emitted
  for (size_t k = 0; k < std::min(n, kFar); ++k) { const RowRef r = at(k); r.table->prefetch_head(r.row); }
  for (size_t k = 0; k < std::min(n, kNear); ++k) { const RowRef r = at(k); r.table->prefetch_rest(r.row); }
  for (size_t k = 0; k < n; ++k) {
    if (k + kFar < n) { const RowRef r = at(k + kFar); r.table->prefetch_head(r.row); }
    if (k + kNear < n) { const RowRef r = at(k + kNear); r.table->prefetch_rest(r.row); }
    MANAKA_RETURN_NOT_OK(visit(at(k)));
  }
  return Status();
}

}  // namespace manaka::fold
