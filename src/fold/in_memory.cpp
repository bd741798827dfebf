// pack() without --buckets: the whole fold in one FoldTable.
#include <numeric>
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

// Reserves for the most records the inputs can hold when that fits in half
// of physical memory. The reservation is address space: pages that the fold
// never touches are never resident, and growth never copies the arenas.
void reserve_for(FoldTable& table, uint64_t input_bytes) {
  const uint64_t records = input_bytes / kMinRecordBytes;
  const uint64_t cands = input_bytes / stream::kCandidateSize;
  const uint64_t want = records * (kBoardBytes + 32 + 12) + cands * 6;
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0 && want < static_cast<uint64_t>(pages) * page / 2) {
    table.reserve(records, cands);
  }
}

}  // namespace

Status pack_in_memory(PackContext& ctx) {
  FoldTable table(ctx.inputs.header.policy_source);
  reserve_for(table, ctx.inputs.total_bytes);
  {
    Progress read("pack: reading", ctx.inputs.total_bytes);
    read.set_enabled(ctx.options.progress);
    MANAKA_RETURN_NOT_OK(read_records(ctx.inputs, &read, [&](const stream::RecordView& rec) {
      ctx.fingerprint += record_fingerprint(rec);
      return table.add(rec);
    }));
  }
  table.flush();
  ctx.summary.records_in = table.records();
  MANAKA_RETURN_NOT_OK(ctx.open_output(table.groups()));

  MappedVector<uint32_t> order(table.groups());
  std::iota(order.begin(), order.end(), 0u);
  auto rng = Xoshiro256ss::for_spool(ctx.options.seed, Xoshiro256ss::Stream::InMemory, 0);
  rng.shuffle(std::span<uint32_t>(order));

  // Every row's shard is known now: shard k is order[k * rows_per_shard, ...),
  // emitted and encoded on its own thread.
  Progress write("pack: writing", 0);
  write.set_enabled(ctx.options.progress);
  return ctx.write_shards(&write, [&](shard::ShardSink& sink, PackSummary& tally) {
    FoldTable::EmitScratch scratch;
    const auto rows = std::span<const uint32_t>(order).subspan(sink.first_row(), sink.rows());
    return table.emit_in_order(rows, ctx.rule, scratch, [&](const shard::Row& row) {
      PackContext::count(row, tally);
      return sink.append(row);
    });
  });
}

}  // namespace manaka::fold
