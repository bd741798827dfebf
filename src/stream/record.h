// Record bytes: encoding and decoding of one MPK1 record (layout in
// stream/format.h). None of these validate; see stream/validate.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/bytes.h"
#include "stream/format.h"

namespace manaka::stream {

// The first 12 bytes of a record.
struct RecordPrefix {
  uint16_t ply;
  float value_z;
  float value_q;
  uint16_t n_cand;
};

inline RecordPrefix decode_prefix(const uint8_t* p) {
  return {load_u16(p), load_f32(p + 2), load_f32(p + 6), load_u16(p + 10)};
}

// Decodes n wire candidates (8 bytes each) starting at p into out[0..n).
inline void decode_candidates(const uint8_t* p, size_t n, Candidate* out) {
  for (size_t i = 0; i < n; ++i, p += kCandidateSize) {
    out[i].mv = load_u16(p);
    out[i].visits = load_u32(p + 2);
    out[i].cp = load_i16(p + 6);
  }
}

// Appends the encoded record to out. The caller has checked that packed and
// the candidate count fit their u16 fields (validate_record does).
void encode_record(const RecordView& rec, std::vector<uint8_t>& out);

}  // namespace manaka::stream
