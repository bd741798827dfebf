#include "fold/pack.h"

#include <chrono>
#include <cmath>
#include <cstdio>

#include "core/progress.h"
#include "fold/converters.h"
#include "fold/footer.h"

namespace manaka::fold {

namespace {

Status check_options(const PackOptions& o) {
  if (o.prefix.empty()) return Status::invalid("no output prefix (-o PREFIX)");
  if (!std::isfinite(o.temperature) || o.temperature <= 0) {
    return Status::invalid("temperature must be a finite number of centipawns > 0, not " +
                           double_text(o.temperature));
  }
  if (o.rows_per_shard == 0) return Status::invalid("rows per shard must be at least 1");
  if (o.buckets > kMaxBuckets) {
    return Status::invalid("--buckets " + std::to_string(o.buckets) + " is more than " +
                           std::to_string(kMaxBuckets) + " spools");
  }
  return Status();
}

}  // namespace

Result<PackSummary> pack(const std::vector<std::string>& streams, const PackOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  MANAKA_RETURN_NOT_OK(check_options(options));
  MANAKA_ASSIGN_OR_RETURN(Inputs inputs, open_inputs(streams));

  shard::ShardWriterOptions wopts;
  wopts.prefix = options.prefix;
  wopts.rows_per_shard = options.rows_per_shard;
  wopts.footer = footer_metadata(inputs.header, options.temperature);
  MANAKA_ASSIGN_OR_RETURN(auto writer, shard::ShardWriter::create(std::move(wopts)));

  PackSummary summary;
  PackContext ctx{inputs, options, PolicyRule::from(inputs.header, options.temperature), *writer,
                  summary};
  MANAKA_RETURN_NOT_OK(options.buckets == 0 ? pack_in_memory(ctx) : pack_bucketed(ctx));
  MANAKA_RETURN_NOT_OK(writer->finish());
  summary.shards = writer->shards();
  summary.removed_stale = writer->removed_stale();
  summary.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return summary;
}

std::string format_summary(const PackSummary& s) {
  auto pct = [](uint64_t part, uint64_t whole) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f%%",
                  whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
    return std::string(buf);
  };
  char time[64];
  std::snprintf(time, sizeof time, "%.2f s (", s.seconds);
  const double rate = s.seconds > 0 ? static_cast<double>(s.records_in) / s.seconds : 0.0;
  return format_count(static_cast<double>(s.records_in)) + " records in, " +
         format_count(static_cast<double>(s.rows_out)) + " rows out, " +
         std::to_string(s.shards.size()) + (s.shards.size() == 1 ? " shard, " : " shards, ") +
         time + format_count(rate) + " records/s)\nfolded: " +
         format_count(static_cast<double>(s.folded_rows)) + " rows (" +
         pct(s.folded_rows, s.rows_out) + " of rows) from " +
         format_count(static_cast<double>(s.folded_records)) + " records (" +
         pct(s.folded_records, s.records_in) + " of records)";
}

}  // namespace manaka::fold
