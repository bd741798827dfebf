// The input side of `manaka pack`: the streams, checked to fold together,
// then read in the order given, each record re-validated by the stream
// reader (stream/validate.h: its moves distinct, its position one
// shogi::unpack accepts, among the rest), so pack refuses exactly what
// `manaka stream validate` refuses.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
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
inline uint64_t record_fingerprint(const stream::RecordView& rec) {
  uint64_t h = hash_board(rec.packed.data()) ^ (uint64_t{rec.ply} << 48);
  auto mix = [&h](uint64_t w) {
    h = (h ^ w) * 0x9E3779B97F4A7C15ull;
    h ^= h >> 29;
  };
  uint32_t z, q;
  std::memcpy(&z, &rec.value_z, 4);
  std::memcpy(&q, &rec.value_q, 4);
  mix(uint64_t{z} << 32 | q);
  for (const stream::Candidate& c : rec.candidates)
    mix(uint64_t{c.mv} << 48 | uint64_t{static_cast<uint16_t>(c.cp)} << 32 | c.visits);
  return h ^ (h >> 31);
}

// Opens every stream's header (and closes it again): refuses an empty list,
// a stream named twice (it would fold with itself and double every weight),
// a packed_len other than 96 (the shard's packed column is 96 bytes wide)
// and any stream that may not be folded with the first (fold/compat.h).
Result<Inputs> open_inputs(const std::vector<std::string>& paths);

// Reads every record of every input in order and calls
// on_record(const stream::RecordView&) -> Status for each. progress (may be
// null) advances by bytes across all streams and by records. An error from
// the reader or from on_record stops the read; on_record's own errors get
// the file and record prefixed.
template <typename OnRecord>
Status read_records(const Inputs& inputs, Progress* progress, OnRecord&& on_record) {
  uint64_t bytes_before = 0, records = 0;
  for (const std::string& path : inputs.paths) {
    MANAKA_ASSIGN_OR_RETURN(auto reader, stream::Reader::open(path));
    stream::RecordView rec;
    while (true) {
      const uint64_t at = reader.byte_offset();
      MANAKA_ASSIGN_OR_RETURN(bool more, reader.next(rec));
      if (!more) break;
      Status st = on_record(rec);
      if (!st.ok()) {
        return std::move(st).with_context(
            stream::record_context(path, reader.record_index() - 1, at));
      }
      ++records;
      if (progress) progress->update(bytes_before + reader.byte_offset(), records);
    }
    bytes_before += reader.byte_offset();
  }
  if (progress) progress->update(bytes_before, records);
  return Status();
}

}  // namespace manaka::fold
