#include "stream/export.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "core/bytes.h"
#include "core/file.h"
#include "core/output.h"
#include "core/progress.h"
#include "core/text.h"
#include "sazpack/move16.h"
#include "shogi/apery_move16.h"
#include "shogi/huffman_coded_pos.h"
#include "shogi/pack.h"
#include "shogi/packed_sfen.h"
#include "stream/reader.h"

namespace manaka::stream {

namespace {

constexpr size_t kBufferSize = size_t{1} << 20;

// The candidate the target keeps.
const Candidate& best_candidate(const Header& h, std::span<const Candidate> cands) {
  size_t best = 0;
  for (size_t i = 1; i < cands.size(); ++i) {
    const bool better = h.policy_source == PolicySource::Cp ? cands[i].cp > cands[best].cp
                                                            : cands[i].visits > cands[best].visits;
    if (better) best = i;
  }
  return cands[best];
}

int16_t score_of(const Candidate& c, float value_q, double eval_coef, bool* from_q) {
  *from_q = !c.has_cp();
  if (c.has_cp()) return c.cp;
  const double cp = std::round(2.0 * eval_coef * std::atanh(std::clamp(double(value_q), -1.0, 1.0)));
  return int16_t(std::clamp(cp, -32767.0, 32767.0));
}

}  // namespace

Result<ExportSummary> export_stream(const ExportOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  if (o.to == SourceFormat::Hcpe3) return Status::usage("stream export: hcpe3 is not a target (psv or hcpe)");
  if (o.inputs.empty()) return Status::usage("stream export: no input stream given");
  if (o.output.empty()) return Status::usage("stream export: no output path given");
  MANAKA_RETURN_NOT_OK(check_output(o.output, o.inputs, o.overwrite).with_context("stream export: "));
  ExportSummary s;
  s.to = o.to;
  s.files = o.inputs;
  s.output = o.output;
  MANAKA_ASSIGN_OR_RETURN(AtomicFile out, AtomicFile::create(o.output));
  std::vector<uint8_t> buffer;
  buffer.reserve(kBufferSize);
  const size_t size = o.to == SourceFormat::Psv ? kPsvRecordSize : kHcpeRecordSize;
  for (const std::string& file : o.inputs) {
    MANAKA_ASSIGN_OR_RETURN(Reader reader, Reader::open(file));
    const Header& h = reader.header();
    if (h.packed_len != shogi::PACKED_LEN)
      return Status::invalid(file + ": packed_len " + std::to_string(h.packed_len) + ": not a shogi stream (96)");
    const double eval_coef = h.eval_coef != 0.0f ? double(h.eval_coef) : o.eval_coef;
    Progress progress(file, reader.size());
    progress.set_enabled(o.progress);
    RecordView rec;
    for (;;) {
      const uint64_t index = reader.record_index();
      MANAKA_ASSIGN_OR_RETURN(bool more, reader.next(rec));
      if (!more) break;
      ++s.records_read;
      auto pos = shogi::unpack(rec.packed);  // the reader checked it
      if (!pos.ok()) return std::move(pos).take_status().with_context(file + ": record " + std::to_string(index) + ": ");
      const Candidate& best = best_candidate(h, rec.candidates);
      if (!best.has_cp() && eval_coef == 0.0)
        return Status::usage(file + ": the stream has no eval_coef and record " + std::to_string(index) +
                             " no cp: give eval_coef to turn value_q into a score");
      bool from_q = false;
      const int16_t score = score_of(best, rec.value_q, eval_coef, &from_q);
      const shogi::Move m{best.mv};
      uint8_t r[kPsvRecordSize] = {};
      if (o.to == SourceFormat::Psv) {
        const shogi::PackedSfen code = shogi::encode_packed_sfen(*pos);
        std::copy(code.begin(), code.end(), r);
        store_i16(r + 32, score);
        store_u16(r + 34, sazpack::Move16::from_mpk(m).raw);
        store_u16(r + 36, rec.ply);
        r[38] = uint8_t(int8_t(rec.value_z));
      } else {
        auto code = shogi::encode_huffman_coded_pos(*pos);
        if (!code.ok()) {
          std::string msg = file + ": record " + std::to_string(index) + ": " + code.status().message();
          if (o.strict) return Status::invalid(msg);
          if (s.refused++ == 0) s.first_refusal = msg;
          continue;
        }
        std::copy(code->begin(), code->end(), r);
        store_i16(r + 32, score);
        store_u16(r + 34, shogi::apery16_from_move(m));
        const bool black = pos->side_to_move() == shogi::BLACK;
        r[36] = rec.value_z == 0.0f ? 0 : ((rec.value_z > 0) == black ? 1 : 2);
      }
      s.scores_from_value_q += from_q;
      buffer.insert(buffer.end(), r, r + size);
      ++s.records_written;
      if (buffer.size() + size > kBufferSize) {
        MANAKA_RETURN_NOT_OK(out.write_all(buffer.data(), buffer.size()));
        buffer.clear();
      }
      if ((s.records_read & 0xFFFF) == 0) progress.update(reader.byte_offset(), s.records_read);
    }
    progress.finish();
  }
  MANAKA_RETURN_NOT_OK(out.write_all(buffer.data(), buffer.size()));
  MANAKA_RETURN_NOT_OK(out.commit());
  s.bytes_written = s.records_written * size;
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return s;
}

std::string format_export_summary(const ExportSummary& s) {
  char buf[512];
  std::snprintf(buf, sizeof buf, "export %s: %llu records from %zu stream%s -> %s: %llu records (%s) in %.2f s\n",
                source_format_name(s.to), (unsigned long long)s.records_read, s.files.size(),
                s.files.size() == 1 ? "" : "s", s.output.c_str(), (unsigned long long)s.records_written,
                format_bytes(double(s.bytes_written)).c_str(), s.seconds);
  std::string out = buf;
  if (s.scores_from_value_q)
    out += "  scores from value_q (no cp on the best candidate): " + std::to_string(s.scores_from_value_q) + "\n";
  out += "  refused: " + std::to_string(s.refused) + " (positions the target cannot hold)\n";
  if (s.first_refusal) out += "    first: " + *s.first_refusal + "\n";
  return out;
}

std::string export_summary_json(const ExportSummary& s) {
  nlohmann::ordered_json j;
  j["to"] = source_format_name(s.to);
  j["files"] = s.files;
  j["output"] = s.output;
  j["records_read"] = s.records_read;
  j["records_written"] = s.records_written;
  j["bytes_written"] = s.bytes_written;
  j["scores_from_value_q"] = s.scores_from_value_q;
  j["refused"] = s.refused;
  j["first_refusal"] = s.first_refusal ? nlohmann::ordered_json(*s.first_refusal) : nlohmann::ordered_json();
  j["seconds"] = s.seconds;
  return json_text(j);
}

}  // namespace manaka::stream
