#include "stream/batch.h"

namespace manaka::stream {

void Batch::clear() {
  packed.clear();
  ply.clear();
  value_z.clear();
  value_q.clear();
  cand_offsets.assign(1, 0);
  mv.clear();
  visits.clear();
  cp.clear();
}

void Batch::append(const RecordView& rec) {
  packed.insert(packed.end(), rec.packed.begin(), rec.packed.end());
  ply.push_back(rec.ply);
  value_z.push_back(rec.value_z);
  value_q.push_back(rec.value_q);
  for (const Candidate& c : rec.candidates) {
    mv.push_back(c.mv);
    visits.push_back(c.visits);
    cp.push_back(c.cp);
  }
  cand_offsets.push_back(static_cast<int64_t>(mv.size()));
}

Result<bool> read_batch(Reader& reader, size_t max_records, Batch& out) {
  out.clear();
  out.packed_len = reader.header().packed_len;
  RecordView rec;
  while (out.size() < max_records) {
    MANAKA_ASSIGN_OR_RETURN(bool more, reader.next(rec));
    if (!more) break;
    out.append(rec);
  }
  return out.size() > 0;
}

}  // namespace manaka::stream
