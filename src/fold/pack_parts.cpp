#include "fold/pack_parts.h"

#include <filesystem>

#include "fold/bucket_passes.h"
#include "fold/converters.h"
#include "fold/fold_table.h"
#include "fold/input.h"
#include "fold/spool.h"

namespace manaka::fold {

namespace {

Status check_buckets(uint32_t buckets) {
  if (buckets == 0 || buckets > kMaxBuckets) {
    return Status::usage("buckets must be 1.." + std::to_string(kMaxBuckets) + ", not " + std::to_string(buckets));
  }
  return Status();
}

Status create_dir(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::io(dir + ": cannot create the directory: " + ec.message());
  return Status();
}

}  // namespace

Result<PackMapResult> pack_map(const std::vector<std::string>& streams, size_t index, const std::string& dir,
                               uint32_t buckets) {
  MANAKA_RETURN_NOT_OK(check_buckets(buckets));
  MANAKA_ASSIGN_OR_RETURN(Inputs inputs, open_inputs(streams));
  if (index >= streams.size()) {
    return Status::usage("stream index " + std::to_string(index) + " past the " + std::to_string(streams.size()) +
                         " streams");
  }
  Inputs one = inputs;
  one.paths = {streams[index]};
  MANAKA_RETURN_NOT_OK(create_dir(dir));
  ensure_descriptors(buckets);
  MANAKA_ASSIGN_OR_RETURN(auto parts, open_first_set(dir, inputs.header, buckets));
  MANAKA_ASSIGN_OR_RETURN(MapTally tally, map_records(one, parts, nullptr));
  MANAKA_RETURN_NOT_OK(close_spool_set(parts));
  return PackMapResult{tally.records, tally.fingerprint};
}

Result<std::vector<uint64_t>> pack_fold(const std::vector<std::string>& streams,
                                        const std::vector<std::string>& parts, uint32_t bucket,
                                        const std::string& dir, const PackOptions& options) {
  const uint32_t n = options.buckets;
  MANAKA_RETURN_NOT_OK(check_buckets(n));
  if (bucket >= n) return Status::usage("bucket " + std::to_string(bucket) + " of " + std::to_string(n));
  MANAKA_ASSIGN_OR_RETURN(Inputs inputs, open_inputs(streams));
  PackSummary unused;
  const PackContext ctx(inputs, options, unused);
  FoldTable table(inputs.header.policy_source);
  MANAKA_RETURN_NOT_OK(create_dir(dir));
  ensure_descriptors(n);
  MANAKA_ASSIGN_OR_RETURN(auto out, open_spool_set(dir, 'b', "rows", n));
  std::vector<uint64_t> rows(n, 0);
  PassProgress progress;
  MANAKA_RETURN_NOT_OK(fold_bucket(ctx, parts, bucket, /*remove_read=*/false, table, out, rows, progress));
  MANAKA_RETURN_NOT_OK(close_spool_set(out));
  return rows;
}

Result<PackSummary> pack_write(const std::vector<std::string>& streams,
                               const std::vector<std::vector<std::string>>& parts, const PackPlan& plan,
                               uint64_t first_shard, uint64_t end_shard, const PackOptions& options) {
  const uint32_t n = options.buckets;
  MANAKA_RETURN_NOT_OK(check_buckets(n));
  if (plan.spool_rows.size() != n || parts.size() != n) {
    return Status::usage("a plan of " + std::to_string(plan.spool_rows.size()) + " spools and " +
                         std::to_string(parts.size()) + " part lists for " + std::to_string(n) + " buckets");
  }
  MANAKA_ASSIGN_OR_RETURN(Inputs inputs, open_inputs(streams));
  PackSummary summary;
  summary.records_in = plan.records;
  PackContext ctx(inputs, options, summary);
  ctx.fingerprint = plan.fingerprint;
  ctx.first_shard = first_shard;
  ctx.end_shard = end_shard;
  uint64_t rows = 0;
  for (uint64_t r : plan.spool_rows) rows += r;
  MANAKA_RETURN_NOT_OK(ctx.open_output(rows));
  MANAKA_RETURN_NOT_OK(write_spools(ctx, parts, plan.spool_rows, /*remove_read=*/false, nullptr));
  MANAKA_RETURN_NOT_OK(ctx.writer->finish());
  summary.shards = ctx.writer->shards();
  return summary;
}

}  // namespace manaka::fold
