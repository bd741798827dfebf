// The input side of `manaka pack`: the streams, checked to fold together,
// then read in the order given, each record re-validated by the stream
// reader (stream/validate.h: its moves distinct, its position one
// shogi::unpack accepts, among the rest), so pack refuses exactly what
// `manaka stream validate` refuses.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/progress.h"
#include "core/status.h"
#include "stream/format.h"
#include "stream/reader.h"
#include "stream/validate.h"

namespace manaka::fold {

struct Inputs {
  std::vector<std::string> paths;
  stream::Header header;     // the first stream's; every other one folds with it
  uint64_t total_bytes = 0;  // sum of the streams' sizes when opened
};

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
