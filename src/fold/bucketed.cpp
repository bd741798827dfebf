// pack() with --buckets N: the three-pass external-memory conversion
// (fold/pack.h; docs: "Rows leave shuffled").
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <numeric>

#include "core/progress.h"
#include "fold/board_hash.h"
#include "fold/converters.h"
#include "fold/fold_table.h"
#include "fold/rng.h"
#include "fold/spool.h"
#include "stream/header.h"
#include "stream/reader.h"
#include "stream/record.h"

namespace manaka::fold {

namespace {

std::string spool_name(const TempDir& dir, char set, uint32_t i, const char* ext) {
  return spool_path(dir.path(), set, i, ext);
}

Result<std::vector<SpoolWriter>> open_spools(const TempDir& dir, char set, const char* ext,
                                             uint32_t n) {
  std::vector<SpoolWriter> spools;
  spools.reserve(n);
  for (uint32_t i = 0; i < n; ++i) {
    auto w = SpoolWriter::create(spool_name(dir, set, i, ext), spool_buffer_bytes(n));
    if (!w.ok()) {
      return std::move(w).take_status().with_context(
          "--buckets " + std::to_string(n) + " (try fewer spools): ");
    }
    spools.push_back(std::move(*w));
  }
  return spools;
}

Status close_spools(std::vector<SpoolWriter>& spools) {
  for (auto& s : spools) MANAKA_RETURN_NOT_OK(s.close());
  return Status();
}

// Pass 1: every record to first-set spool bucket_of(hash(board)), an MPK1
// stream with the inputs' header; records keep their input order per spool.
Status partition(PackContext& ctx, const TempDir& dir, uint64_t& spooled_bytes) {
  const uint32_t n = ctx.options.buckets;
  MANAKA_ASSIGN_OR_RETURN(auto spools, open_spools(dir, 'a', "mpk", n));
  std::array<uint8_t, stream::kHeaderSize> header{};
  stream::encode_header(ctx.inputs.header, header);
  for (auto& s : spools) MANAKA_RETURN_NOT_OK(s.append(header.data(), header.size()));

  Progress progress("pack: pass 1/3 partition", ctx.inputs.total_bytes);
  progress.set_enabled(ctx.options.progress);
  std::vector<uint8_t> buf;
  MANAKA_RETURN_NOT_OK(read_records(ctx.inputs, &progress, [&](const stream::RecordView& rec) {
    buf.clear();
    stream::encode_record(rec, buf);
    ++ctx.summary.records_in;
    ctx.fingerprint += record_fingerprint(rec);
    return spools[bucket_of(hash_board(rec.packed.data()), n)].append(buf.data(), buf.size());
  }));
  MANAKA_RETURN_NOT_OK(close_spools(spools));
  spooled_bytes = 0;
  for (const auto& s : spools) spooled_bytes += s.bytes();
  return Status();
}

// Pass 2: fold each first-set spool; scatter its rows uniformly over the
// second set. Each first-set spool is deleted once folded.
Status fold_and_scatter(PackContext& ctx, const TempDir& dir, uint64_t spooled_bytes,
                        std::vector<uint64_t>& spool_rows) {
  const uint32_t n = ctx.options.buckets;
  MANAKA_ASSIGN_OR_RETURN(auto spools, open_spools(dir, 'b', "rows", n));
  const bool with_cp = ctx.inputs.header.policy_source == stream::PolicySource::Cp;
  Progress progress("pack: pass 2/3 fold", spooled_bytes);
  progress.set_enabled(ctx.options.progress);
  uint64_t bytes_done = 0, records_done = 0;
  FoldTable table(ctx.inputs.header.policy_source);
  shard::Row row;
  std::vector<uint8_t> buf;
  for (uint32_t i = 0; i < n; ++i) {
    const std::string path = spool_name(dir, 'a', i, "mpk");
    {
      MANAKA_ASSIGN_OR_RETURN(auto reader, stream::Reader::open(path));
      table.reserve(reader.size() / (stream::kRecordFixedSize + kBoardBytes + stream::kCandidateSize),
                    reader.size() / stream::kCandidateSize);
      stream::RecordView rec;
      while (true) {
        MANAKA_ASSIGN_OR_RETURN(bool more, reader.next(rec));
        if (!more) break;
        MANAKA_RETURN_NOT_OK(table.add(rec).with_context(path + ": "));
        progress.update(bytes_done + reader.byte_offset(), ++records_done);
      }
      bytes_done += reader.byte_offset();
    }
    table.flush();
    std::error_code ec;
    std::filesystem::remove(path, ec);

    auto rng = Xoshiro256ss::for_spool(ctx.options.seed, Xoshiro256ss::Stream::Scatter, i);
    for (uint32_t g = 0; g < table.groups(); ++g) {
      table.emit(g, ctx.rule, row);
      buf.clear();
      encode_spool_row(row, with_cp, buf);
      const uint32_t to = static_cast<uint32_t>(rng.below(n));
      ++spool_rows[to];
      MANAKA_RETURN_NOT_OK(spools[to].append(buf.data(), buf.size()));
    }
    table.clear();
  }
  return close_spools(spools);
}

// A loaded second-set spool: its bytes and its rows' offsets, permuted.
struct LoadedSpool {
  MappedVector<uint8_t> bytes;
  MappedVector<uint64_t> offsets;
};

// Pass 3's reading of spool j: the file, each row's offset, then
// for_spool(seed, Permute, j) over them. `users` counts the shards still to
// load it; the last removes the file.
Status load_spool(PackContext& ctx, const TempDir& dir, uint32_t j, uint64_t expected_rows,
                  std::atomic<uint32_t>& users, LoadedSpool& out) {
  const bool with_cp = ctx.inputs.header.policy_source == stream::PolicySource::Cp;
  const std::string path = spool_name(dir, 'b', j, "rows");
  MappedVector<uint8_t>().swap(out.bytes);  // the last spool goes before this one comes: one at a time
  MANAKA_ASSIGN_OR_RETURN(out.bytes, read_file(path));
  if (users.fetch_sub(1) == 1) {
    std::error_code ec;
    std::filesystem::remove(path, ec);
  }
  const auto& bytes = out.bytes;
  out.offsets.clear();
  out.offsets.reserve(expected_rows);
  for (uint64_t at = 0; at < bytes.size();) {
    out.offsets.push_back(at);
    if (bytes.size() - at < kSpoolRowFixed) {
      return Status::truncated(path + ": spool ends inside a row at byte " + std::to_string(at));
    }
    at += spool_row_size(bytes.data() + at, with_cp);
  }
  if (out.offsets.size() != expected_rows) {
    return Status::invalid(path + ": " + std::to_string(out.offsets.size()) + " rows in a spool pass 2 wrote " +
                           std::to_string(expected_rows) + " to");
  }
  auto rng = Xoshiro256ss::for_spool(ctx.options.seed, Xoshiro256ss::Stream::Permute, j);
  rng.shuffle(std::span<uint64_t>(out.offsets));
  return Status();
}

// Pass 3: the set is the second-set spools, each permuted, one after the
// other. Every spool's row count is known from pass 2, so each shard knows
// which spools (and which of their rows) it holds: shards are written on
// their own threads, each loading its spools in turn (a spool that spans two
// shards is loaded by both).
Status permute_and_write(PackContext& ctx, const TempDir& dir, const std::vector<uint64_t>& spool_rows) {
  const uint32_t n = ctx.options.buckets;
  const bool with_cp = ctx.inputs.header.policy_source == stream::PolicySource::Cp;
  std::vector<uint64_t> start(n + 1, 0);  // spool j's rows are the set's [start[j], start[j + 1])
  for (uint32_t j = 0; j < n; ++j) start[j + 1] = start[j] + spool_rows[j];
  // Shards that read each spool.
  std::vector<std::atomic<uint32_t>> users(n);
  const uint64_t per_shard = ctx.options.rows_per_shard;
  for (uint64_t first = 0; first < start[n]; first += per_shard) {
    const uint64_t end = std::min(first + per_shard, start[n]);
    for (uint32_t j = 0; j < n; ++j)
      if (start[j] < end && start[j + 1] > first) users[j].fetch_add(1);
  }
  for (uint32_t j = 0; j < n; ++j) {  // spools no shard reads (empty ones) go now
    if (users[j].load() == 0) {
      std::error_code ec;
      std::filesystem::remove(spool_name(dir, 'b', j, "rows"), ec);
    }
  }

  Progress progress("pack: pass 3/3 write", 0);
  progress.set_enabled(ctx.options.progress);
  return ctx.write_shards(&progress, [&](shard::ShardSink& sink, PackSummary& tally) {
    const uint64_t first = sink.first_row(), end = first + sink.rows();
    LoadedSpool spool;
    shard::Row row;
    for (uint32_t j = 0; j < n; ++j) {
      if (start[j + 1] <= first || start[j] >= end || spool_rows[j] == 0) continue;
      MANAKA_RETURN_NOT_OK(load_spool(ctx, dir, j, spool_rows[j], users[j], spool));
      const uint64_t lo = std::max(first, start[j]) - start[j], hi = std::min(end, start[j + 1]) - start[j];
      for (uint64_t r = lo; r < hi; ++r) {
        const uint64_t at = spool.offsets[r];
        auto used = decode_spool_row(spool.bytes.data() + at, spool.bytes.size() - at, with_cp, row);
        if (!used.ok()) {
          return std::move(used).take_status().with_context(spool_name(dir, 'b', j, "rows") + ": ");
        }
        PackContext::count(row, tally);
        MANAKA_RETURN_NOT_OK(sink.append(row));
      }
    }
    return Status();
  });
}

}  // namespace

Status pack_bucketed(PackContext& ctx) {
  std::string parent = ctx.options.spool_dir;
  if (parent.empty()) parent = std::filesystem::path(ctx.options.prefix).parent_path().string();
  ensure_descriptors(ctx.options.buckets);
  MANAKA_ASSIGN_OR_RETURN(TempDir dir, TempDir::scratch(parent, kSpoolDirLabel));
  uint64_t spooled = 0;
  MANAKA_RETURN_NOT_OK(partition(ctx, dir, spooled));
  std::vector<uint64_t> spool_rows(ctx.options.buckets, 0);
  MANAKA_RETURN_NOT_OK(fold_and_scatter(ctx, dir, spooled, spool_rows));
  uint64_t rows = 0;
  for (uint64_t r : spool_rows) rows += r;
  MANAKA_RETURN_NOT_OK(ctx.open_output(rows));
  return permute_and_write(ctx, dir, spool_rows);  // dir and what is left in it go on return
}

}  // namespace manaka::fold
