// pack() with --buckets N: the three passes (fold/bucket_passes.h) one after
// another on this machine, their spools in one temporary directory
// (fold/pack.h; docs: "Rows leave shuffled").
#include <atomic>
#include <filesystem>

#include "core/fault.h"
#include "core/progress.h"
#include "fold/bucket_passes.h"
#include "fold/converters.h"
#include "fold/fold_table.h"
#include "fold/spool.h"

namespace manaka::fold {

namespace {

// Pass 1: every record to first-set spool bucket_of(hash(board)), an MPK1
// stream with the inputs' header; records keep their input order per spool
// (on the threads, each writing its own spools).
Status partition(PackContext& ctx, const TempDir& dir, uint64_t& spooled_bytes) {
  MANAKA_ASSIGN_OR_RETURN(auto spools, open_first_set(dir.path(), ctx.inputs.header, ctx.options.buckets));

  Progress progress("pack: pass 1/3 partition", ctx.inputs.total_bytes);
  progress.set_job_start(ctx.start);
  progress.set_enabled(ctx.options.progress);
  MANAKA_ASSIGN_OR_RETURN(MapTally tally, map_records(ctx.inputs, spools, &progress, ctx.threads()));
  ctx.summary.records_in = tally.records;
  ctx.fingerprint = tally.fingerprint;
  MANAKA_RETURN_NOT_OK(close_spool_set(spools));
  spooled_bytes = 0;
  for (const auto& s : spools) spooled_bytes += s.bytes();
  return Status();
}

// The extension of the second-set parts pass 2's thread t of `threads` writes.
std::string scatter_ext(uint32_t t, uint32_t threads) {
  return threads == 1 ? "rows" : std::to_string(t) + ".rows";
}

// Pass 2: fold each first-set spool (deleted once read); scatter its rows
// uniformly over the second set. On T threads (the descriptors allowing),
// thread t folds buckets [t n / T, (t + 1) n / T) in turn, each into a
// table of its own, and writes second-set parts of its own: spool j is its
// T parts back to back, its rows in bucket order as one thread writes them,
// so the bytes are the same for any T. Returns each spool's parts.
Result<std::vector<std::vector<std::string>>> fold_and_scatter(PackContext& ctx, const TempDir& dir,
                                                               uint64_t spooled_bytes,
                                                               std::vector<uint64_t>& spool_rows) {
  const uint32_t n = ctx.options.buckets;
  const uint32_t threads = ensure_descriptors(n, std::min(ctx.threads(), n));
  Progress line("pack: pass 2/3 fold", spooled_bytes);
  line.set_job_start(ctx.start);
  line.set_enabled(ctx.options.progress);
  PassTotals totals;
  std::vector<std::vector<uint64_t>> rows(threads, std::vector<uint64_t>(n, 0));
  std::atomic<bool> failed{false};  // a share failed: the others stop at their next bucket
  auto fold_share = [&](uint32_t t, Progress* shown, uint64_t& failed_at) -> Status {
    MANAKA_ASSIGN_OR_RETURN(auto out, open_spool_set(dir.path(), 'b', scatter_ext(t, threads).c_str(), n));
    FoldTable table(ctx.inputs.header.policy_source);
    PassProgress progress{shown, threads > 1 ? &totals : nullptr};
    for (uint32_t i = t * n / threads; i < (t + 1) * n / threads && !failed.load(); ++i) {
      Status st = fold_bucket(ctx, {spool_path(dir.path(), 'a', i, "mpk")}, i, /*remove_read=*/true, table, out,
                              rows[t], progress);
      if (!st.ok()) {
        failed_at = i;
        failed.store(true);
        return st;
      }
    }
    failed_at = n + t;  // closing comes after every bucket
    return close_spool_set(out);
  };
  MANAKA_RETURN_NOT_OK(run_parts(threads, &line, fold_share));  // the lowest bucket's failure
  if (threads > 1) line.update(totals.bytes.load(), totals.records.load());
  std::vector<std::vector<std::string>> parts(n);
  for (uint32_t j = 0; j < n; ++j) {
    for (uint32_t t = 0; t < threads; ++t) {
      spool_rows[j] += rows[t][j];
      parts[j].push_back(spool_path(dir.path(), 'b', j, scatter_ext(t, threads).c_str()));
    }
  }
  return parts;
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
  fault_point("pack-spooled");  // core/fault.h: the tests stop a pack here
  std::vector<uint64_t> spool_rows(n, 0);
  MANAKA_ASSIGN_OR_RETURN(auto parts, fold_and_scatter(ctx, dir, spooled, spool_rows));
  uint64_t rows = 0;
  for (uint64_t r : spool_rows) rows += r;
  MANAKA_RETURN_NOT_OK(ctx.open_output(rows));

  // Pass 3: each second-set spool's parts are removed once its last shard has loaded them.
  Progress progress("pack: pass 3/3 write", rows);
  progress.set_units("rows", "");
  progress.set_job_start(ctx.start);
  progress.set_enabled(ctx.options.progress);
  return write_spools(ctx, parts, spool_rows, /*remove_read=*/true, &progress);  // dir goes on return
}

}  // namespace manaka::fold
