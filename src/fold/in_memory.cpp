// pack() without --buckets: the whole fold in memory, split by board hash
// into one FoldTable per thread.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>
#include <unistd.h>

#include "core/progress.h"
#include "fold/board_hash.h"
#include "fold/converters.h"
#include "fold/fold_table.h"
#include "fold/rng.h"

namespace manaka::fold {

namespace {

// The smallest a record can be (one candidate), so records <= bytes / this.
constexpr uint64_t kMinRecordBytes = stream::kRecordFixedSize + kBoardBytes + stream::kCandidateSize;

// Reserves for the most records `input_bytes` can hold when that fits in
// `budget` bytes. The reservation is address space: pages that the fold
// never touches are never resident, and growth never copies the arenas.
void reserve_for(FoldTable& table, uint64_t input_bytes, uint64_t budget) {
  const uint64_t records = input_bytes / kMinRecordBytes;
  const uint64_t cands = input_bytes / stream::kCandidateSize;
  if (FoldTable::reserve_bytes(records, cands) < budget) table.reserve(records, cands);
}

// Half of physical memory, or 0 when unknown.
uint64_t reserve_budget() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) / 2 : 0;
}

// One part of a fold split by board hash: the records whose board falls in
// part p of P (bucket_of(hash, P)), folded on a thread of its own. Every part
// reads (and validates) every record, so records keep their global numbers
// and each part's groups stay in the order of their first records.
struct FoldPart {
  explicit FoldPart(stream::PolicySource source) : table(source) {}
  FoldTable table;
  MappedVector<uint32_t> global;  // the part's record i is the input's record global[i]
  MappedVector<uint32_t> firsts;  // group g's first record's input number (ascending), once folded
  uint64_t fingerprint = 0;       // record_fingerprint summed over the part's records
};

// Each part frames every record but checks the rules of its own alone
// (read_kept_records), so the parts check each record once between them.
Status fold_part(const PackContext& ctx, uint32_t p, uint32_t parts, Progress* progress, FoldPart& part,
                 uint64_t& failed_at) {
  uint64_t h = 0;  // the board hash of the record keep() last saw
  auto keep = [&](const uint8_t* packed) {
    h = hash_board(packed);
    return bucket_of(h, parts) == p;
  };
  Status st = read_kept_records(ctx.inputs, progress, keep, [&](const stream::RecordView& rec, uint64_t index) {
    if (index >= UINT32_MAX) {
      return Status::invalid("more than " + std::to_string(UINT32_MAX) +
                             " records in one fold; split the work with --buckets");
    }
    part.fingerprint += record_fingerprint(rec, h);  // h: rec's board, hashed by keep()
    part.global.push_back(static_cast<uint32_t>(index));
    return part.table.add(rec, h);
  }, &failed_at);
  if (!st.ok()) return st;
  part.table.seal();
  // What merge_groups orders the parts' groups by, made on the part's own
  // thread: each group's first record by its input number.
  part.firsts.resize(part.table.groups());
  for (uint32_t g = 0; g < part.table.groups(); ++g) part.firsts[g] = part.global[part.table.first_record(g)];
  MappedVector<uint32_t>().swap(part.global);
  return Status();
}

// A row of part p: p << kPartShift | the row's place in its table
// (FoldTable::row_of, under 2^35).
constexpr int kPartShift = 56;
uint64_t row_ref(size_t p, uint64_t row) { return uint64_t{p} << kPartShift | row; }

// The parts' rows in the order one table would have numbered its groups (by
// first record): a merge of the parts' lists, each already in that order.
MappedVector<uint64_t> merge_groups(const std::vector<std::unique_ptr<FoldPart>>& parts) {
  uint64_t total = 0;
  for (const auto& part : parts) total += part->firsts.size();
  MappedVector<uint64_t> out;
  out.reserve(total);
  std::vector<uint32_t> next(parts.size(), 0);
  auto first_of = [&](size_t p) { return parts[p]->firsts[next[p]]; };
  while (out.size() < total) {
    size_t best = parts.size();
    for (size_t p = 0; p < parts.size(); ++p) {
      if (next[p] < parts[p]->firsts.size() && (best == parts.size() || first_of(p) < first_of(best))) best = p;
    }
    out.push_back(row_ref(best, parts[best]->table.row_of(next[best]++)));
  }
  return out;
}

}  // namespace

Status pack_in_memory(PackContext& ctx) {
  // The fold runs on as many threads as the shards' encoding; the groups
  // are numbered and shuffled as one table would, so the bytes do not
  // depend on the count. Each part reads and validates the whole input
  // (about a third of a one-thread fold's time), so a part gains only with a
  // core of its own; --threads past the cores costs reading (the default is
  // the core count, and Pack.ThreadCountDoesNotChangeTheBytes runs 3 parts
  // on any machine).
  const unsigned threads = ctx.threads();
  const auto count = static_cast<uint32_t>(std::min<uint64_t>(threads, kMaxReadParts));
  // 5/4 of a part's even share, for the spread of a hash partition.
  const uint64_t share = count == 1 ? ctx.inputs.total_bytes : ctx.inputs.total_bytes / count * 5 / 4;
  const uint64_t budget = reserve_budget() / count;
  std::vector<std::unique_ptr<FoldPart>> parts;
  for (uint32_t p = 0; p < count; ++p) {
    parts.push_back(std::make_unique<FoldPart>(ctx.inputs.header.policy_source));
    reserve_for(parts.back()->table, share, budget);
    parts.back()->global.reserve(share / kMinRecordBytes);
  }
  {
    Progress read("pack: reading", ctx.inputs.total_bytes);
    read.set_job_start(ctx.start);
    read.set_enabled(ctx.options.progress);
    MANAKA_RETURN_NOT_OK(run_parts(count, &read, [&](uint32_t p, Progress* progress, uint64_t& failed_at) {
      return fold_part(ctx, p, count, progress, *parts[p], failed_at);
    }));
  }
  for (const auto& part : parts) {
    ctx.fingerprint += part->fingerprint;
    ctx.summary.records_in += part->table.records();
  }
  MappedVector<uint64_t> order = merge_groups(parts);
  for (auto& part : parts) MappedVector<uint32_t>().swap(part->firsts);
  MANAKA_RETURN_NOT_OK(ctx.open_output(order.size()));

  // The permutation of the groups' indices, applied to the groups themselves
  // (Fisher-Yates swaps the same places whatever the elements are).
  auto rng = Xoshiro256ss::for_spool(ctx.options.seed, Xoshiro256ss::Stream::InMemory, 0);
  rng.shuffle(std::span<uint64_t>(order));

  // Every row's shard is known now: shard k is order[k * rows_per_shard, ...),
  // emitted and encoded on its own thread.
  Progress write("pack: writing", order.size());
  write.set_units("rows", "");
  write.set_job_start(ctx.start);
  write.set_enabled(ctx.options.progress);
  Status st = ctx.write_shards(&write, [&](shard::ShardSink& sink, PackSummary& tally) {
    FoldTable::EmitScratch scratch;
    const auto rows = std::span<const uint64_t>(order).subspan(sink.first_row(), sink.rows());
    auto at = [&](size_t k) {
      return FoldTable::RowRef{&parts[rows[k] >> kPartShift]->table, rows[k] & ((uint64_t{1} << kPartShift) - 1)};
    };
    shard::Row row;
    return FoldTable::visit_each(rows.size(), at, [&](const FoldTable::RowRef r) {
      MANAKA_RETURN_NOT_OK(r.table->emit_to(r.row, ctx.rule, row, scratch, sink));
      PackContext::count(row, tally);  // its head is the row's (weight counted)
      return Status();
    });
  });
  ctx.release = std::jthread([parts = std::move(parts), order = std::move(order)]() mutable {
    parts.clear();
    MappedVector<uint64_t>().swap(order);
  });
  return st;
}

}  // namespace manaka::fold
