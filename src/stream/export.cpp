#include "stream/export.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <nlohmann/json.hpp>

#include "core/bytes.h"
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

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}


}  // namespace

int16_t score_from_value_q(float value_q, double eval_coef) {
  const double cp = std::round(2.0 * eval_coef * std::atanh(std::clamp(double(value_q), -1.0, 1.0)));
  return int16_t(std::clamp(cp, -32767.0, 32767.0));
}

int8_t result_from_value_z(float value_z, double threshold) {
  return value_z > threshold ? 1 : value_z < -threshold ? -1 : 0;
}

ExportItem export_item(const shogi::Position& pos, uint16_t move, int16_t cp, float value_q, float value_z,
                       uint16_t ply, Pov pov, double eval_coef) {
  const int sign = side_to_move_sign(pov, pos.side_to_move());
  ExportItem item;
  item.pos = &pos;
  item.move = move;
  item.score_from_q = cp == kNoCp;
  item.score = int16_t(sign * (cp != kNoCp ? cp : score_from_value_q(value_q, eval_coef)));
  item.value_z = float(sign) * value_z;
  item.ply = ply;
  return item;
}

ExportWriter::ExportWriter(const ExportOptions& options, AtomicFile out) : o_(options), out_(std::move(out)) {
  buffer_.reserve(kBufferSize);
  s_.to = o_.to;
  s_.files = o_.inputs;
  s_.output = o_.output;
  start_ = now_seconds();
}

Result<ExportWriter> ExportWriter::create(const ExportOptions& o, const std::vector<std::string>& inputs) {
  if (o.to == SourceFormat::Hcpe3) return Status::usage("stream export: hcpe3 is not a target (psv or hcpe)");
  if (o.inputs.empty()) return Status::usage("stream export: no input given");
  if (o.output.empty()) return Status::usage("stream export: no output path given");
  if (!(o.result_threshold >= 0.0 && o.result_threshold < 1.0))
    return Status::usage("stream export: result threshold " + number_text(o.result_threshold) +
                         " out of range (0 <= t < 1)");
  MANAKA_RETURN_NOT_OK(check_distinct_inputs(inputs).with_context("stream export: "));
  MANAKA_RETURN_NOT_OK(check_output(o.output, inputs, o.overwrite).with_context("stream export: "));
  MANAKA_ASSIGN_OR_RETURN(AtomicFile out, AtomicFile::create(o.output));
  return ExportWriter(o, std::move(out));
}

Status ExportWriter::refuse(const char* reason, const std::string& message) {
  if (o_.strict) return Status::invalid(message);
  if (s_.refused++ == 0) s_.first_refusal = message;
  if (s_.refused_by[reason]++ == 0) s_.first_by[reason] = message;
  return Status();
}

Status ExportWriter::add(const ExportItem& item, const std::function<std::string()>& where) {
  const shogi::Position& pos = *item.pos;
  const shogi::Move m{item.move};
  if (!pos.is_legal(m)) return refuse("illegal_move", where() + ": move " + m.to_usi() + " is not legal in " + pos.sfen());
  const int8_t result = result_from_value_z(item.value_z, o_.result_threshold);
  uint8_t r[kPsvRecordSize] = {};
  size_t size = kPsvRecordSize;
  if (o_.to == SourceFormat::Psv) {
    const shogi::PackedSfen code = shogi::encode_packed_sfen(pos);
    std::copy(code.begin(), code.end(), r);
    store_i16(r + 32, item.score);
    store_u16(r + 34, sazpack::Move16::from_mpk(m).raw);
    store_u16(r + 36, item.ply);
    r[38] = uint8_t(result);
  } else {
    auto code = shogi::encode_huffman_coded_pos(pos);
    if (!code.ok()) return refuse("not_encodable", where() + ": " + code.status().message());
    std::copy(code->begin(), code->end(), r);
    store_i16(r + 32, item.score);
    store_u16(r + 34, shogi::apery16_from_move(m));
    const bool black = pos.side_to_move() == shogi::BLACK;
    r[36] = result == 0 ? 0 : ((result > 0) == black ? 1 : 2);
    size = kHcpeRecordSize;
  }
  s_.scores_from_value_q += item.score_from_q;
  s_.results_rounded += item.value_z != float(result);
  buffer_.insert(buffer_.end(), r, r + size);
  ++s_.records_written;
  s_.bytes_written += size;
  return buffer_.size() + kPsvRecordSize > kBufferSize ? flush() : Status();
}

Status ExportWriter::flush() {
  MANAKA_RETURN_NOT_OK(out_.write_all(buffer_.data(), buffer_.size()));
  buffer_.clear();
  return Status();
}

Result<ExportSummary> ExportWriter::finish() {
  MANAKA_RETURN_NOT_OK(flush());
  MANAKA_RETURN_NOT_OK(out_.commit());
  s_.seconds = now_seconds() - start_;
  return s_;
}

Status export_stream_file(const std::string& file, ExportWriter& w) {
  MANAKA_ASSIGN_OR_RETURN(Reader reader, Reader::open(file));
  const Header& h = reader.header();
  if (h.packed_len != shogi::PACKED_LEN)
    return Status::invalid(file + ": packed_len " + std::to_string(h.packed_len) + ": not a shogi stream (96)");
  const double eval_coef = h.eval_coef != 0.0f ? double(h.eval_coef) : w.options().eval_coef;
  const bool by_cp = h.policy_source == PolicySource::Cp;
  Progress progress(file, reader.size());
  progress.set_enabled(w.options().progress);
  RecordView rec;
  std::vector<uint32_t> keys;
  for (;;) {
    const uint64_t index = reader.record_index();
    MANAKA_ASSIGN_OR_RETURN(bool more, reader.next(rec));
    if (!more) break;
    ExportSummary& s = w.summary();
    ++s.records_read;
    auto where = [&] { return file + ": record " + std::to_string(index); };
    auto pos = shogi::unpack(rec.packed);  // the reader checked it
    if (!pos.ok()) return std::move(pos).take_status().with_context(where() + ": ");
    // cp as an unsigned key keeps its order: the side to move's score
    // (a pov-1 stream's Black view turned, or White would keep its worst
    // move) offset by 32768; every candidate has cp in a cp stream.
    const int sign = side_to_move_sign(h.pov, pos->side_to_move());
    keys.clear();
    for (const Candidate& c : rec.candidates) keys.push_back(by_cp ? uint32_t(sign * c.cp + 32768) : c.visits);
    const Candidate& best = rec.candidates[best_candidate(std::span<const uint32_t>(keys))];
    if (!best.has_cp() && eval_coef == 0.0)
      return Status::usage(file + ": the stream has no eval_coef and record " + std::to_string(index) +
                           " no cp: give eval_coef to turn value_q into a score");
    MANAKA_RETURN_NOT_OK(
        w.add(export_item(*pos, best.mv, best.cp, rec.value_q, rec.value_z, rec.ply, h.pov, eval_coef), where));
    if ((s.records_read & 0xFFFF) == 0) progress.update(reader.byte_offset(), s.records_read);
  }
  progress.finish();
  return Status();
}

Result<ExportSummary> export_stream(const ExportOptions& o) {
  MANAKA_ASSIGN_OR_RETURN(ExportWriter w, ExportWriter::create(o, o.inputs));
  for (const std::string& file : o.inputs) MANAKA_RETURN_NOT_OK(export_stream_file(file, w));
  return w.finish();
}

std::string format_export_summary(const ExportSummary& s) {
  std::string out;
  append_format(out, "export %s: %llu records from %zu input%s -> %s: %llu records (%s) in %.2f s\n",
                source_format_name(s.to), ull(s.records_read), s.files.size(), s.files.size() == 1 ? "" : "s",
                s.output.c_str(), ull(s.records_written), format_bytes(double(s.bytes_written)).c_str(), s.seconds);
  if (s.shard_rows) append_format(out, "  shard rows: %llu\n", ull(s.shard_rows));
  if (s.scores_from_value_q)
    append_format(out, "  scores from value_q (no cp on the best candidate): %llu\n", ull(s.scores_from_value_q));
  if (s.results_rounded)
    append_format(out, "  results rounded from a value_z mean: %llu\n", ull(s.results_rounded));
  append_format(out, "  refused: %llu (positions the target cannot hold)\n", ull(s.refused));
  for (const auto& [reason, n] : s.refused_by)
    append_format(out, "    %-14s %10llu  first: %s\n", reason.c_str(), ull(n), s.first_by.at(reason).c_str());
  return out;
}

std::string export_summary_json(const ExportSummary& s) {
  nlohmann::ordered_json j;
  j["to"] = source_format_name(s.to);
  j["files"] = s.files;
  j["output"] = s.output;
  j["records_read"] = s.records_read;
  j["shard_rows"] = s.shard_rows;
  j["records_written"] = s.records_written;
  j["bytes_written"] = s.bytes_written;
  j["scores_from_value_q"] = s.scores_from_value_q;
  j["results_rounded"] = s.results_rounded;
  j["refused"] = s.refused;
  j["first_refusal"] = s.first_refusal ? nlohmann::ordered_json(*s.first_refusal) : nlohmann::ordered_json();
  j["refused_by"] = s.refused_by;
  j["first_by"] = s.first_by;
  j["seconds"] = s.seconds;
  return json_text(j);
}

}  // namespace manaka::stream
