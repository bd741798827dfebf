// Columnar batches of MPK1 records: what a trainer or a converter wants
// instead of one record at a time. Candidates are flat arrays indexed by
// offsets: record i owns candidates [cand_offsets[i], cand_offsets[i + 1]).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/status.h"
#include "stream/format.h"
#include "stream/reader.h"

namespace manaka::stream {

struct Batch {
  size_t packed_len = kShogiPackedLen;
  std::vector<uint8_t> packed;          // records x packed_len, row-major
  std::vector<uint16_t> ply;
  std::vector<float> value_z;
  std::vector<float> value_q;
  std::vector<int64_t> cand_offsets{0};  // records + 1
  std::vector<uint16_t> mv;
  std::vector<uint32_t> visits;          // NO_VISITS (0) where absent
  std::vector<int16_t> cp;               // NO_CP (-32768) where absent

  size_t size() const { return ply.size(); }
  void clear();
  void append(const RecordView& rec);
};

// Reads up to max_records validated records into out (cleared first).
// Returns false when the stream had none left.
Result<bool> read_batch(Reader& reader, size_t max_records, Batch& out);

}  // namespace manaka::stream
