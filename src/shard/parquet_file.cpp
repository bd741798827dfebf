#include "shard/parquet_file.h"

#include <arrow/io/file.h>
#include <arrow/util/io_util.h>
#include <parquet/arrow/reader.h>
#include <parquet/arrow/writer.h>
#include <parquet/file_reader.h>
#include <parquet/properties.h>

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

namespace manaka::shard {

Status from_arrow(const arrow::Status& st, const std::string& context) {
  if (st.ok()) return Status();
  std::string message = context + ": " + st.message();
  const int err = arrow::internal::ErrnoFromStatus(st);
  if (err > 0) {
    const char* reason = std::strerror(err);
    if (message.find(reason) == std::string::npos) message += std::string(": ") + reason;
    return Status::io(message);
  }
  if (st.IsIOError()) return Status::io(message);
  return Status::invalid(message);
}

Result<std::shared_ptr<arrow::io::ReadableFile>> open_readable(const std::string& path) {
  auto input = arrow::io::ReadableFile::Open(path);
  if (input.ok()) return std::move(*input);
  const int err = arrow::internal::ErrnoFromStatus(input.status());
  if (err > 0) return io_error(path, "cannot open for reading", err);
  // Arrow refuses a directory itself, without an errno.
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return io_error(path, "cannot open for reading", EISDIR);
  return from_arrow(input.status(), "cannot open " + path);
}

Status write_parquet(const arrow::Table& table, const std::string& path,
                     const ParquetOptions& options) {
  MANAKA_ASSIGN_OR_RETURN(auto writer, ParquetFileWriter::open(path, table.schema(), options));
  MANAKA_RETURN_NOT_OK(writer->write(table));
  return writer->commit();
}

Result<std::unique_ptr<ParquetFileWriter>> ParquetFileWriter::open(
    const std::string& path, std::shared_ptr<arrow::Schema> schema, const ParquetOptions& options) {
  std::unique_ptr<ParquetFileWriter> w(new ParquetFileWriter());
  w->file_ = std::make_unique<PendingFile>(path);
  w->final_path_ = path;
  w->row_group_rows_ = options.row_group_rows;
  auto kv = std::make_shared<arrow::KeyValueMetadata>();
  for (const auto& [k, v] : options.footer) kv->Append(k, v);
  w->schema_ = schema->WithMetadata(kv);
  parquet::WriterProperties::Builder builder;
  builder.compression(parquet::Compression::ZSTD)
      ->compression_level(options.zstd_level)
      ->max_row_group_length(options.row_group_rows);
  for (const auto& column : options.no_dictionary) builder.disable_dictionary(column);
  arrow::MemoryPool* pool = options.pool ? options.pool : arrow::default_memory_pool();
  builder.memory_pool(pool);
  auto props = builder.build();
  auto arrow_props = parquet::ArrowWriterProperties::Builder().store_schema()->build();
  const std::string& temp = w->file_->path();
  auto sink = arrow::io::FileOutputStream::Open(temp);
  if (!sink.ok()) {
    const int err = arrow::internal::ErrnoFromStatus(sink.status());
    if (err > 0) return io_error(temp, "cannot create", err);
    return from_arrow(sink.status(), "cannot create " + temp);
  }
  w->sink_ = *sink;
  auto writer = parquet::arrow::FileWriter::Open(*w->schema_, pool, w->sink_, props, arrow_props);
  if (!writer.ok()) {
    Status st = from_arrow(writer.status(), temp);
    w->abort();
    return st;
  }
  w->writer_ = std::move(*writer);
  return w;
}

ParquetFileWriter::~ParquetFileWriter() { abort(); }

Status ParquetFileWriter::write(const std::shared_ptr<arrow::RecordBatch>& batch) {
  if (!writer_) return Status::invalid(path() + ": write after commit or abort");
  auto table = arrow::Table::FromRecordBatches(schema_, {batch});
  if (!table.ok()) return from_arrow(table.status(), file_->path());
  return write(**table);
}

Status ParquetFileWriter::write(const arrow::Table& table) {
  if (!writer_) return Status::invalid(path() + ": write after commit or abort");
  return from_arrow(writer_->WriteTable(table, row_group_rows_), file_->path());
}

int64_t ParquetFileWriter::bytes_written() const {
  if (!sink_) return 0;
  auto pos = sink_->Tell();
  return pos.ok() ? *pos : 0;
}

Result<std::unique_ptr<PendingFile>> ParquetFileWriter::close() {
  if (!writer_) return Status::invalid(path() + ": close after commit or abort");
  Status st = from_arrow(writer_->Close(), file_->path());
  if (st.ok()) st = from_arrow(sink_->Close(), file_->path());
  writer_.reset();
  sink_.reset();
  if (!st.ok()) {
    file_->discard();
    return st;
  }
  return std::move(file_);
}

Status ParquetFileWriter::commit() {
  MANAKA_ASSIGN_OR_RETURN(std::unique_ptr<PendingFile> done, close());
  return done->commit();
}

void ParquetFileWriter::abort() {
  if (!file_ || (!writer_ && !sink_)) return;
  writer_.reset();  // an unclosed writer leaves no footer; the file is removed below
  if (sink_) (void)sink_->Close();
  sink_.reset();
  file_->discard();
}

namespace {

Result<std::unique_ptr<parquet::arrow::FileReader>> open_reader(const std::string& path) {
  MANAKA_ASSIGN_OR_RETURN(auto input, open_readable(path));
  auto reader = parquet::arrow::OpenFile(input, arrow::default_memory_pool());
  if (!reader.ok()) return from_arrow(reader.status(), path);
  return std::move(*reader);
}

}  // namespace

Result<std::shared_ptr<arrow::Table>> read_parquet(const std::string& path) {
  MANAKA_ASSIGN_OR_RETURN(auto reader, open_reader(path));
  auto table = reader->ReadTable();
  if (!table.ok()) return from_arrow(table.status(), path);
  return std::move(*table);
}

Result<std::vector<std::pair<std::string, std::string>>> read_parquet_footer(
    const std::string& path) {
  MANAKA_ASSIGN_OR_RETURN(auto reader, open_reader(path));
  std::vector<std::pair<std::string, std::string>> out;
  auto kv = reader->parquet_reader()->metadata()->key_value_metadata();
  if (kv) {
    for (int64_t i = 0; i < kv->size(); ++i) out.emplace_back(kv->key(i), kv->value(i));
  }
  return out;
}

}  // namespace manaka::shard
