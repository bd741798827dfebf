#include "fold/bucket_passes.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <filesystem>
#include <memory>

#include "fold/board_hash.h"
#include "fold/rng.h"
#include "stream/header.h"
#include "stream/reader.h"
#include "stream/record.h"

namespace manaka::fold {

Result<std::vector<SpoolWriter>> open_spool_set(const std::string& dir, char set, const char* ext, uint32_t n) {
  std::vector<SpoolWriter> spools;
  spools.reserve(n);
  for (uint32_t i = 0; i < n; ++i) {
    auto w = SpoolWriter::create(spool_path(dir, set, i, ext), spool_buffer_bytes(n));
    if (!w.ok()) {
      return std::move(w).take_status().with_context("--buckets " + std::to_string(n) + " (try fewer spools): ");
    }
    spools.push_back(std::move(*w));
  }
  return spools;
}

Status close_spool_set(std::vector<SpoolWriter>& spools) {
  for (auto& s : spools) MANAKA_RETURN_NOT_OK(s.close());
  return Status();
}

Result<std::vector<SpoolWriter>> open_first_set(const std::string& dir, const stream::Header& header, uint32_t n) {
  MANAKA_ASSIGN_OR_RETURN(auto spools, open_spool_set(dir, 'a', "mpk", n));
  std::array<uint8_t, stream::kHeaderSize> bytes{};
  stream::encode_header(header, bytes);
  for (auto& s : spools) MANAKA_RETURN_NOT_OK(s.append(bytes.data(), bytes.size()));
  return spools;
}

Result<MapTally> map_records(const Inputs& inputs, std::vector<SpoolWriter>& parts, Progress* progress,
                             unsigned threads) {
  const auto n = static_cast<uint32_t>(parts.size());
  const uint32_t count = std::clamp<uint32_t>(threads, 1, std::min(n, kMaxReadParts));
  std::vector<MapTally> tallies(count);
  MANAKA_RETURN_NOT_OK(run_parts(count, progress, [&](uint32_t t, Progress* line, uint64_t& failed_at) {
    MapTally tally;
    std::vector<uint8_t> buf;
    uint64_t h = 0;  // the board hash of the record keep() last saw, and its bucket
    uint32_t bucket = 0;
    auto keep = [&](const uint8_t* packed) {
      h = hash_board(packed);
      bucket = bucket_of(h, n);
      return bucket % count == t;
    };
    Status st = read_kept_records(inputs, line, keep, [&](const stream::RecordView& rec, uint64_t) {
      buf.clear();
      stream::encode_record(rec, buf);
      ++tally.records;
      tally.fingerprint += record_fingerprint(rec, h);
      return parts[bucket].append(buf.data(), buf.size());
    }, &failed_at);
    tallies[t] = tally;
    return st;
  }));
  MapTally total;
  for (const MapTally& t : tallies) {
    total.records += t.records;
    total.fingerprint += t.fingerprint;
  }
  return total;
}

Status fold_bucket(const PackContext& ctx, const std::vector<std::string>& paths, uint32_t bucket,
                   bool remove_read, FoldTable& table, std::vector<SpoolWriter>& out, std::vector<uint64_t>& rows,
                   PassProgress& progress) {
  const auto n = static_cast<uint32_t>(out.size());
  const bool with_cp = ctx.inputs.header.policy_source == stream::PolicySource::Cp;
  for (const std::string& path : paths) {
    {
      MANAKA_ASSIGN_OR_RETURN(auto reader, stream::Reader::open(path));
      // A capacity hint: the most records and candidates the file can hold.
      table.reserve(reader.size() / (stream::kRecordFixedSize + kBoardBytes + stream::kCandidateSize),
                    reader.size() / stream::kCandidateSize);
      stream::RecordView rec;
      while (true) {
        MANAKA_ASSIGN_OR_RETURN(bool more, reader.next(rec));
        if (!more) break;
        MANAKA_RETURN_NOT_OK(table.add(rec).with_context(path + ": "));
        progress.record_read(reader.byte_offset());
      }
      progress.file_read(reader.byte_offset());
    }
    if (remove_read) {
      std::error_code ec;
      std::filesystem::remove(path, ec);
    }
  }
  table.flush();

  auto rng = Xoshiro256ss::for_spool(ctx.options.seed, Xoshiro256ss::Stream::Scatter, bucket);
  shard::Row row;
  std::vector<uint8_t> buf;
  for (uint32_t g = 0; g < table.groups(); ++g) {
    table.emit(g, ctx.rule, row);
    buf.clear();
    encode_spool_row(row, with_cp, buf);
    const auto to = static_cast<uint32_t>(rng.below(n));
    ++rows[to];
    MANAKA_RETURN_NOT_OK(out[to].append(buf.data(), buf.size()));
  }
  table.clear();
  return Status();
}

namespace {

constexpr uint64_t kRowsAhead = 16;
constexpr size_t kPrefetchBytes = 384;

// A loaded second-set spool: its bytes and its rows' offsets, permuted.
struct LoadedSpool {
  MappedVector<uint8_t> bytes;
  MappedVector<uint64_t> offsets;
};

// Spool j's name in messages: its file, or its number when it has parts.
std::string spool_name(const std::vector<std::string>& parts, uint32_t j) {
  return parts.size() == 1 ? parts[0] : "second-set spool " + std::to_string(j);
}

// Spool j: its parts back to back, each row's offset, then
// for_spool(seed, Permute, j) over them. Rows are found as their bytes
// arrive (read_files' chunks): stepping from row to row is a chain of loads
// (a row's size is in it), which over the whole spool afterwards missed
// memory at every step, a sixth of --buckets 16's CPU.
Status load_spool(const PackContext& ctx, const std::vector<std::string>& parts, uint32_t j,
                  uint64_t expected_rows, LoadedSpool& out) {
  const bool with_cp = ctx.inputs.header.policy_source == stream::PolicySource::Cp;
  out.offsets.clear();
  out.offsets.reserve(expected_rows);
  uint64_t at = 0;  // the next row's start
  auto rows_in = [&](const MappedVector<uint8_t>& bytes, uint64_t have) {
    for (; at < have && have - at >= kSpoolRowFixed; at += spool_row_size(bytes.data() + at, with_cp))
      out.offsets.push_back(at);
  };
  MANAKA_RETURN_NOT_OK(read_files(parts, out.bytes, rows_in));  // in the last spool's memory: one at a time
  if (at < out.bytes.size()) {
    return Status::truncated(spool_name(parts, j) + ": spool ends inside a row at byte " + std::to_string(at));
  }
  if (out.offsets.size() != expected_rows) {
    return Status::invalid(spool_name(parts, j) + ": " + std::to_string(out.offsets.size()) +
                           " rows in a spool pass 2 wrote " + std::to_string(expected_rows) + " to");
  }
  auto rng = Xoshiro256ss::for_spool(ctx.options.seed, Xoshiro256ss::Stream::Permute, j);
  rng.shuffle(std::span<uint64_t>(out.offsets));
  return Status();
}

void remove_files(const std::vector<std::string>& paths) {
  std::error_code ec;
  for (const auto& path : paths) std::filesystem::remove(path, ec);
}

}  // namespace

Status write_spools(PackContext& ctx, const std::vector<std::vector<std::string>>& parts,
                    const std::vector<uint64_t>& spool_rows, bool remove_read, Progress* progress) {
  const auto n = static_cast<uint32_t>(spool_rows.size());
  const bool with_cp = ctx.inputs.header.policy_source == stream::PolicySource::Cp;
  std::vector<uint64_t> start(n + 1, 0);  // spool j's rows are the set's [start[j], start[j + 1])
  for (uint32_t j = 0; j < n; ++j) start[j + 1] = start[j] + spool_rows[j];
  // Shards that read each spool (the whole set's, so a task that writes a
  // share never removes what it does not own: it passes remove_read false).
  std::vector<std::atomic<uint32_t>> users(n);
  if (remove_read) {
    const uint64_t per_shard = ctx.options.rows_per_shard;
    for (uint64_t first = 0; first < start[n]; first += per_shard) {
      const uint64_t end = std::min(first + per_shard, start[n]);
      for (uint32_t j = 0; j < n; ++j)
        if (start[j] < end && start[j + 1] > first) users[j].fetch_add(1);
    }
    for (uint32_t j = 0; j < n; ++j)  // spools no shard reads (empty ones) go now
      if (users[j].load() == 0) remove_files(parts[j]);
  }

  return ctx.write_shards(progress, [&](shard::ShardSink& sink, PackSummary& tally) {
    const uint64_t first = sink.first_row(), end = first + sink.rows();
    LoadedSpool spool;
    shard::Row row;
    for (uint32_t j = 0; j < n; ++j) {
      if (start[j + 1] <= first || start[j] >= end || spool_rows[j] == 0) continue;
      MANAKA_RETURN_NOT_OK(load_spool(ctx, parts[j], j, spool_rows[j], spool));
      if (remove_read && users[j].fetch_sub(1) == 1) remove_files(parts[j]);
      const uint64_t lo = std::max(first, start[j]) - start[j], hi = std::min(end, start[j + 1]) - start[j];
      for (uint64_t r = lo; r < hi; ++r) {
        // Rows are taken in a random order: fetch a few rows ahead, each as
        // far as a row of 40 candidates goes.
        if (r + kRowsAhead < hi) {
          const uint8_t* next = spool.bytes.data() + spool.offsets[r + kRowsAhead];
          for (size_t line = 0; line < kPrefetchBytes; line += 64) __builtin_prefetch(next + line);
        }
        const uint64_t at = spool.offsets[r];
        auto used = decode_spool_row(spool.bytes.data() + at, spool.bytes.size() - at, with_cp, row);
        if (!used.ok()) return std::move(used).take_status().with_context(spool_name(parts[j], j) + ": ");
        PackContext::count(row, tally);
        MANAKA_RETURN_NOT_OK(sink.append(row));
      }
    }
    return Status();
  });
}

}  // namespace manaka::fold
