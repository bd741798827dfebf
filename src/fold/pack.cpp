#include "fold/pack.h"

#include <utility>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <thread>

#include "core/text.h"
#include "core/output.h"
#include "core/progress.h"
#include "core/splitmix64.h"
#include "core/temporary.h"
#include "core/threads.h"
#include "fold/converters.h"
#include "fold/footer.h"
#include "shard/set_publish.h"
#include "shard/shard_set.h"

namespace manaka::fold {

namespace {

Status check_options(const PackOptions& o) {
  if (o.prefix.empty()) return Status::usage("no output prefix (-o PREFIX)");
  if (!std::isfinite(o.temperature) || o.temperature <= 0) {
    return Status::usage("temperature must be a finite number of centipawns > 0, not " +
                           number_text(o.temperature));
  }
  if (o.rows_per_shard == 0) return Status::usage("rows per shard must be at least 1");
  if (o.buckets > kMaxBuckets) {
    return Status::usage("--buckets " + std::to_string(o.buckets) + " is more than " +
                           std::to_string(kMaxBuckets) + " spools");
  }
  return Status();
}

// The prefix's missing directories, made for this run and removed again when
// it fails (core/temporary.h).
Result<MadeDirectories> create_parent(const std::string& prefix) {
  const std::filesystem::path dir = std::filesystem::path(prefix).parent_path();
  if (dir.empty()) return MadeDirectories();
  MadeDirectories made(dir.string());
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return Status::io(dir.string() + ": cannot create the directory");
  return made;
}

// The output policy (core/output.h) for a set: no shard of the prefix may be
// an input, and an existing set is replaced only with overwrite.
Status check_outputs(const PackOptions& o, const std::vector<std::string>& inputs) {
  MANAKA_ASSIGN_OR_RETURN(auto existing, shard::existing_shards(o.prefix));
  for (const auto& [index, path] : existing) MANAKA_RETURN_NOT_OK(check_not_input(path, inputs));
  if (!existing.empty() && !o.overwrite) {
    return Status::usage(o.prefix + ": a shard set exists (" + existing.front().second +
                           (existing.size() > 1 ? " and " + std::to_string(existing.size() - 1) + " more" : "") +
                           "); pass --overwrite to replace it");
  }
  return Status();
}

// The set's identity: what was read and every option that orders its rows.
uint64_t set_id(const PackContext& ctx, uint64_t rows) {
  uint64_t temperature_bits;
  std::memcpy(&temperature_bits, &ctx.options.temperature, sizeof temperature_bits);
  const uint64_t parts[] = {ctx.fingerprint, ctx.summary.records_in, rows, ctx.options.seed, temperature_bits,
                            ctx.options.rows_per_shard, ctx.options.buckets};
  uint64_t h = 0x6D616E616B61ull;  // "manaka"
  for (uint64_t p : parts) h = SplitMix64(h ^ p).next();
  return h;
}

}  // namespace

Status PackContext::open_output(uint64_t rows) {
  shard::ShardWriterOptions w;
  w.prefix = options.prefix;
  w.rows_per_shard = options.rows_per_shard;
  w.footer = footer_metadata(inputs.header, options.temperature);
  w.footer.emplace_back("seed", std::to_string(options.seed));
  w.set_id = set_id(*this, rows);
  w.set_rows = rows;
  w.first_shard = first_shard;
  w.end_shard = end_shard;
  MANAKA_ASSIGN_OR_RETURN(writer, shard::ShardWriter::create(std::move(w)));
  return Status();
}

unsigned PackContext::threads() const {
  if (options.threads > 0) return options.threads;
  return hardware_threads();
}

Status PackContext::write_shards(Progress* progress,
                                 const std::function<Status(shard::ShardSink&, PackSummary&)>& fill) {
  // The line follows the row groups as they are encoded, polled a few times a
  // second (a shard's rows take seconds); the line is this thread's alone.
  std::atomic<bool> writing{true};
  std::thread ticker;
  if (progress) {
    ticker = std::thread([&] {
      while (writing.load()) {
        const auto rows = static_cast<uint64_t>(writer->rows_encoded());
        progress->poll(rows, rows);
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
      }
    });
  }
  std::mutex mu;  // the summary's tallies
  Status st = writer->write_shards(threads(), [&](shard::ShardSink& sink) {
    PackSummary tally;
    Status filled = fill(sink, tally);
    std::lock_guard lock(mu);
    summary.rows_out += tally.rows_out;
    summary.folded_rows += tally.folded_rows;
    summary.folded_records += tally.folded_records;
    return filled;
  });
  writing = false;
  if (ticker.joinable()) ticker.join();
  if (progress) progress->poll(summary.rows_out, summary.rows_out);
  return st;
}

std::string shard_prefix(const std::string& output) {
  if (output.empty() || output.back() != '/') return output;
  return output + kDefaultShardName;
}

Result<PackSummary> pack(const std::vector<std::string>& streams, const PackOptions& asked) {
  const auto start = std::chrono::steady_clock::now();
  PackOptions options = asked;
  options.prefix = shard_prefix(asked.prefix);
  MANAKA_RETURN_NOT_OK(check_options(options));
  MANAKA_ASSIGN_OR_RETURN(Inputs inputs, open_inputs(streams));
  MANAKA_ASSIGN_OR_RETURN(MadeDirectories made, create_parent(options.prefix));
  MANAKA_ASSIGN_OR_RETURN(FileLock lock, shard::lock_shard_set(options.prefix));
  PackSummary summary;
  // A set a killed run was putting in place is finished before anything
  // else looks at the prefix: it is the existing set from here on.
  MANAKA_ASSIGN_OR_RETURN(summary.recovered_shards, shard::recover_shard_set(options.prefix));
  Status refused = check_outputs(options, inputs.paths);
  if (!refused.ok() && summary.recovered_shards)
    return std::move(refused).with_context("pack put in place the " + std::to_string(summary.recovered_shards) +
                                           " shards a killed run had written whole; then: ");
  MANAKA_RETURN_NOT_OK(refused);

  PackContext ctx(inputs, options, summary);
  MANAKA_RETURN_NOT_OK(options.buckets == 0 ? pack_in_memory(ctx) : pack_bucketed(ctx));
  MANAKA_RETURN_NOT_OK(ctx.writer->finish());
  summary.shards = ctx.writer->shards();
  summary.removed_stale = ctx.writer->removed_stale();
  made.keep();
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
