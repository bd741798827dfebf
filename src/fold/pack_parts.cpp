#include "fold/pack_parts.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>

#include "fold/board_hash.h"
#include "fold/converters.h"
#include "fold/fold_table.h"
#include "fold/input.h"
#include "fold/rng.h"
#include "fold/spool.h"
#include "stream/header.h"
#include "stream/reader.h"
#include "stream/record.h"

namespace manaka::fold {

namespace {

Status check_buckets(uint32_t buckets) {
  if (buckets == 0 || buckets > kMaxBuckets) {
    return Status::usage("buckets must be 1.." + std::to_string(kMaxBuckets) + ", not " + std::to_string(buckets));
  }
  return Status();
}

Result<std::vector<SpoolWriter>> open_parts(const std::string& dir, char set, const char* ext, uint32_t n) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::io(dir + ": cannot create the directory: " + ec.message());
  ensure_descriptors(n);
  std::vector<SpoolWriter> parts;
  parts.reserve(n);
  for (uint32_t i = 0; i < n; ++i) {
    MANAKA_ASSIGN_OR_RETURN(auto w, SpoolWriter::create(spool_path(dir, set, i, ext), spool_buffer_bytes(n)));
    parts.push_back(std::move(w));
  }
  return parts;
}

Status close_parts(std::vector<SpoolWriter>& parts) {
  for (auto& p : parts) MANAKA_RETURN_NOT_OK(p.close());
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
  MANAKA_ASSIGN_OR_RETURN(auto parts, open_parts(dir, 'a', "mpk", buckets));
  std::array<uint8_t, stream::kHeaderSize> header{};
  stream::encode_header(inputs.header, header);
  for (auto& p : parts) MANAKA_RETURN_NOT_OK(p.append(header.data(), header.size()));
  PackMapResult out;
  std::vector<uint8_t> buf;
  MANAKA_RETURN_NOT_OK(read_records(one, nullptr, [&](const stream::RecordView& rec) {
    buf.clear();
    stream::encode_record(rec, buf);
    ++out.records;
    out.fingerprint += record_fingerprint(rec);
    return parts[bucket_of(hash_board(rec.packed.data()), buckets)].append(buf.data(), buf.size());
  }));
  MANAKA_RETURN_NOT_OK(close_parts(parts));
  return out;
}

Result<std::vector<uint64_t>> pack_fold(const std::vector<std::string>& streams,
                                        const std::vector<std::string>& parts, uint32_t bucket,
                                        const std::string& dir, const PackOptions& options) {
  const uint32_t n = options.buckets;
  MANAKA_RETURN_NOT_OK(check_buckets(n));
  if (bucket >= n) return Status::usage("bucket " + std::to_string(bucket) + " of " + std::to_string(n));
  MANAKA_ASSIGN_OR_RETURN(Inputs inputs, open_inputs(streams));
  const PolicyRule rule = PolicyRule::from(inputs.header, options.temperature);
  const bool with_cp = inputs.header.policy_source == stream::PolicySource::Cp;
  FoldTable table(inputs.header.policy_source);
  for (const std::string& path : parts) {
    MANAKA_ASSIGN_OR_RETURN(auto reader, stream::Reader::open(path));
    stream::RecordView rec;
    while (true) {
      MANAKA_ASSIGN_OR_RETURN(bool more, reader.next(rec));
      if (!more) break;
      MANAKA_RETURN_NOT_OK(table.add(rec).with_context(path + ": "));
    }
  }
  table.flush();

  MANAKA_ASSIGN_OR_RETURN(auto out, open_parts(dir, 'b', "rows", n));
  std::vector<uint64_t> rows(n, 0);
  auto rng = Xoshiro256ss::for_spool(options.seed, Xoshiro256ss::Stream::Scatter, bucket);
  shard::Row row;
  std::vector<uint8_t> buf;
  for (uint32_t g = 0; g < table.groups(); ++g) {
    table.emit(g, rule, row);
    buf.clear();
    encode_spool_row(row, with_cp, buf);
    const uint32_t to = static_cast<uint32_t>(rng.below(n));
    ++rows[to];
    MANAKA_RETURN_NOT_OK(out[to].append(buf.data(), buf.size()));
  }
  MANAKA_RETURN_NOT_OK(close_parts(out));
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
  const bool with_cp = inputs.header.policy_source == stream::PolicySource::Cp;
  PackSummary summary;
  summary.records_in = plan.records;
  PackContext ctx{inputs, options, PolicyRule::from(inputs.header, options.temperature), summary,
                  plan.fingerprint, nullptr, first_shard, end_shard};
  std::vector<uint64_t> start(n + 1, 0);  // spool j's rows are the set's [start[j], start[j + 1])
  for (uint32_t j = 0; j < n; ++j) start[j + 1] = start[j] + plan.spool_rows[j];
  MANAKA_RETURN_NOT_OK(ctx.open_output(start[n]));

  MANAKA_RETURN_NOT_OK(ctx.write_shards(nullptr, [&](shard::ShardSink& sink, PackSummary& tally) {
    const uint64_t first = sink.first_row(), end = first + sink.rows();
    MappedVector<uint8_t> bytes;
    MappedVector<uint64_t> offsets;
    shard::Row row;
    for (uint32_t j = 0; j < n; ++j) {
      if (start[j + 1] <= first || start[j] >= end || plan.spool_rows[j] == 0) continue;
      // Spool j: its parts back to back, as pass 2 would have written it.
      MappedVector<uint8_t>().swap(bytes);
      for (const std::string& path : parts[j]) {
        MANAKA_ASSIGN_OR_RETURN(auto part, read_file(path));
        bytes.insert(bytes.end(), part.begin(), part.end());
      }
      offsets.clear();
      offsets.reserve(plan.spool_rows[j]);
      for (uint64_t at = 0; at < bytes.size();) {
        offsets.push_back(at);
        if (bytes.size() - at < kSpoolRowFixed) {
          return Status::truncated("second-set spool " + std::to_string(j) + ": ends inside a row at byte " +
                                   std::to_string(at));
        }
        at += spool_row_size(bytes.data() + at, with_cp);
      }
      if (offsets.size() != plan.spool_rows[j]) {
        return Status::invalid("second-set spool " + std::to_string(j) + ": " + std::to_string(offsets.size()) +
                               " rows in its parts, the plan says " + std::to_string(plan.spool_rows[j]));
      }
      auto rng = Xoshiro256ss::for_spool(options.seed, Xoshiro256ss::Stream::Permute, j);
      rng.shuffle(std::span<uint64_t>(offsets));
      const uint64_t lo = std::max(first, start[j]) - start[j], hi = std::min(end, start[j + 1]) - start[j];
      for (uint64_t r = lo; r < hi; ++r) {
        const uint64_t at = offsets[r];
        auto used = decode_spool_row(bytes.data() + at, bytes.size() - at, with_cp, row);
        if (!used.ok()) {
          return std::move(used).take_status().with_context("second-set spool " + std::to_string(j) + ": ");
        }
        PackContext::count(row, tally);
        MANAKA_RETURN_NOT_OK(sink.append(row));
      }
    }
    return Status();
  }));
  MANAKA_RETURN_NOT_OK(ctx.writer->finish());
  summary.shards = ctx.writer->shards();
  return summary;
}

}  // namespace manaka::fold
