#include "stream/import.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <span>
#include <thread>

#include <nlohmann/json.hpp>

#include "core/file.h"
#include "core/output.h"
#include "core/progress.h"
#include "core/task_thread.h"
#include "core/three_stage.h"
#include "core/temporary.h"
#include "core/text.h"
#include "stream/writer.h"

namespace manaka::stream {

namespace {

constexpr size_t kChunkBytes = size_t{4} << 20;
constexpr size_t kRunRecords = 256;  // psv / hcpe records a thread takes at once

// Whole records (psv, hcpe) or games (hcpe3) of one file, and what they became.
struct Chunk {
  std::string file;
  uint64_t offset = 0;        // of bytes[0] in the file
  uint64_t first_record = 0;  // psv / hcpe: the first record's index; hcpe3: the first game's
  std::vector<uint8_t> bytes;
  std::vector<std::pair<size_t, size_t>> units;  // (begin, size) in bytes: a run of records or a game
  std::vector<ImportBuffer> out;                 // one per unit
  uint64_t truncated_at = 0;                     // file offset where a partial record or game starts
  size_t truncated_size = 0;                     // its bytes; 0 when the file ends cleanly here
};

// The input files one after another, a chunk at a time.
class ChunkSource {
 public:
  ChunkSource(SourceFormat from, const std::vector<std::string>& files, size_t chunk_bytes)
      : from_(from), files_(files), chunk_bytes_(std::max(chunk_bytes ? chunk_bytes : kChunkBytes, kPsvRecordSize)) {}

  // Read by the writing task for progress while the reading task adds to it.
  uint64_t bytes_read() const { return bytes_read_.load(std::memory_order_relaxed); }

  // false when every file is read.
  Result<bool> next(Chunk& c) {
    for (;;) {
      if (!file_.is_open()) {
        if (index_ == files_.size()) return false;
        MANAKA_ASSIGN_OR_RETURN(file_, InputFile::open(files_[index_]));
        offset_ = 0;
        record_ = 0;
        carry_.clear();
        eof_ = false;
      }
      c.file = files_[index_];
      c.offset = offset_;
      c.first_record = record_;
      c.units.clear();
      c.truncated_size = 0;
      // The carry (a partial record or game) moves to the front of the
      // chunk's own buffer, whose capacity stays from chunk to chunk.
      c.bytes.assign(carry_.begin(), carry_.end());
      carry_.clear();
      size_t want = chunk_bytes_;
      for (;;) {
        if (!eof_ && c.bytes.size() < want) {
          const size_t have = c.bytes.size();
          c.bytes.resize(want);
          auto got = file_.read(c.bytes.data() + have, want - have);
          if (!got.ok()) return std::move(got).take_status();
          c.bytes.resize(have + *got);
          bytes_read_.fetch_add(*got, std::memory_order_relaxed);
          eof_ = have + *got < want;
        }
        MANAKA_ASSIGN_OR_RETURN(size_t used, cut_units(c, &want));
        if (!c.units.empty() || eof_) {
          carry_.assign(c.bytes.begin() + std::ptrdiff_t(used), c.bytes.end());
          c.bytes.resize(used);
          offset_ += used;
          break;
        }
        // One game larger than the chunk: read on to its end (capped by
        // kHcpe3MaxCandidates, so at most about 150 MiB).
      }
      if (eof_ && !carry_.empty()) {
        c.truncated_at = offset_;
        c.truncated_size = carry_.size();
        carry_.clear();
      }
      if (eof_ && carry_.empty()) {
        file_.close();
        ++index_;
      }
      if (!c.units.empty() || c.truncated_size) return true;
    }
  }

 private:
  // Splits c.bytes into units; returns the bytes they cover. *want grows
  // when not even one game fits.
  Result<size_t> cut_units(Chunk& c, size_t* want) {
    if (from_ != SourceFormat::Hcpe3) {
      const size_t size = from_ == SourceFormat::Psv ? kPsvRecordSize : kHcpeRecordSize;
      const size_t n = c.bytes.size() / size;
      for (size_t r = 0; r < n; r += kRunRecords)
        c.units.emplace_back(r * size, std::min(kRunRecords, n - r) * size);
      record_ += n;
      return n * size;
    }
    size_t at = 0;
    for (;;) {
      size_t needed = 0;
      auto size = hcpe3_game_size(std::span<const uint8_t>(c.bytes).subspan(at), &needed);
      if (!size.ok())
        return std::move(size).take_status().with_context(c.file + ": game " + std::to_string(record_) +
                                                          " at byte " + std::to_string(offset_ + at) + ": ");
      if (*size == 0) {
        if (c.units.empty()) *want = std::max(*want, at + needed);
        return at;
      }
      c.units.emplace_back(at, *size);
      at += *size;
      ++record_;
    }
  }

  SourceFormat from_;
  const std::vector<std::string>& files_;
  const size_t chunk_bytes_;  // at least one psv or hcpe record
  size_t index_ = 0;
  InputFile file_;
  uint64_t offset_ = 0, record_ = 0;
  std::atomic<uint64_t> bytes_read_{0};
  std::vector<uint8_t> carry_;
  bool eof_ = false;
};

unsigned import_threads(int requested) {
  constexpr unsigned kMaxThreads = 16;
  if (requested > 0) return std::min(unsigned(requested), kMaxThreads);
  return std::clamp(std::thread::hardware_concurrency(), 1u, kMaxThreads);
}

void convert_unit(SourceFormat from, const Chunk& c, size_t u, const ScoreTable& scores, ImportBuffer& out) {
  out.clear();
  auto bytes = std::span<const uint8_t>(c.bytes).subspan(c.units[u].first, c.units[u].second);
  switch (from) {
    case SourceFormat::Psv: import_psv(bytes, scores, out); break;
    case SourceFormat::Hcpe: import_hcpe(bytes, scores, out); break;
    case SourceFormat::Hcpe3: import_hcpe3_game(bytes, scores, out); break;
  }
}

// Every thread takes units from a shared counter until none is left.
void convert_chunk(SourceFormat from, Chunk& c, const ScoreTable& scores, std::span<TaskThread> helpers) {
  const size_t n = c.units.size();
  if (c.out.size() < n) c.out.resize(n);
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t u; (u = next.fetch_add(1)) < n;) convert_unit(from, c, u, scores, c.out[u]);
  };
  run_shared(helpers, n, work);
}



}  // namespace

uint64_t ImportSummary::refused_total() const {
  uint64_t n = 0;
  for (uint64_t c : refused) n += c;
  return n;
}

Result<ImportSummary> import_stream(const ImportOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  if (o.inputs.empty()) return Status::usage("stream import: no input file given");
  if (o.output.empty()) return Status::usage("stream import: no output path given");
  if (!o.value_q) return Status::usage("stream import: no value_q function given");
  MANAKA_RETURN_NOT_OK(check_distinct_inputs(o.inputs).with_context("stream import: "));
  MANAKA_RETURN_NOT_OK(check_output(o.output, o.inputs, o.overwrite).with_context("stream import: "));

  ImportSummary s;
  s.from = o.from;
  s.files = o.inputs;
  s.output = o.output;
  s.header.pov = Pov::SideToMove;
  s.header.policy_source = o.from == SourceFormat::Hcpe3 ? PolicySource::Visits : PolicySource::Cp;
  s.header.eval_coef = static_cast<float>(o.eval_coef);
  if (o.mate_scale < 0 || o.mate_scale > kMaxMateScale || o.mate_slack < 0 || o.mate_slack > 65535)
    return Status::usage("stream import: mate_scale " + std::to_string(o.mate_scale) + " / mate_slack " +
                         std::to_string(o.mate_slack) + " out of range (0..32767 / 0..65535)");
  s.header.mate_scale = static_cast<uint16_t>(o.mate_scale);
  s.header.mate_slack = static_cast<uint16_t>(o.mate_slack);
  const ScoreTable scores(o.value_q);

  PendingFile out(o.output);
  auto created = Writer::create(out.path(), s.header);
  if (!created.ok()) return std::move(created).take_status().with_context("stream import: ");
  Writer writer = std::move(created).value();
  uint64_t total_bytes = 0;
  for (const std::string& f : o.inputs) {
    auto in = InputFile::open(f);
    if (!in.ok()) return std::move(in).take_status();
    total_bytes += in->size_at_open();
  }
  Progress progress(o.output, total_bytes);
  progress.set_enabled(o.progress);

  ChunkSource input(o.from, o.inputs, o.chunk_bytes);
  auto count = [&s, &o](ImportRefusal why, const std::string& file, std::string where, uint64_t offset,
                        const std::string& detail) -> Status {
    if (o.strict)
      return Status::invalid(file + ": " + where + " at byte " + std::to_string(offset) + ": refused (" +
                             import_refusal_name(why) + ", " + import_refusal_text(why) + "): " + detail);
    auto k = static_cast<size_t>(why);
    if (s.refused[k]++ == 0) s.first_refusal[k] = ImportRefusalExample{file, std::move(where), offset, detail};
    return Status();
  };
  const size_t record_size = o.from == SourceFormat::Psv ? kPsvRecordSize : kHcpeRecordSize;
  auto write_chunk = [&](Chunk& c) -> Status {
    for (size_t u = 0; u < c.units.size(); ++u) {
      const ImportBuffer& b = c.out[u];
      s.dropped_candidates += b.dropped_candidates;
      s.unsearched += b.unsearched;
      s.positions += b.records.size();
      size_t next_detail = 0;
      for (size_t i = 0; i < b.records.size(); ++i) {
        const ImportedRecord& r = b.records[i];
        if (r.why == ImportRefusal::None) {
          // Positions come from Position::from_setup through shogi::pack.
          Status st = writer.write_packed_position(b.view(r));
          if (!st.ok()) return st;
          continue;
        }
        while (b.details[next_detail].first != i) ++next_detail;
        const std::string& detail = b.details[next_detail].second;
        std::string where;
        uint64_t offset = c.offset + c.units[u].first;
        if (o.from == SourceFormat::Hcpe3) {
          where = "game " + std::to_string(c.first_record + u) + " move " + std::to_string(r.source);
        } else {
          const uint64_t index = c.first_record + u * kRunRecords + r.source;
          where = "record " + std::to_string(index);
          offset += r.source * record_size;
        }
        MANAKA_RETURN_NOT_OK(count(r.why, c.file, std::move(where), offset, detail));
      }
    }
    if (o.from == SourceFormat::Hcpe3) s.games += c.units.size();
    if (c.truncated_size)
      MANAKA_RETURN_NOT_OK(count(ImportRefusal::Truncated, c.file, o.from == SourceFormat::Hcpe3 ? "last game" : "last record",
                                 c.truncated_at,
                                 "the file ends " + std::to_string(c.truncated_size) + " bytes into it"));
    progress.update(input.bytes_read(), s.positions);
    return Status();
  };

  // Three stages overlap, as in teacher conversion (core/three_stage.h):
  // chunk i + 1 is read while chunk i is converted (by every thread) and
  // chunk i - 1 written.
  Chunk chunks[3];
  std::vector<TaskThread> helpers(import_threads(o.threads) - 1);
  MANAKA_RETURN_NOT_OK(run_three_stages(
      chunks, [&input](Chunk& into) { return input.next(into); },
      [&](Chunk& c) { convert_chunk(o.from, c, scores, helpers); }, write_chunk));
  MANAKA_RETURN_NOT_OK(writer.close());
  s.bytes_read = input.bytes_read();
  s.records_written = writer.records_written();
  s.bytes_written = writer.bytes_written();
  // Every position refused means the files are not of this format (or not
  // of these conventions): fail, naming the first refusal, and write nothing.
  if (s.records_written == 0 && s.refused_total() > 0) {
    for (size_t k = 0; k < kImportRefusalCount; ++k) {
      if (!s.first_refusal[k]) continue;
      const ImportRefusalExample& ex = *s.first_refusal[k];
      return Status::invalid("stream import: every position was refused (" + std::to_string(s.refused_total()) +
                             "), so no stream was written; the first: " + ex.file + " " + ex.where + " at byte " +
                             std::to_string(ex.offset) + ": " + import_refusal_name(ImportRefusal(k)) + ", " +
                             ex.detail + " (is --from " + source_format_name(o.from) + " the files' format?)");
    }
  }
  MANAKA_RETURN_NOT_OK(out.commit());
  progress.finish();
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return s;
}

std::string format_import_summary(const ImportSummary& s) {
  const auto& h = s.header;
  std::string out;
  append_format(out,
      "import %s: %llu positions from %zu file%s (%s) -> %s: %llu records (%s) in %.2f s (%s positions/s)\n",
      source_format_name(s.from), ull(s.positions), s.files.size(), s.files.size() == 1 ? "" : "s",
      format_bytes(double(s.bytes_read)).c_str(), s.output.c_str(), ull(s.records_written),
      format_bytes(double(s.bytes_written)).c_str(), s.seconds,
      format_count(s.seconds > 0 ? double(s.positions) / s.seconds : 0.0).c_str());
  if (s.from == SourceFormat::Hcpe3)
    append_format(out, "  games: %llu; unsearched positions skipped: %llu; candidates without visits left out: %llu\n",
                         ull(s.games), ull(s.unsearched), ull(s.dropped_candidates));
  append_format(out, "  header: pov 0 (side to move), policy_source %d (%s), mate_scale %u, mate_slack %u, eval_coef %.9g\n",
                       int(h.policy_source), h.policy_source == PolicySource::Cp ? "cp" : "visits", h.mate_scale,
                       h.mate_slack, double(h.eval_coef));
  const uint64_t refused = s.refused_total();
  append_format(out, "  refused: %llu position%s\n", ull(refused), refused == 1 ? "" : "s");
  for (size_t k = 1; k < kImportRefusalCount; ++k) {
    if (s.refused[k] == 0) continue;
    auto r = static_cast<ImportRefusal>(k);
    append_format(out, "    %-19s %8llu  %s\n", import_refusal_name(r), ull(s.refused[k]), import_refusal_text(r));
    if (const auto& ex = s.first_refusal[k])
      out += "      first: " + ex->file + " " + ex->where + " at byte " + std::to_string(ex->offset) + ": " + ex->detail + "\n";
  }
  return out;
}

std::string import_summary_json(const ImportSummary& s) {
  nlohmann::ordered_json j;
  j["from"] = source_format_name(s.from);
  j["files"] = s.files;
  j["output"] = s.output;
  j["bytes_read"] = s.bytes_read;
  j["games"] = s.games;
  j["positions"] = s.positions;
  j["unsearched"] = s.unsearched;
  j["dropped_candidates"] = s.dropped_candidates;
  j["records_written"] = s.records_written;
  j["bytes_written"] = s.bytes_written;
  j["header"] = {{"pov", int(s.header.pov)},
                 {"policy_source", int(s.header.policy_source)},
                 {"mate_scale", s.header.mate_scale},
                 {"mate_slack", s.header.mate_slack},
                 {"eval_coef", s.header.eval_coef}};
  nlohmann::ordered_json refused = nlohmann::ordered_json::object();
  nlohmann::ordered_json first = nlohmann::ordered_json::object();
  for (size_t k = 1; k < kImportRefusalCount; ++k) {
    const char* name = import_refusal_name(static_cast<ImportRefusal>(k));
    refused[name] = s.refused[k];
    if (const auto& ex = s.first_refusal[k])
      first[name] = {{"file", ex->file}, {"where", ex->where}, {"offset", ex->offset}, {"detail", ex->detail}};
  }
  j["refused_total"] = s.refused_total();
  j["refused"] = refused;
  j["first_refusal"] = first;
  j["seconds"] = s.seconds;
  return json_text(j);
}

}  // namespace manaka::stream
