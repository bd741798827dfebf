#include "shard/shard_writer.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "core/temporary.h"

#include "parquet/writer.h"
#include "shard/row_group.h"
#include "shard/schema.h"
#include "shard/set_publish.h"
#include "shard/shard_set.h"

namespace manaka::shard {

namespace fs = std::filesystem;

std::string shard_path(const std::string& prefix, uint64_t index) {
  char digits[32];
  std::snprintf(digits, sizeof digits, "-%05llu.parquet", static_cast<unsigned long long>(index));
  return prefix + digits;
}

namespace {

constexpr int64_t kDataPageBytes = int64_t{8} << 20;
// Levels handed to a column encoder at once: more than a row group's leaf
// holds (8192 rows of up to a few hundred candidates), so each leaf is one
// batch and the encoder's buffers are sized once, not regrown by doubling
// through 40 batches. Pages are cut at kDataPageBytes either way: the bytes
// do not change.
constexpr int64_t kWriteBatchLevels = int64_t{1} << 22;

// Encoder settings, chosen for pack's speed (src/fold/README.md, "Writer
// settings"); readers see the same values whatever they are.
// Mostly distinct values: a dictionary costs time and saves nothing.
const std::vector<std::string> kNoDictionaryColumns = {"packed", "value_q"};
// mv (u16 in parquet's INT32) and prob: byte streams compress as well as
// mv's dictionary did at a tenth of the encoder's time, and prob smaller
// than plain.
const std::vector<std::string> kByteStreamSplitColumns = {"candidates.list.element.mv",
                                                          "candidates.list.element.prob"};
// Min/max only where a reader may filter row groups (ply, value_z, weight):
// a board's bytes, move codes and per-move figures have no useful range.
const std::vector<std::string> kNoStatisticsColumns = {"packed", "value_q", "candidates.list.element.mv",
                                                       "candidates.list.element.prob",
                                                       "candidates.list.element.cp"};

}  // namespace

uint64_t shard_count(uint64_t rows, uint64_t rows_per_shard) {
  return rows == 0 ? 1 : (rows - 1) / rows_per_shard + 1;
}

ShardWriter::ShardWriter(ShardWriterOptions options)
    : options_(std::move(options)),
      group_(std::make_unique<RowGroupBuffer>()),
      parquet_(std::make_unique<parquet::WriteOptions>()) {
  parquet_->zstd_level = kZstdLevel;
  parquet_->row_group_rows = options_.row_group_rows;
  parquet_->footer = options_.footer;
  parquet_->no_dictionary = kNoDictionaryColumns;
  parquet_->byte_stream_split = kByteStreamSplitColumns;
  parquet_->no_statistics = kNoStatisticsColumns;
  // Rows are shuffled, so every page spans every value range: no reader
  // skips a page by its index, and the level histograms serve no one.
  parquet_->page_index = false;
  parquet_->size_statistics = false;
  parquet_->write_batch_rows = kWriteBatchLevels;
  // V2 pages keep the candidates' repetition and definition levels (already
  // RLE) out of zstd's input, and 8 MiB pages hold a row group's column chunk
  // in one page (mv's is 1.3 MB at 8192 rows of 40 candidates).
  parquet_->data_page_v2 = true;
  parquet_->data_page_bytes = kDataPageBytes;
  parquet_->memory = parquet::EncoderMemory::Jemalloc;  // see the header
  thread_ = std::thread([this] { run(); });
}

ShardWriter::~ShardWriter() {
  {
    std::lock_guard lock(mu_);
    queue_.clear();  // unfinished: queued work is dropped, not written
  }
  stop_thread();
  file_.reset();  // an uncommitted shard's temporary is removed
  closed_.clear();  // and so are the closed ones of an unfinished set
}

Result<std::unique_ptr<ShardWriter>> ShardWriter::create(ShardWriterOptions options) {
  if (options.prefix.empty()) return Status::usage("the output prefix is empty");
  if (options.rows_per_shard == 0) return Status::usage("rows per shard must be at least 1");
  if (options.row_group_rows <= 0) return Status::usage("row group size must be >= 1");
  fs::path dir = fs::path(options.prefix).parent_path();
  if (!dir.empty()) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) return Status::io("cannot create directory " + dir.string() + ": " + ec.message());
  }
  return std::unique_ptr<ShardWriter>(new ShardWriter(std::move(options)));
}

// --- the caller's side --------------------------------------------------------

Status ShardWriter::append(const Row& row) {
  if (rows_ >= options_.set_rows)
    return Status::invalid(options_.prefix + ": more rows than the " + std::to_string(options_.set_rows) +
                           " the set was opened for");
  group_->append(row);
  ++rows_;
  ++rows_in_shard_;
  if (group_->rows() >= options_.row_group_rows) MANAKA_RETURN_NOT_OK(flush_group());
  if (rows_in_shard_ >= options_.rows_per_shard) MANAKA_RETURN_NOT_OK(close_shard());
  return Status();
}

Status ShardWriter::flush_group() {
  if (group_->rows() == 0) return first_error();
  MANAKA_ASSIGN_OR_RETURN(auto group, group_->take_columns());
  shard_has_rows_ = true;
  return push(Task{std::move(group), shard_index_});
}

Status ShardWriter::close_shard() {
  MANAKA_RETURN_NOT_OK(flush_group());
  if (!shard_has_rows_) return Status();
  MANAKA_RETURN_NOT_OK(push(Task{nullptr, shard_index_}));
  ++shard_index_;
  shard_has_rows_ = false;
  rows_in_shard_ = 0;
  return Status();
}

Status ShardWriter::push(Task task) {
  std::unique_lock lock(mu_);
  cv_.wait(lock, [&] { return queue_.size() < kQueuedBatches || !error_.ok(); });
  if (!error_.ok()) return error_;
  queue_.push_back(std::move(task));
  cv_.notify_all();
  return Status();
}

Status ShardWriter::first_error() {
  std::lock_guard lock(mu_);
  return error_;
}

void ShardWriter::stop_thread() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

Status ShardWriter::finish() {
  if (written_) {
    MANAKA_RETURN_NOT_OK(publish());
    return remove_stale();
  }
  MANAKA_RETURN_NOT_OK(close_shard());
  if (shard_index_ == 0) {
    // No rows at all: one empty shard, so the schema and footer still exist.
    MANAKA_ASSIGN_OR_RETURN(auto empty, RowGroupBuffer().take_columns());
    MANAKA_RETURN_NOT_OK(push(Task{std::move(empty), 0}));
    MANAKA_RETURN_NOT_OK(push(Task{nullptr, 0}));
    shard_index_ = 1;
  }
  stop_thread();  // runs the queue dry first
  MANAKA_RETURN_NOT_OK(error_);
  if (rows_ != options_.set_rows)
    return Status::invalid(options_.prefix + ": " + std::to_string(rows_) + " rows written to a set opened for " +
                           std::to_string(options_.set_rows));
  MANAKA_RETURN_NOT_OK(publish());
  return remove_stale();
}

// Every shard is complete under its temporary name: the set replaces the
// earlier one through a journal (shard/set_publish.h), so a kill while the
// files are renamed is finished by the next run, never left half done.
Status ShardWriter::publish() {
  const uint64_t count = written_ ? shard_count(options_.set_rows, options_.rows_per_shard) : closed_.size();
  const uint64_t first = written_ ? options_.first_shard : 0;
  MANAKA_ASSIGN_OR_RETURN(Published done, publish_shard_set(options_.prefix, first, count, closed_));
  shards_ = std::move(done.shards);
  removed_ = std::move(done.removed);
  return Status();
}

// --- the writer thread ----------------------------------------------------------

void ShardWriter::run() {
  while (true) {
    Task task;
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [&] { return !queue_.empty() || stopping_; });
      if (queue_.empty()) return;  // stopping, and nothing left to do
      task = std::move(queue_.front());
      queue_.pop_front();
      cv_.notify_all();
      if (!error_.ok()) continue;  // drain without working after a failure
    }
    Status st = execute(task);
    if (!st.ok()) {
      std::lock_guard lock(mu_);
      error_ = std::move(st);
      queue_.clear();
      cv_.notify_all();
    }
  }
}

Status ShardWriter::execute(Task& task) {
  if (!task.group) {  // commit
    if (!file_) return Status();
    MANAKA_ASSIGN_OR_RETURN(std::unique_ptr<PendingFile> done, file_->close());
    std::error_code ec;
    auto size = fs::file_size(done->path(), ec);
    if (!ec) closed_bytes_ += static_cast<int64_t>(size);
    bytes_.store(closed_bytes_, std::memory_order_relaxed);
    closed_.push_back(std::move(done));
    file_.reset();
    return Status();
  }
  if (!file_) {
    MANAKA_ASSIGN_OR_RETURN(file_, open_file(task.shard));
  }
  MANAKA_RETURN_NOT_OK(file_->write(task.group->rows, task.group->columns()));
  bytes_.store(closed_bytes_ + file_->bytes_written(), std::memory_order_relaxed);
  return Status();
}

Result<std::unique_ptr<parquet::ParquetFileWriter>> ShardWriter::open_file(uint64_t shard, int leaf_threads) const {
  parquet::WriteOptions opts = *parquet_;
  opts.leaf_threads = leaf_threads;
  for (auto& kv : set_footer(options_.set_id, shard, shard_count(options_.set_rows, options_.rows_per_shard),
                             options_.set_rows))
    opts.footer.push_back(std::move(kv));
  return parquet::ParquetFileWriter::open(shard_path(options_.prefix, shard), shard_fields(), opts);
}

// --- write_shards ---------------------------------------------------------------

ShardSink::ShardSink(ShardWriter& writer, uint64_t shard, uint64_t first_row, uint64_t rows, bool background)
    : writer_(writer), shard_(shard), first_row_(first_row), rows_(rows),
      group_(std::make_unique<RowGroupBuffer>()),
      encoder_(background ? std::make_unique<TaskThread>() : nullptr) {}

ShardSink::~ShardSink() {
  (void)wait_encoding();  // an unclosed file's temporary is removed once the group in flight is done
}

Status ShardSink::append(const Row& row) {
  MANAKA_RETURN_NOT_OK(check_room());
  group_->append(row);
  return close_row();
}

Result<CandidateSlots> ShardSink::open_row(const Row& head, size_t n) {
  MANAKA_RETURN_NOT_OK(check_room());
  return group_->open_row(head, n);
}

Status ShardSink::check_room() const {
  if (appended_ < rows_) return Status();
  return Status::invalid(shard_path(writer_.options_.prefix, shard_) + ": more than the shard's " +
                         std::to_string(rows_) + " rows");
}

Status ShardSink::close_row() {
  ++appended_;
  if (group_->rows() >= writer_.options_.row_group_rows) return flush_group();
  return Status();
}

// Row groups are cut as append() cuts them: every row_group_rows rows from
// the shard's first, the last one shorter, so both ways write the same bytes.
Status ShardSink::flush_group() {
  MANAKA_ASSIGN_OR_RETURN(std::shared_ptr<RowGroupColumns> group, group_->take_columns());
  return submit(std::move(group));
}

Status ShardSink::append_group(std::shared_ptr<const RowGroupColumns> group) {
  const int64_t full = writer_.options_.row_group_rows;
  const uint64_t left = rows_ - appended_;
  const auto n = static_cast<uint64_t>(group->rows);
  if (group_->rows() != 0 || n == 0 || n > left || (group->rows != full && n != left))
    return Status::invalid(shard_path(writer_.options_.prefix, shard_) + ": a row group of " + std::to_string(n) +
                           " rows at row " + std::to_string(appended_) + " of " + std::to_string(rows_) +
                           " is not one the shard's rows cut into groups of " + std::to_string(full) + " would make");
  appended_ += n;
  return submit(std::move(group));
}

Status ShardSink::submit(std::shared_ptr<const RowGroupColumns> group) {
  if (!file_) {
    MANAKA_ASSIGN_OR_RETURN(file_, writer_.open_file(shard_, encoder_ ? 2 : 1));
  }
  if (!encoder_) return write_group(*group);
  MANAKA_RETURN_NOT_OK(wait_encoding());
  encoding_ = encoder_->submit([this, group = std::move(group)] { return write_group(*group); });
  return Status();
}

Status ShardSink::write_group(const RowGroupColumns& group) {
  // Leaves on two threads only while a core would otherwise wait: with as
  // many shards as threads the encoders keep every core busy, and the
  // spread costs a copy of each column chunk (src/fold/README.md).
  file_->set_leaf_spread(writer_.spread_leaves());
  MANAKA_RETURN_NOT_OK(file_->write(group.rows, group.columns()));
  const int64_t now = file_->bytes_written();
  writer_.bytes_.fetch_add(now - counted_bytes_, std::memory_order_relaxed);
  writer_.rows_encoded_.fetch_add(group.rows, std::memory_order_relaxed);
  counted_bytes_ = now;
  return Status();
}

Status ShardSink::wait_encoding() {
  if (!encoding_.valid()) return Status();
  return encoding_.get();
}

Result<std::unique_ptr<PendingFile>> ShardSink::close() {
  if (appended_ != rows_)
    return Status::invalid(shard_path(writer_.options_.prefix, shard_) + ": " + std::to_string(appended_) +
                           " rows written to a shard of " + std::to_string(rows_));
  if (group_->rows() > 0 || !file_) MANAKA_RETURN_NOT_OK(flush_group());  // no rows: one empty group
  MANAKA_RETURN_NOT_OK(wait_encoding());
  MANAKA_ASSIGN_OR_RETURN(std::unique_ptr<PendingFile> done, file_->close());
  std::error_code ec;
  const auto size = fs::file_size(done->path(), ec);
  if (!ec) writer_.bytes_.fetch_add(static_cast<int64_t>(size) - counted_bytes_, std::memory_order_relaxed);
  file_.reset();
  return done;
}

Status ShardWriter::write_shards(unsigned threads, const ShardFill& fill) {
  if (rows_ != 0 || written_) return Status::invalid(options_.prefix + ": write_shards after rows were written");
  stop_thread();  // append()'s thread has nothing to do
  written_ = true;
  const uint64_t count = shard_count(options_.set_rows, options_.rows_per_shard);
  std::vector<std::unique_ptr<PendingFile>> done(count);
  std::vector<Status> errors(count);
  std::atomic<uint64_t> next{std::min(options_.first_shard, count)};
  const uint64_t end = std::min(options_.end_shard, count);
  std::atomic<bool> failed{false};
  write_threads_ = std::max(threads, 1u);
  auto work = [&] {
    while (!failed.load(std::memory_order_relaxed)) {
      const uint64_t k = next.fetch_add(1);
      if (k >= end) return;
      const uint64_t first = k * options_.rows_per_shard;
      writing_.fetch_add(1);
      ShardSink sink(*this, k, first, std::min(options_.rows_per_shard, options_.set_rows - first), threads > 1);
      Status st = fill(sink);
      Result<std::unique_ptr<PendingFile>> closed = st.ok() ? sink.close() : Result<std::unique_ptr<PendingFile>>(st);
      writing_.fetch_sub(1);
      if (closed.ok()) {
        done[k] = std::move(*closed);
        continue;
      }
      errors[k] = closed.status();
      failed.store(true);
    }
  };
  const unsigned n = static_cast<unsigned>(std::min<uint64_t>(std::max(threads, 1u), end - std::min(next.load(), end)));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < n; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  for (auto& st : errors) MANAKA_RETURN_NOT_OK(st);  // the lowest shard's failure
  for (auto& file : done)
    if (file) closed_.push_back(std::move(file));
  rows_ = options_.set_rows;
  shard_index_ = count;
  return Status();
}

// --- after the thread -------------------------------------------------------------

Status ShardWriter::remove_stale() {
  // The temporaries of killed runs: <prefix>-NNNNN.parquet.tmp-<pid>, pid
  // gone (a run killed after its journal was written was finished before
  // this one started: recover_shard_set).
  const fs::path prefix(options_.prefix);
  const std::string base = prefix.filename().string();
  std::vector<std::string> stale = stale_temporaries(prefix.parent_path().string(), [&](std::string_view name) {
    return shard_file_index(name, base) >= 0;
  });
  std::sort(stale.begin(), stale.end());
  std::error_code ec;
  for (const auto& path : stale) {
    fs::remove_all(path, ec);
    if (ec) return Status::io("cannot remove stale shard " + path + ": " + ec.message());
    removed_.push_back(path);
  }
  return Status();
}

}  // namespace manaka::shard
