#include "parquet/reader.h"

#include <arrow/api.h>
#include <arrow/io/file.h>
#include <arrow/util/io_util.h>
#include <parquet/arrow/reader.h>
#include <parquet/arrow/schema.h>
#include <parquet/column_reader.h>
#include <parquet/file_reader.h>
#include <parquet/metadata.h>
#include <parquet/properties.h>

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <mutex>

#include "core/file.h"
#include "parquet/library_error.h"

namespace manaka::parquet {

namespace {

Status from_arrow(const arrow::Status& st, const std::string& context) {
  if (st.ok()) return Status();
  return library_error(context, st.message(), arrow::internal::ErrnoFromStatus(st), st.IsIOError());
}

// A refusal reads as InputFile's does ("<path>: cannot open for reading: Permission denied").
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

Type plain_type(arrow::Type::type id) {
  switch (id) {
    case arrow::Type::BOOL: return Type::Bool;
    case arrow::Type::INT8: return Type::Int8;
    case arrow::Type::INT16: return Type::Int16;
    case arrow::Type::INT32: return Type::Int32;
    case arrow::Type::INT64: return Type::Int64;
    case arrow::Type::UINT8: return Type::UInt8;
    case arrow::Type::UINT16: return Type::UInt16;
    case arrow::Type::UINT32: return Type::UInt32;
    case arrow::Type::UINT64: return Type::UInt64;
    case arrow::Type::FLOAT: return Type::Float;
    case arrow::Type::DOUBLE: return Type::Double;
    case arrow::Type::STRING: return Type::Utf8;
    case arrow::Type::LARGE_STRING: return Type::LargeUtf8;
    case arrow::Type::STRING_VIEW: return Type::Utf8View;
    case arrow::Type::BINARY: return Type::Binary;
    case arrow::Type::LARGE_BINARY: return Type::LargeBinary;
    case arrow::Type::BINARY_VIEW: return Type::BinaryView;
    case arrow::Type::FIXED_SIZE_BINARY: return Type::FixedSizeBinary;
    case arrow::Type::LIST: return Type::List;
    case arrow::Type::LARGE_LIST: return Type::LargeList;
    case arrow::Type::STRUCT: return Type::Struct;
    case arrow::Type::DICTIONARY: return Type::Dictionary;
    default: return Type::Other;
  }
}

Field plain_field(const std::string& name, const std::shared_ptr<arrow::DataType>& type, bool nullable) {
  Field f;
  f.name = name;
  f.type = plain_type(type->id());
  f.nullable = nullable;
  f.type_name = type->ToString();
  if (f.type == Type::FixedSizeBinary)
    f.byte_width = static_cast<const arrow::FixedSizeBinaryType&>(*type).byte_width();
  if (f.type == Type::Dictionary) {
    const auto& d = static_cast<const arrow::DictionaryType&>(*type);
    f.children.push_back(plain_field("indices", d.index_type(), false));
    f.children.push_back(plain_field("values", d.value_type(), true));
  } else if (f.type != Type::Other) {
    for (const auto& c : type->fields()) f.children.push_back(plain_field(c->name(), c->type(), c->nullable()));
  }
  return f;
}

const uint8_t* bytes_of(const std::shared_ptr<arrow::Buffer>& b) { return b ? b->data() : nullptr; }

// The views of an ArrayData's buffers (parquet/column.h has the layout).
Column plain_column(const arrow::ArrayData& d) {
  Column c;
  c.type = plain_type(d.type->id());
  c.length = d.length;
  c.offset = d.offset;
  c.null_count = d.GetNullCount();
  c.validity = c.null_count > 0 ? bytes_of(d.buffers[0]) : nullptr;
  switch (c.type) {
    case Type::Struct:
      for (const auto& child : d.child_data) {
        Column k = plain_column(*child);
        k.offset += d.offset;  // the parent's slice, as StructArray::field applies it
        k.length = d.length;
        c.children.push_back(std::move(k));
      }
      break;
    case Type::List: case Type::LargeList:
      c.offsets = bytes_of(d.buffers[1]);
      c.children.push_back(plain_column(*d.child_data[0]));
      break;
    case Type::Utf8: case Type::LargeUtf8: case Type::Binary: case Type::LargeBinary:
      c.offsets = bytes_of(d.buffers[1]);
      c.data = bytes_of(d.buffers[2]);
      break;
    case Type::Utf8View: case Type::BinaryView:
      c.values = bytes_of(d.buffers[1]);
      for (size_t i = 2; i < d.buffers.size(); ++i) c.view_data.push_back(bytes_of(d.buffers[i]));
      break;
    case Type::Dictionary: {
      const auto& type = static_cast<const arrow::DictionaryType&>(*d.type);
      Column indices = c;
      indices.type = plain_type(type.index_type()->id());
      indices.values = bytes_of(d.buffers[1]);
      c.children.push_back(std::move(indices));
      c.children.push_back(plain_column(*d.dictionary));
      break;
    }
    case Type::FixedSizeBinary:
      c.byte_width = static_cast<const arrow::FixedSizeBinaryType&>(*d.type).byte_width();
      c.values = bytes_of(d.buffers[1]);
      break;
    default:
      if (d.buffers.size() > 1) c.values = bytes_of(d.buffers[1]);
      break;
  }
  return c;
}

ColumnBatch plain_batch(const std::shared_ptr<arrow::RecordBatch>& rb) {
  ColumnBatch b;
  b.rows = rb->num_rows();
  for (int i = 0; i < rb->num_columns(); ++i) {
    b.names.push_back(rb->schema()->field(i)->name());
    b.columns.push_back(plain_column(*rb->column_data(i)));
  }
  b.keep_alive = rb;
  return b;
}

void collect_leaves(const ::parquet::arrow::SchemaField& f, std::vector<int>& out) {
  if (f.is_leaf()) out.push_back(f.column_index);
  for (const auto& c : f.children) collect_leaves(c, out);
}

}  // namespace

struct ParquetFileReader::Impl {
  std::string path;
  std::unique_ptr<::parquet::arrow::FileReader> file;
  // parquet::arrow::FileReader is not safe to share: ReadRowGroup pre-buffers
  // into one cache per file (a concurrent read finds the other's entries, or
  // none: "ReadRangeCache did not find matching cache entry", or a crash).
  // One read at a time per file; the caller's copy out of the batch runs unlocked.
  std::mutex read_mutex;
  std::vector<Field> fields;
  std::vector<std::vector<int>> leaves;  // of each top-level field
  FooterPairs footer;
  // next_batch: the batches of the row group before next_row_group.
  int next_row_group = 0;
  std::unique_ptr<arrow::RecordBatchReader> batches;

  std::vector<int> leaves_of(std::span<const int> columns) const {
    std::vector<int> out;
    for (int c : columns) out.insert(out.end(), leaves[size_t(c)].begin(), leaves[size_t(c)].end());
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }

  // read_leaf's body for parquet type DType; taken(first, count) sees each
  // batch of values as it lands.
  template <typename DType, typename Taken>
  Result<int64_t> read_leaf(int group, int leaf, typename DType::c_type* values, int16_t* def, int16_t* rep,
                            Taken taken);
};

ParquetFileReader::ParquetFileReader(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ParquetFileReader::~ParquetFileReader() = default;

Result<std::unique_ptr<ParquetFileReader>> ParquetFileReader::open(const std::string& path,
                                                                   const ReadOptions& options) {
  auto impl = std::make_unique<Impl>();
  impl->path = path;
  MANAKA_ASSIGN_OR_RETURN(auto input, open_readable(path));
  ::parquet::ArrowReaderProperties props;
  props.set_batch_size(options.batch_rows);
  ::parquet::arrow::FileReaderBuilder builder;
  MANAKA_RETURN_NOT_OK(from_arrow(builder.Open(input), path));
  if (!options.dictionary_columns.empty()) {
    const ::parquet::SchemaDescriptor& leaves = *builder.raw_reader()->metadata()->schema();
    for (int i = 0; i < leaves.num_columns(); ++i) {
      const ::parquet::ColumnDescriptor& leaf = *leaves.Column(i);
      const std::string top = leaf.path()->ToDotVector().front();
      if (leaf.physical_type() == ::parquet::Type::BYTE_ARRAY &&
          std::find(options.dictionary_columns.begin(), options.dictionary_columns.end(), top) !=
              options.dictionary_columns.end())
        props.set_read_dictionary(i, true);
    }
  }
  builder.properties(props);
  // Taken before Build(), which moves the raw reader out even when it fails.
  const auto stored = builder.raw_reader()->metadata()->key_value_metadata();
  auto file = builder.Build();
  if (!file.ok()) {
    // Arrow decodes the schema it stored in the footer here: name that key,
    // or "Invalid base64 input" says nothing of where.
    if (!file.status().IsIOError() && stored && stored->Contains("ARROW:schema"))
      return from_arrow(file.status(), path + ": the footer's ARROW:schema (the Arrow schema stored with the "
                                              "columns) is damaged");
    return from_arrow(file.status(), path);
  }
  impl->file = std::move(*file);

  std::shared_ptr<arrow::Schema> schema;
  MANAKA_RETURN_NOT_OK(from_arrow(impl->file->GetSchema(&schema), path));
  const auto& manifest = impl->file->manifest();
  for (int i = 0; i < schema->num_fields(); ++i) {
    const auto& f = schema->field(i);
    impl->fields.push_back(plain_field(f->name(), f->type(), f->nullable()));
    impl->leaves.emplace_back();
    collect_leaves(manifest.schema_fields[size_t(i)], impl->leaves.back());
  }
  auto kv = impl->file->parquet_reader()->metadata()->key_value_metadata();
  if (kv) {
    for (int64_t i = 0; i < kv->size(); ++i) impl->footer.emplace_back(kv->key(i), kv->value(i));
  }
  return std::unique_ptr<ParquetFileReader>(new ParquetFileReader(std::move(impl)));
}

const std::string& ParquetFileReader::path() const { return impl_->path; }
const std::vector<Field>& ParquetFileReader::fields() const { return impl_->fields; }
int ParquetFileReader::field_index(const std::string& name) const {
  for (size_t i = 0; i < impl_->fields.size(); ++i)
    if (impl_->fields[i].name == name) return static_cast<int>(i);
  return -1;
}
int64_t ParquetFileReader::num_rows() const { return impl_->file->parquet_reader()->metadata()->num_rows(); }
int ParquetFileReader::num_row_groups() const { return impl_->file->num_row_groups(); }
int64_t ParquetFileReader::row_group_rows(int group) const {
  return impl_->file->parquet_reader()->metadata()->RowGroup(group)->num_rows();
}
const FooterPairs& ParquetFileReader::footer() const { return impl_->footer; }

Result<ColumnBatch> ParquetFileReader::read_row_group(int group, std::span<const int> columns) {
  const std::string where = impl_->path + ": row group " + std::to_string(group);
  arrow::Result<std::shared_ptr<arrow::Table>> read;
  {
    std::lock_guard<std::mutex> lock(impl_->read_mutex);
    read = impl_->file->ReadRowGroup(group, impl_->leaves_of(columns));
  }
  if (!read.ok()) return from_arrow(read.status(), where);
  auto batch = (*read)->CombineChunksToBatch();
  if (!batch.ok()) return from_arrow(batch.status(), where);
  return plain_batch(*batch);
}

Result<bool> ParquetFileReader::next_batch(std::span<const int> columns, ColumnBatch& out) {
  Impl& m = *impl_;
  std::shared_ptr<arrow::RecordBatch> rb;
  for (;;) {
    if (m.batches) {
      MANAKA_RETURN_NOT_OK(from_arrow(m.batches->ReadNext(&rb), m.path));
      if (rb) break;
      m.batches.reset();
    }
    if (m.next_row_group == m.file->num_row_groups()) return false;
    auto batches = m.file->GetRecordBatchReader({m.next_row_group}, m.leaves_of(columns));
    if (!batches.ok())
      return from_arrow(batches.status(), m.path + ": row group " + std::to_string(m.next_row_group));
    ++m.next_row_group;
    m.batches = std::move(*batches);
  }
  out = plain_batch(rb);
  return true;
}

Result<ColumnBatch> ParquetFileReader::read_all() {
  auto table = impl_->file->ReadTable();
  if (!table.ok()) return from_arrow(table.status(), impl_->path);
  auto batch = (*table)->CombineChunksToBatch();
  if (!batch.ok()) return from_arrow(batch.status(), impl_->path);
  return plain_batch(*batch);
}

namespace {

// Every level of one column chunk through parquet's column reader: `levels`
// slots, values packed from `values`, taken(first, count) after each batch
// (a batch never spans two pages). The values read, or -1 when the chunk
// holds other than `levels` levels.
template <typename DType, typename Taken>
int64_t read_chunk(::parquet::ColumnReader& column, int64_t levels, typename DType::c_type* values, int16_t* def,
                   int16_t* rep, Taken taken) {
  auto& r = static_cast<::parquet::TypedColumnReader<DType>&>(column);
  int64_t read_levels = 0, read_values = 0;
  while (read_levels < levels && r.HasNext()) {
    int64_t got_values = 0;
    const int64_t got = r.ReadBatch(levels - read_levels, def ? def + read_levels : nullptr,
                                    rep ? rep + read_levels : nullptr, values + read_values, &got_values);
    if (got <= 0) break;
    taken(read_values, got_values);
    read_levels += got;
    read_values += got_values;
  }
  if (read_levels != levels || r.HasNext()) return -1;
  return read_values;
}

}  // namespace

template <typename DType, typename Taken>
Result<int64_t> ParquetFileReader::Impl::read_leaf(int group, int leaf, typename DType::c_type* values, int16_t* def,
                                                   int16_t* rep, Taken taken) {
  const auto where = [&] {
    return path + ": row group " + std::to_string(group) + ", column " +
           file->parquet_reader()->metadata()->schema()->Column(leaf)->path()->ToDotString();
  };
  try {
    std::lock_guard<std::mutex> lock(read_mutex);
    const int64_t levels = file->parquet_reader()->metadata()->RowGroup(group)->ColumnChunk(leaf)->num_values();
    std::shared_ptr<::parquet::ColumnReader> column = file->parquet_reader()->RowGroup(group)->Column(leaf);
    if (column->type() != DType::type_num) return Status::invalid(where() + ": not of the physical type asked for");
    const int64_t got = read_chunk<DType>(*column, levels, values, def, rep, taken);
    if (got < 0) return Status::invalid(where() + ": the pages hold other than the " + std::to_string(levels) +
                                        " values the footer counts");
    return got;
  } catch (const std::exception& e) {
    return library_error(where(), e.what(), 0, false);
  }
}

const std::vector<int>& ParquetFileReader::leaves(int field) const { return impl_->leaves[size_t(field)]; }

LeafInfo ParquetFileReader::leaf_info(int leaf) const {
  const ::parquet::ColumnDescriptor& d = *impl_->file->parquet_reader()->metadata()->schema()->Column(leaf);
  LeafInfo info;
  info.max_def = d.max_definition_level();
  info.max_rep = d.max_repetition_level();
  switch (d.physical_type()) {
    case ::parquet::Type::INT32: info.physical = Physical::Int32; break;
    case ::parquet::Type::FLOAT: info.physical = Physical::Float; break;
    case ::parquet::Type::FIXED_LEN_BYTE_ARRAY:
      info.physical = Physical::FixedBytes;
      info.width = d.type_length();
      break;
    default: info.physical = Physical::Other; break;
  }
  return info;
}

Result<int64_t> ParquetFileReader::leaf_level_count(int group, int leaf) const {
  const int64_t levels = impl_->file->parquet_reader()->metadata()->RowGroup(group)->ColumnChunk(leaf)->num_values();
  if (levels < 0 || levels > kMaxLeafLevels) {
    return Status::invalid(impl_->path + ": row group " + std::to_string(group) + ": the footer counts " +
                           std::to_string(levels) + " values in a column (at most " +
                           std::to_string(kMaxLeafLevels) + " are read)");
  }
  return levels;
}

Result<int64_t> ParquetFileReader::read_leaf(int group, int leaf, int32_t* values, int16_t* def, int16_t* rep) {
  return impl_->read_leaf<::parquet::Int32Type>(group, leaf, values, def, rep, [](int64_t, int64_t) {});
}

Result<int64_t> ParquetFileReader::read_leaf(int group, int leaf, float* values, int16_t* def, int16_t* rep) {
  return impl_->read_leaf<::parquet::FloatType>(group, leaf, values, def, rep, [](int64_t, int64_t) {});
}

// FLBA values point into the decoded page, which the next page may reuse:
// copied out `width` bytes each after every batch.
Result<int64_t> ParquetFileReader::read_leaf_fixed(int group, int leaf, int32_t width, uint8_t* values) {
  if (leaf_info(leaf).width != width) {
    return Status::invalid(impl_->path + ": column " + std::to_string(leaf) + " is not " + std::to_string(width) +
                           " bytes wide");
  }
  MANAKA_ASSIGN_OR_RETURN(const int64_t levels, leaf_level_count(group, leaf));
  thread_local std::vector<::parquet::FixedLenByteArray> views;
  views.resize(static_cast<size_t>(levels));
  const auto copy = [&](int64_t first, int64_t count) {
    for (int64_t i = first; i < first + count; ++i) std::memcpy(values + i * width, views[size_t(i)].ptr, size_t(width));
  };
  return impl_->read_leaf<::parquet::FLBAType>(group, leaf, views.data(), nullptr, nullptr, copy);
}

Result<ColumnBatch> read_parquet(const std::string& path) {
  MANAKA_ASSIGN_OR_RETURN(auto reader, ParquetFileReader::open(path));
  return reader->read_all();
}

Result<FooterPairs> read_parquet_footer(const std::string& path) {
  MANAKA_ASSIGN_OR_RETURN(auto reader, ParquetFileReader::open(path));
  return reader->footer();
}

}  // namespace manaka::parquet
