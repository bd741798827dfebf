// pack() with --buckets N: the three passes (fold/bucket_passes.h) one after
// another on this machine, their spools in one temporary directory
// (fold/pack.h; docs: "Rows leave shuffled").
#include <filesystem>

#include "core/progress.h"
#include "fold/bucket_passes.h"
#include "fold/converters.h"
#include "fold/fold_table.h"
#include "fold/spool.h"

namespace manaka::fold {

namespace {

// Pass 1: every record to first-set spool bucket_of(hash(board)), an MPK1
// stream with the inputs' header; records keep their input order per spool.
Status partition(PackContext& ctx, const TempDir& dir, uint64_t& spooled_bytes) {
  MANAKA_ASSIGN_OR_RETURN(auto spools, open_first_set(dir.path(), ctx.inputs.header, ctx.options.buckets));

  Progress progress("pack: pass 1/3 partition", ctx.inputs.total_bytes);
  progress.set_enabled(ctx.options.progress);
  MANAKA_ASSIGN_OR_RETURN(MapTally tally, map_records(ctx.inputs, spools, &progress));
  ctx.summary.records_in = tally.records;
  ctx.fingerprint = tally.fingerprint;
  MANAKA_RETURN_NOT_OK(close_spool_set(spools));
  spooled_bytes = 0;
  for (const auto& s : spools) spooled_bytes += s.bytes();
  return Status();
}

// Pass 2: fold each first-set spool (deleted once read); scatter its rows
// uniformly over the second set.
Status fold_and_scatter(PackContext& ctx, const TempDir& dir, uint64_t spooled_bytes,
                        std::vector<uint64_t>& spool_rows) {
  const uint32_t n = ctx.options.buckets;
  MANAKA_ASSIGN_OR_RETURN(auto spools, open_spool_set(dir.path(), 'b', "rows", n));
  Progress line("pack: pass 2/3 fold", spooled_bytes);
  line.set_enabled(ctx.options.progress);
  PassProgress progress{&line};
  FoldTable table(ctx.inputs.header.policy_source);
  for (uint32_t i = 0; i < n; ++i) {
    MANAKA_RETURN_NOT_OK(fold_bucket(ctx, {spool_path(dir.path(), 'a', i, "mpk")}, i, /*remove_read=*/true,
                                     table, spools, spool_rows, progress));
  }
  return close_spool_set(spools);
}

}  // namespace

Status pack_bucketed(PackContext& ctx) {
  const uint32_t n = ctx.options.buckets;
  std::string parent = ctx.options.spool_dir;
  if (parent.empty()) parent = std::filesystem::path(ctx.options.prefix).parent_path().string();
  ensure_descriptors(n);
  MANAKA_ASSIGN_OR_RETURN(TempDir dir, TempDir::scratch(parent, kSpoolDirLabel));
  uint64_t spooled = 0;
  MANAKA_RETURN_NOT_OK(partition(ctx, dir, spooled));
  std::vector<uint64_t> spool_rows(n, 0);
  MANAKA_RETURN_NOT_OK(fold_and_scatter(ctx, dir, spooled, spool_rows));
  uint64_t rows = 0;
  for (uint64_t r : spool_rows) rows += r;
  MANAKA_RETURN_NOT_OK(ctx.open_output(rows));

  // Pass 3: each second-set spool is one file here, removed once its last shard has loaded it.
  std::vector<std::vector<std::string>> parts(n);
  for (uint32_t j = 0; j < n; ++j) parts[j] = {spool_path(dir.path(), 'b', j, "rows")};
  Progress progress("pack: pass 3/3 write", 0);
  progress.set_enabled(ctx.options.progress);
  return write_spools(ctx, parts, spool_rows, /*remove_read=*/true, &progress);  // dir goes on return
}

}  // namespace manaka::fold
