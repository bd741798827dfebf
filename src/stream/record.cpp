#include "stream/record.h"

#include <cstring>

namespace manaka::stream {

void encode_record(const RecordView& rec, std::vector<uint8_t>& out) {
  size_t at = out.size();
  out.resize(at + record_size(rec.packed.size(), rec.candidates.size()));
  uint8_t* p = out.data() + at;
  store_u16(p, rec.ply);
  store_f32(p + 2, rec.value_z);
  store_f32(p + 6, rec.value_q);
  store_u16(p + 10, static_cast<uint16_t>(rec.candidates.size()));
  p += kRecordFixedSize;
  if (!rec.packed.empty()) std::memcpy(p, rec.packed.data(), rec.packed.size());
  p += rec.packed.size();
  for (const Candidate& c : rec.candidates) {
    store_u16(p, c.mv);
    store_u32(p + 2, c.visits);
    store_i16(p + 6, c.cp);
    p += kCandidateSize;
  }
}

}  // namespace manaka::stream
