#include "teacher/convert.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <span>
#include <string>
#include <thread>

#include "core/file.h"
#include "core/output.h"
#include "core/progress.h"
#include "core/task_thread.h"
#include "core/three_stage.h"
#include "stream/writer.h"
#include "teacher/corpus_input.h"

namespace manaka::teacher {

namespace {

RowView row_at(const CorpusBatch& b, size_t r) {
  RowView v;
  v.sfen = b.sfen[r];
  v.move = b.move[r];
  v.ply = b.ply[r];
  v.side = b.side[r];
  v.cp = b.cp[r];
  v.result = b.result[r];
  v.missing = b.missing[r];
  v.cand_moves = std::span<const std::string_view>(b.cand_moves).subspan(
      b.moves_at[r], b.moves_at[r + 1] - b.moves_at[r]);
  v.cand_cp = std::span<const int64_t>(b.cand_cp).subspan(b.cps_at[r], b.cps_at[r + 1] - b.cps_at[r]);
  return v;
}


// A batch and what its rows became.
struct Slot {
  CorpusBatch batch;
  std::string file;        // the file the batch came from
  uint64_t first_row = 0;  // its first row's index in that file
  std::vector<ConvertedRow> rows;
  std::vector<Refusal> why;
  std::vector<std::string> detail;  // set where why is not None
};

// The corpus files one after another, a batch at a time.
class BatchStream {
 public:
  BatchStream(const std::vector<std::string>& files, const CorpusColumns& columns)
      : files_(files), columns_(columns) {}

  Result<bool> next(Slot& slot) {
    for (;;) {
      if (!source_) {
        if (index_ == files_.size()) return false;
        MANAKA_ASSIGN_OR_RETURN(source_, open_corpus_file(files_[index_], columns_));
        row_ = 0;
      }
      MANAKA_ASSIGN_OR_RETURN(bool more, source_->next(slot.batch));
      if (more) {
        slot.file = files_[index_];
        slot.first_row = row_;
        row_ += slot.batch.rows;
        return true;
      }
      source_.reset();
      ++index_;
    }
  }

 private:
  const std::vector<std::string>& files_;
  const CorpusColumns& columns_;
  size_t index_ = 0;
  uint64_t row_ = 0;
  std::unique_ptr<CorpusSource> source_;
};

unsigned conversion_threads(int requested) {
  constexpr unsigned kMaxThreads = 16;
  if (requested > 0) return std::min(unsigned(requested), kMaxThreads);
  return std::clamp(std::thread::hardware_concurrency(), 1u, kMaxThreads);
}

// Converts every row of slot.batch: this thread and the helpers take runs of
// rows from a shared counter until none is left, so a helper the scheduler
// holds back (the reader and writer share the cores) delays nothing. A chain
// of positions (RowChain) never crosses a run.
void convert_batch(Slot& slot, const Conventions& conv, std::span<TaskThread> helpers) {
  constexpr size_t kRun = 256;
  const size_t n = slot.batch.rows;
  slot.rows.resize(std::max(slot.rows.size(), n));
  slot.why.resize(n);
  slot.detail.resize(std::max(slot.detail.size(), n));
  std::atomic<size_t> next_run{0};
  auto work = [&slot, &conv, &next_run, n] {
    RowChain chain;
    for (size_t begin; (begin = next_run.fetch_add(kRun)) < n;) {
      chain.pos.reset();
      for (size_t r = begin, end = std::min(n, begin + kRun); r < end; ++r)
        slot.why[r] = convert_row(row_at(slot.batch, r), conv, &slot.rows[r], &slot.detail[r], &chain);
    }
  };
  run_shared(helpers, (n + kRun - 1) / kRun, work);
}

}  // namespace

uint64_t ConvertSummary::refused_total() const {
  uint64_t n = 0;
  for (uint64_t c : refused) n += c;
  return n;
}

Result<ConvertSummary> convert(const ConvertOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  if (o.inputs.empty()) return Status::usage("teacher convert: no input corpus given");
  if (o.output.empty()) return Status::usage("teacher convert: no output path given");
  auto conv = Conventions::make(o.eval_coef, o.mate_scale, o.mate_slack);
  if (!conv.ok()) return std::move(conv).take_status().with_context("teacher convert: ");
  if (o.fv_scale < 0 || o.fv_scale > 65535)
    return Status::usage("teacher convert: fv_scale " + std::to_string(o.fv_scale) + ": must be 0..65535");
  std::vector<std::string> left_out;
  MANAKA_ASSIGN_OR_RETURN(std::vector<std::string> files, parquet::expand_parquet_paths(o.inputs, &left_out));
  MANAKA_RETURN_NOT_OK(check_distinct_inputs(files).with_context("teacher convert: "));
  MANAKA_RETURN_NOT_OK(check_output(o.output, files, o.overwrite).with_context("teacher convert: "));

  ConvertSummary s;
  s.files = files;
  s.left_out = std::move(left_out);
  s.output = o.output;
  s.header.pov = stream::Pov::SideToMove;
  s.header.policy_source = stream::PolicySource::Cp;
  s.header.mate_scale = static_cast<uint16_t>(o.mate_scale);
  s.header.mate_slack = static_cast<uint16_t>(o.mate_slack);
  s.header.fv_scale = static_cast<uint16_t>(o.fv_scale);
  s.header.eval_coef = static_cast<float>(o.eval_coef);
  s.effective_slack = effective_slack(o.mate_slack);
  s.mate_threshold = conv->threshold;

  PendingFile out(o.output);
  MANAKA_ASSIGN_OR_RETURN(stream::Writer writer, stream::Writer::create(out.path(), s.header));
  Progress progress(o.output, 0);
  progress.set_enabled(o.progress);

  // Three stages overlap: batch i + 1 is read while batch i is converted (by
  // every thread) and batch i - 1 is written, in row order, by one task at a
  // time.
  BatchStream input(files, o.columns);
  Slot slots[3];
  auto write_slot = [&](Slot& slot) -> Status {
    for (size_t r = 0; r < slot.batch.rows; ++r) {
      const uint64_t row_in_file = slot.first_row + r;
      const uint64_t line = slot.batch.line.empty() ? 0 : slot.batch.line[r];
      // A JSON line is named by its line (as the file's own errors are), a parquet row by its index.
      const std::string where = slot.file + (line ? ": line " + std::to_string(line) : ": row " + std::to_string(row_in_file));
      const Refusal why = slot.why[r];
      if (why == Refusal::None) {
        Status st = writer.write(slot.rows[r].view());
        if (!st.ok()) return std::move(st).with_context(where + ": ");
        continue;
      }
      if (o.strict)
        return Status::invalid(where + ": refused (" + refusal_name(why) + ", " + refusal_text(why) + "): " +
                               slot.detail[r]);
      auto k = static_cast<size_t>(why);
      if (s.refused[k]++ == 0) s.first_refusal[k] = RefusalExample{slot.file, row_in_file, line, slot.detail[r]};
    }
    s.rows_read += slot.batch.rows;
    progress.update(writer.bytes_written(), s.rows_read);
    return {};
  };
  std::vector<TaskThread> helpers(conversion_threads(o.threads) - 1);
  MANAKA_RETURN_NOT_OK(run_three_stages(
      slots, [&input](Slot& into) { return input.next(into); },
      [&](Slot& slot) { convert_batch(slot, *conv, helpers); }, write_slot));
  MANAKA_RETURN_NOT_OK(writer.close());
  s.records_written = writer.records_written();
  s.bytes_written = writer.bytes_written();
  // Every row refused is a corpus this conversion cannot read (the wrong
  // columns, another mate scale), not an empty result: fail, name the first.
  if (s.records_written == 0 && s.refused_total() > 0) {
    for (size_t k = 0; k < kRefusalCount; ++k) {
      if (!s.first_refusal[k]) continue;
      const RefusalExample& ex = *s.first_refusal[k];
      return Status::invalid("teacher convert: every row was refused (" + std::to_string(s.refused_total()) +
                             "), so no stream was written; the first: " + ex.file + " row " +
                             std::to_string(ex.row) + (ex.line ? " (line " + std::to_string(ex.line) + ")" : "") +
                             ": " + refusal_name(Refusal(k)) + ", " + ex.detail);
    }
  }
  MANAKA_RETURN_NOT_OK(out.commit());
  progress.finish();
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return s;
}

}  // namespace manaka::teacher
