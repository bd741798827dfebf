#include "parquet/writer.h"

#include <arrow/api.h>
#include <arrow/io/file.h>
#include <arrow/util/io_util.h>
#include <arrow/io/memory.h>
#include <parquet/arrow/writer.h>
#include <parquet/column_writer.h>
#include <parquet/exception.h>
#include <parquet/file_writer.h>
#include <parquet/metadata.h>
#include <parquet/properties.h>
#include <parquet/schema.h>

#include <atomic>
#include <mutex>

#include "core/task_thread.h"
#include "parquet/leaf_writer.h"
#include "parquet/library_error.h"
#include "parquet/ordered_sink.h"

namespace manaka::parquet {

namespace {

Status from_arrow(const arrow::Status& st, const std::string& context) {
  if (st.ok()) return Status();
  return library_error(context, st.message(), arrow::internal::ErrnoFromStatus(st), st.IsIOError());
}

std::shared_ptr<arrow::DataType> arrow_type(const Field& f);

std::shared_ptr<arrow::Field> arrow_field(const Field& f) {
  return arrow::field(f.name, arrow_type(f), f.nullable);
}

std::shared_ptr<arrow::DataType> arrow_type(const Field& f) {
  switch (f.type) {
    case Type::Bool: return arrow::boolean();
    case Type::Int8: return arrow::int8();
    case Type::Int16: return arrow::int16();
    case Type::Int32: return arrow::int32();
    case Type::Int64: return arrow::int64();
    case Type::UInt8: return arrow::uint8();
    case Type::UInt16: return arrow::uint16();
    case Type::UInt32: return arrow::uint32();
    case Type::UInt64: return arrow::uint64();
    case Type::Float: return arrow::float32();
    case Type::Double: return arrow::float64();
    case Type::Utf8: return arrow::utf8();
    case Type::LargeUtf8: return arrow::large_utf8();
    case Type::Utf8View: return arrow::utf8_view();
    case Type::Binary: return arrow::binary();
    case Type::LargeBinary: return arrow::large_binary();
    case Type::BinaryView: return arrow::binary_view();
    case Type::FixedSizeBinary: return arrow::fixed_size_binary(f.byte_width);
    case Type::List: return arrow::list(arrow_field(f.children.at(0)));
    case Type::LargeList: return arrow::large_list(arrow_field(f.children.at(0)));
    case Type::Struct: {
      arrow::FieldVector fields;
      for (const Field& c : f.children) fields.push_back(arrow_field(c));
      return arrow::struct_(std::move(fields));
    }
    case Type::Dictionary:
      return arrow::dictionary(arrow_type(f.children.at(0)), arrow_type(f.children.at(1)));
    case Type::Other: break;
  }
  return arrow::null();
}

// A buffer over memory the caller owns: writing reads it, never copies it.
std::shared_ptr<arrow::Buffer> borrow(const void* data, int64_t size) {
  static const uint8_t kEmpty = 0;
  const auto* bytes = data ? static_cast<const uint8_t*>(data) : &kEmpty;
  return std::make_shared<arrow::Buffer>(bytes, data ? size : 0);
}

int64_t bitmap_bytes(int64_t bits) { return (bits + 7) / 8; }

Result<std::shared_ptr<arrow::ArrayData>> array_data(const Column& c,
                                                     const std::shared_ptr<arrow::DataType>& type,
                                                     const std::string& name) {
  const int64_t end = c.offset + c.length;
  std::shared_ptr<arrow::Buffer> validity =
      c.validity && c.null_count > 0 ? borrow(c.validity, bitmap_bytes(end)) : nullptr;
  const int64_t nulls = validity ? c.null_count : 0;
  auto make = [&](std::vector<std::shared_ptr<arrow::Buffer>> rest) {
    rest.insert(rest.begin(), validity);
    return arrow::ArrayData::Make(type, c.length, std::move(rest), nulls, c.offset);
  };
  auto text_or_list = [&](int width) -> std::shared_ptr<arrow::Buffer> {
    return borrow(c.offsets, (end + 1) * width);
  };
  switch (c.type) {
    case Type::Bool: return make({borrow(c.values, bitmap_bytes(end))});
    case Type::Int8: case Type::Int16: case Type::Int32: case Type::Int64:
    case Type::UInt8: case Type::UInt16: case Type::UInt32: case Type::UInt64:
    case Type::Float: case Type::Double: {
      const int width = type->byte_width();
      return make({borrow(c.values, end * width)});
    }
    case Type::FixedSizeBinary: return make({borrow(c.values, end * c.byte_width)});
    case Type::Utf8: case Type::Binary: {
      const auto* at = static_cast<const int32_t*>(c.offsets);
      return make({text_or_list(4), borrow(c.data, at ? at[end] : 0)});
    }
    case Type::LargeUtf8: case Type::LargeBinary: {
      const auto* at = static_cast<const int64_t*>(c.offsets);
      return make({text_or_list(8), borrow(c.data, at ? at[end] : 0)});
    }
    case Type::List: case Type::LargeList: {
      auto data = make({text_or_list(c.type == Type::List ? 4 : 8)});
      MANAKA_ASSIGN_OR_RETURN(auto element, array_data(c.children.at(0), type->field(0)->type(), name));
      data->child_data.push_back(std::move(element));
      return data;
    }
    case Type::Struct: {
      if (c.offset != 0) return Status::invalid(name + ": a struct column to write must start at offset 0");
      auto data = make({});
      for (size_t k = 0; k < c.children.size(); ++k) {
        MANAKA_ASSIGN_OR_RETURN(auto child, array_data(c.children[k], type->field(int(k))->type(), name));
        data->child_data.push_back(std::move(child));
      }
      return data;
    }
    default: break;
  }
  return Status::invalid(name + ": the parquet writer takes no " + type->ToString() + " column");
}

}  // namespace

std::string type_name(const Field& field) { return arrow_type(field)->ToString(); }

struct ParquetFileWriter::Impl {
  std::unique_ptr<PendingFile> file;
  std::string final_path;
  int64_t row_group_rows = 0;
  std::shared_ptr<arrow::Schema> schema;
  std::shared_ptr<arrow::io::FileOutputStream> sink;
  std::unique_ptr<::parquet::arrow::FileWriter> writer;
  // Or the leaf writer's way (leaf_writer.h): parquet's file writer itself.
  std::vector<Field> fields;
  std::unique_ptr<::parquet::ParquetFileWriter> leaves;
  LeafScratch scratch;
  // leaf_threads > 1: the row groups are buffered and their leaves encoded
  // by this thread and the helpers, placed in the file in order by `ordered`
  // (over `sink`).
  std::shared_ptr<OrderedSink> ordered;
  bool spread = false;  // set_leaf_spread
  std::vector<std::unique_ptr<TaskThread>> helpers;
  std::vector<LeafScratch> helper_scratch;

  Status write_group(std::span<const Column> columns, int64_t first, int64_t rows);
  Status write_group_on_threads(std::span<const Column> columns, int64_t first, int64_t rows);
};

namespace {

// A parquet exception of the leaf writer's calls, as from_arrow words the
// same failure met by Arrow's writer (an I/O error keeps its errno).
Status from_exception(const std::exception& e, const std::string& path) {
  if (const auto* st = dynamic_cast<const ::parquet::ParquetStatusException*>(&e)) return from_arrow(st->status(), path);
  return library_error(path, e.what(), 0, false);
}

// The parquet schema and footer Arrow's writer would give a file, taken
// from an empty file it writes in memory: a file written leaf by leaf then
// carries the same schema, ARROW:schema and key-value pairs.
Result<std::shared_ptr<::parquet::FileMetaData>> arrow_layout(
    const arrow::Schema& schema, arrow::MemoryPool* pool, const std::shared_ptr<::parquet::WriterProperties>& props,
    const std::shared_ptr<::parquet::ArrowWriterProperties>& arrow_props, const std::string& path) {
  auto sink = arrow::io::BufferOutputStream::Create(1024, pool);
  if (!sink.ok()) return from_arrow(sink.status(), path);
  auto writer = ::parquet::arrow::FileWriter::Open(schema, pool, *sink, props, arrow_props);
  if (!writer.ok()) return from_arrow(writer.status(), path);
  MANAKA_RETURN_NOT_OK(from_arrow((*writer)->Close(), path));
  return (*writer)->metadata();
}

}  // namespace

Status ParquetFileWriter::Impl::write_group(std::span<const Column> columns, int64_t first, int64_t rows) {
  try {
    ::parquet::RowGroupWriter* group = leaves->AppendRowGroup();
    Status st = write_leaves(*group, fields, columns, first, rows, scratch);
    if (!st.ok()) return std::move(st).with_context(final_path);
    group->Close();
  } catch (const std::exception& e) {
    return from_exception(e, file->path());
  }
  return Status();
}

// Each thread takes the next leaf not yet taken, writes it and closes it
// (its pages built at once; placed in the file in its turn, OrderedSink).
// Leaves are taken in order, so a leaf waits only for the one before it.
Status ParquetFileWriter::Impl::write_group_on_threads(std::span<const Column> columns, int64_t first,
                                                       int64_t rows) {
  ::parquet::RowGroupWriter* group = nullptr;
  try {
    group = leaves->AppendBufferedRowGroup();
  } catch (const std::exception& e) {
    return from_exception(e, file->path());
  }
  const int count = group->num_columns();
  ordered->begin_group();
  std::atomic<int> next{0};
  std::mutex failed_mu;
  Status failed;  // the first failure; the leaves it leaves waiting fail after it
  auto work = [&](LeafScratch& s) {
    for (int leaf = next.fetch_add(1); leaf < count; leaf = next.fetch_add(1)) {
      Status st;
      try {
        st = write_leaves(*group, fields, columns, first, rows, s, LeafRange{leaf, leaf + 1});
        if (!st.ok()) st = std::move(st).with_context(final_path);
        if (st.ok()) {
          OrderedSink::Turn turn(*ordered, leaf);
          group->column(leaf)->Close();
        }
      } catch (const std::exception& e) {
        st = from_exception(e, file->path());
      }
      if (!st.ok()) {
        {
          std::lock_guard lock(failed_mu);
          if (failed.ok()) failed = std::move(st);
        }
        ordered->abandon();
        return;
      }
      ordered->placed(leaf);
    }
  };
  std::vector<std::future<void>> helping;
  for (size_t h = 0; h < helpers.size(); ++h)
    helping.push_back(helpers[h]->submit([&, h] { work(helper_scratch[h]); }));
  work(scratch);
  for (auto& h : helping) h.get();  // every helper done with the group before it closes or the file goes
  if (!failed.ok()) return failed;
  try {
    group->Close();  // its columns closed and placed already: the group's metadata
  } catch (const std::exception& e) {
    return from_exception(e, file->path());
  }
  return Status();
}

ParquetFileWriter::ParquetFileWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Result<std::unique_ptr<ParquetFileWriter>> ParquetFileWriter::open(const std::string& path,
                                                                   std::vector<Field> schema,
                                                                   const WriteOptions& options) {
  auto impl = std::make_unique<Impl>();
  impl->file = std::make_unique<PendingFile>(path);
  impl->final_path = path;
  impl->row_group_rows = options.row_group_rows;
  arrow::FieldVector fields;
  for (const Field& f : schema) fields.push_back(arrow_field(f));
  auto kv = std::make_shared<arrow::KeyValueMetadata>();
  for (const auto& [k, v] : options.footer) kv->Append(k, v);
  impl->schema = arrow::schema(std::move(fields), std::move(kv));

  arrow::MemoryPool* pool = arrow::default_memory_pool();
  if (options.memory == EncoderMemory::Jemalloc) {
    arrow::MemoryPool* jemalloc = nullptr;
    if (arrow::jemalloc_memory_pool(&jemalloc).ok() && jemalloc != nullptr) pool = jemalloc;
  }
  ::parquet::WriterProperties::Builder builder;
  builder.compression(::parquet::Compression::ZSTD)
      ->compression_level(options.zstd_level)
      ->max_row_group_length(options.row_group_rows);
  for (const auto& column : options.no_dictionary) builder.disable_dictionary(column);
  for (const auto& column : options.byte_stream_split) {
    builder.disable_dictionary(column);
    builder.encoding(column, ::parquet::Encoding::BYTE_STREAM_SPLIT);
  }
  for (const auto& column : options.no_statistics) builder.disable_statistics(column);
  if (!options.page_index) builder.disable_write_page_index();
  if (!options.size_statistics) builder.set_size_statistics_level(::parquet::SizeStatisticsLevel::None);
  if (options.write_batch_rows > 0) builder.write_batch_size(options.write_batch_rows);
  if (options.data_page_v2) builder.data_page_version(::parquet::ParquetDataPageVersion::V2);
  if (options.data_page_bytes > 0) builder.data_pagesize(options.data_page_bytes);
  builder.memory_pool(pool);
  auto props = builder.build();
  auto arrow_props = ::parquet::ArrowWriterProperties::Builder().store_schema()->build();

  std::unique_ptr<ParquetFileWriter> w(new ParquetFileWriter(std::move(impl)));
  Impl& m = *w->impl_;
  const std::string& temp = m.file->path();
  auto sink = arrow::io::FileOutputStream::Open(temp);
  if (!sink.ok()) {
    const int err = arrow::internal::ErrnoFromStatus(sink.status());
    if (err > 0) return io_error(temp, "cannot create", err);
    return from_arrow(sink.status(), "cannot create " + temp);
  }
  m.sink = *sink;
  if (options.leaf_writer) {
    MANAKA_ASSIGN_OR_RETURN(auto layout, arrow_layout(*m.schema, pool, props, arrow_props, temp));
    if (leaf_writable(schema, *layout->schema())) {
      std::shared_ptr<arrow::io::OutputStream> out = m.sink;
      if (options.leaf_threads > 1) out = m.ordered = std::make_shared<OrderedSink>(m.sink);
      try {
        m.leaves = ::parquet::ParquetFileWriter::Open(
            out, std::static_pointer_cast<::parquet::schema::GroupNode>(layout->schema()->schema_root()), props,
            layout->key_value_metadata());
      } catch (const std::exception& e) {
        w->abort();
        return from_exception(e, temp);
      }
      m.fields = std::move(schema);
      for (int h = 1; h < options.leaf_threads; ++h) m.helpers.push_back(std::make_unique<TaskThread>());
      m.helper_scratch.resize(m.helpers.size());
      return w;
    }
  }
  auto writer = ::parquet::arrow::FileWriter::Open(*m.schema, pool, m.sink, props, arrow_props);
  if (!writer.ok()) {
    Status st = from_arrow(writer.status(), temp);
    w->abort();
    return st;
  }
  m.writer = std::move(*writer);
  return w;
}

ParquetFileWriter::~ParquetFileWriter() { abort(); }

const std::string& ParquetFileWriter::path() const { return impl_->final_path; }

Status ParquetFileWriter::write(int64_t rows, std::span<const Column> columns) {
  Impl& m = *impl_;
  if (m.leaves) {
    if (columns.size() != m.fields.size())
      return Status::invalid(path() + ": " + std::to_string(columns.size()) + " columns for a schema of " +
                             std::to_string(m.fields.size()));
    for (int64_t first = 0; first < rows; first += m.row_group_rows) {
      const int64_t n = std::min(m.row_group_rows, rows - first);
      MANAKA_RETURN_NOT_OK(m.ordered && m.spread ? m.write_group_on_threads(columns, first, n)
                                                 : m.write_group(columns, first, n));
    }
    return Status();
  }
  if (!m.writer) return Status::invalid(path() + ": write after commit or abort");
  const int n = m.schema->num_fields();
  if (static_cast<int>(columns.size()) != n)
    return Status::invalid(path() + ": " + std::to_string(columns.size()) + " columns for a schema of " +
                           std::to_string(n));
  std::vector<std::shared_ptr<arrow::ArrayData>> arrays;
  arrays.reserve(columns.size());
  for (int i = 0; i < n; ++i) {
    const auto& field = m.schema->field(i);
    MANAKA_ASSIGN_OR_RETURN(auto data, array_data(columns[size_t(i)], field->type(), path() + ": column " + field->name()));
    arrays.push_back(std::move(data));
  }
  auto batch = arrow::RecordBatch::Make(m.schema, rows, std::move(arrays));
  MANAKA_RETURN_NOT_OK(from_arrow(batch->Validate(), path()));
  auto table = arrow::Table::FromRecordBatches(m.schema, {batch});
  if (!table.ok()) return from_arrow(table.status(), m.file->path());
  return from_arrow(m.writer->WriteTable(**table, m.row_group_rows), m.file->path());
}

void ParquetFileWriter::set_leaf_spread(bool on) { impl_->spread = on; }

bool ParquetFileWriter::writes_leaves() const { return impl_->leaves != nullptr; }

int64_t ParquetFileWriter::bytes_written() const {
  if (!impl_->sink) return 0;
  auto pos = impl_->sink->Tell();
  return pos.ok() ? *pos : 0;
}

Result<std::unique_ptr<PendingFile>> ParquetFileWriter::close() {
  Impl& m = *impl_;
  if (!m.writer && !m.leaves) return Status::invalid(path() + ": close after commit or abort");
  Status st;
  if (m.leaves) {
    try {
      m.leaves->Close();
    } catch (const std::exception& e) {
      st = from_exception(e, m.file->path());
    }
  } else {
    st = from_arrow(m.writer->Close(), m.file->path());
  }
  if (st.ok()) st = from_arrow(m.sink->Close(), m.file->path());
  m.writer.reset();
  m.leaves.reset();
  m.sink.reset();
  if (!st.ok()) {
    m.file->discard();
    return st;
  }
  return std::move(m.file);
}

Status ParquetFileWriter::commit() {
  MANAKA_ASSIGN_OR_RETURN(std::unique_ptr<PendingFile> done, close());
  return done->commit();
}

void ParquetFileWriter::abort() {
  Impl& m = *impl_;
  if (!m.file || (!m.writer && !m.leaves && !m.sink)) return;
  m.writer.reset();  // an unclosed writer leaves no footer; the file is removed below
  try {
    m.leaves.reset();  // (parquet's closes on destruction: footer bytes, removed with the file)
  } catch (...) {
  }
  if (m.sink) (void)m.sink->Close();
  m.sink.reset();
  m.file->discard();
}

Status write_parquet(const std::string& path, std::vector<Field> schema, int64_t rows,
                     std::span<const Column> columns, const WriteOptions& options) {
  MANAKA_ASSIGN_OR_RETURN(auto writer, ParquetFileWriter::open(path, std::move(schema), options));
  MANAKA_RETURN_NOT_OK(writer->write(rows, columns));
  return writer->commit();
}

}  // namespace manaka::parquet
