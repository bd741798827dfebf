// The input side of `manaka pack`: the streams, checked to fold together,
// then read in the order given, each record re-validated by the stream
// reader (stream/validate.h: its moves distinct, its position one
// shogi::unpack accepts, among the rest), so pack refuses exactly what
// `manaka stream validate` refuses.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/progress.h"
#include "core/status.h"
#include "fold/board_hash.h"
#include "stream/format.h"
#include "stream/reader.h"
#include "stream/validate.h"

namespace manaka::fold {

struct Inputs {
  std::vector<std::string> paths;
  stream::Header header;     // the first stream's; every other one folds with it
  uint64_t total_bytes = 0;  // sum of the streams' sizes when opened
};

// A 64-bit hash of everything a record holds; pack sums it over its input
// (an order-free fingerprint of the corpus) to name the shard set it writes.
// The candidates are mixed into four lanes, the k-th into lane k % 4: one
// chain would wait on a multiply per candidate (a fifth of pack's fold).
// board_hash is hash_board(rec.packed): the caller has it already (the
// board decided which reader keeps the record).
inline uint64_t record_fingerprint(const stream::RecordView& rec, uint64_t board_hash) {
  auto mix = [](uint64_t& h, uint64_t w) {
    h = (h ^ w) * 0x9E3779B97F4A7C15ull;
    h ^= h >> 29;
  };
  uint64_t lane[4] = {board_hash ^ (uint64_t{rec.ply} << 48), 1, 2, 3};
  uint32_t z, q;
  std::memcpy(&z, &rec.value_z, 4);
  std::memcpy(&q, &rec.value_q, 4);
  mix(lane[0], uint64_t{z} << 32 | q);
  const std::span<const stream::Candidate> cands = rec.candidates;
  size_t k = 0;
  for (; k + 4 <= cands.size(); k += 4)
    for (size_t j = 0; j < 4; ++j) {
      const stream::Candidate& c = cands[k + j];
      mix(lane[j], uint64_t{c.mv} << 48 | uint64_t{static_cast<uint16_t>(c.cp)} << 32 | c.visits);
    }
  for (size_t j = 0; k < cands.size(); ++k, ++j) {
    const stream::Candidate& c = cands[k];
    mix(lane[j], uint64_t{c.mv} << 48 | uint64_t{static_cast<uint16_t>(c.cp)} << 32 | c.visits);
  }
  uint64_t h = lane[0];
  for (size_t j = 1; j < 4; ++j) mix(h, lane[j]);
  return h ^ (h >> 31);
}

// Opens every stream's header (and closes it again): refuses an empty list,
// a stream named twice (it would fold with itself and double every weight),
// a packed_len other than 96 (the shard's packed column is 96 bytes wide)
// and any stream that may not be folded with the first (fold/compat.h).
Result<Inputs> open_inputs(const std::vector<std::string>& paths);

// Reads every record of every input in order and calls
// on_record(rec, index) -> Status for each record keep(const uint8_t*
// packed) -> bool accepts, index counting every input's records. A kept
// record is checked against every rule; a refused one only framed
// (Reader::next_kept), so readers that split the input between them check
// each record once. progress (may be null) advances by bytes across all
// streams and by records. An error from the reader or from on_record stops
// the read; on_record's own errors get the file and record prefixed. On a
// failure *failed_at (when given) is the index of the record that failed,
// so that readers splitting the input can report the earliest.
template <typename Keep, typename OnRecord>
Status read_kept_records(const Inputs& inputs, Progress* progress, Keep&& keep, OnRecord&& on_record,
                         uint64_t* failed_at = nullptr) {
  uint64_t bytes_before = 0, records_before = 0;
  auto fail = [&](Status st, uint64_t index) {
    if (failed_at) *failed_at = index;
    return st;
  };
  for (const std::string& path : inputs.paths) {
    auto reader = stream::Reader::open(path);
    if (!reader.ok()) return fail(std::move(reader).take_status(), records_before);
    stream::RecordView rec;
    while (true) {
      auto more = reader->next_kept(rec, keep);
      if (!more.ok()) return fail(std::move(more).take_status(), records_before + reader->record_index());
      if (!*more) break;
      const uint64_t index = reader->record_index() - 1;
      Status st = on_record(rec, records_before + index);
      if (!st.ok()) {
        const uint64_t start = reader->byte_offset() - stream::record_size(rec.packed.size(), rec.candidates.size());
        return fail(std::move(st).with_context(stream::record_context(path, index, start)), records_before + index);
      }
      if (progress) progress->update(bytes_before + reader->byte_offset(), records_before + reader->record_index());
    }
    bytes_before += reader->byte_offset();
    records_before += reader->record_index();
  }
  if (progress) progress->update(bytes_before, records_before);
  return Status();
}

// Parts a read is split into at most: each part's thread reads and frames
// every record, so past a few parts the reading, not the work, sets the pace.
inline constexpr uint32_t kMaxReadParts = 8;

// Runs part(p, progress, failed_at) -> Status for p in [0, parts): part 0 on
// this thread with `progress`, the others each on a thread of its own with
// none. A failing part sets failed_at to where its failure is: for parts
// that split the inputs between them by board (each reading all of them
// through read_kept_records), the record that failed; for parts that take
// runs of buckets, the bucket. Of the failures, the one with the lowest
// failed_at is returned: what one thread doing it all would have reported.
template <typename Part>
Status run_parts(uint32_t parts, Progress* progress, Part&& part) {
  std::vector<Status> status(parts);
  std::vector<uint64_t> failed_at(parts, 0);
  {
    std::vector<std::jthread> pool;
    for (uint32_t p = 1; p < parts; ++p)
      pool.emplace_back([&, p] { status[p] = part(p, static_cast<Progress*>(nullptr), failed_at[p]); });
    status[0] = part(0, progress, failed_at[0]);
  }
  size_t first = parts;
  for (size_t p = 0; p < parts; ++p)
    if (!status[p].ok() && (first == parts || failed_at[p] < failed_at[first])) first = p;
  return first == parts ? Status() : status[first];
}

}  // namespace manaka::fold
