#include "shard/corpus_table.h"

#include <arrow/api.h>
#include <arrow/io/file.h>
#include <parquet/arrow/reader.h>
#include <parquet/arrow/schema.h>
#include <parquet/properties.h>

#include <algorithm>
#include <limits>

#include "shard/parquet_file.h"

namespace manaka::shard {

namespace {

using arrow::Type;

bool is_text(Type::type id) {
  return id == Type::STRING || id == Type::LARGE_STRING || id == Type::STRING_VIEW ||
         id == Type::BINARY || id == Type::LARGE_BINARY || id == Type::BINARY_VIEW;
}

bool is_list_type(Type::type id) { return id == Type::LIST || id == Type::LARGE_LIST; }

enum class Shape : uint8_t { String, Integer, StringList, IntegerList };

constexpr Shape kShapes[kCorpusFieldCount] = {Shape::String,     Shape::Integer, Shape::Integer,
                                              Shape::Integer,    Shape::StringList,
                                              Shape::IntegerList, Shape::String, Shape::Integer};

const char* shape_name(Shape s) {
  switch (s) {
    case Shape::String: return "a string";
    case Shape::Integer: return "an integer";
    case Shape::StringList: return "a list of strings";
    case Shape::IntegerList: return "a list of integers";
  }
  return "?";
}

// Text, or a dictionary of text (how the move columns are read).
bool is_text_or_dictionary(const arrow::DataType& t) {
  if (t.id() != Type::DICTIONARY) return is_text(t.id());
  return is_text(static_cast<const arrow::DictionaryType&>(t).value_type()->id());
}

bool has_shape(const arrow::DataType& t, Shape s) {
  switch (s) {
    case Shape::String: return is_text_or_dictionary(t);
    case Shape::Integer: return arrow::is_integer(t.id());
    case Shape::StringList:
      return is_list_type(t.id()) && is_text_or_dictionary(*t.field(0)->type());
    case Shape::IntegerList:
      return is_list_type(t.id()) && arrow::is_integer(t.field(0)->type()->id());
  }
  return false;
}

// ---- element access, dispatched once per column and batch ----

template <typename A>
void append_strings(const A& a, int64_t begin, int64_t end, std::vector<std::string_view>& out,
                    CorpusBatch& b, size_t row, CorpusField f) {
  for (int64_t i = begin; i < end; ++i) {
    if (a.IsNull(i)) {
      b.mark_missing(row, f);
      out.emplace_back();
    } else {
      auto v = a.GetView(i);
      out.emplace_back(v.data(), v.size());
    }
  }
}

template <typename A>
void append_ints(const A& a, int64_t begin, int64_t end, std::vector<int64_t>& out, CorpusBatch& b,
                 size_t row, CorpusField f) {
  using V = typename A::value_type;
  for (int64_t i = begin; i < end; ++i) {
    if (a.IsNull(i)) {
      b.mark_missing(row, f);
      out.push_back(0);
      continue;
    }
    V v = a.Value(i);
    if constexpr (std::is_same_v<V, uint64_t>) {
      if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        b.mark_missing(row, f);
        out.push_back(0);
        continue;
      }
    }
    out.push_back(static_cast<int64_t>(v));
  }
}

// A dictionary-encoded string array read through the same interface.
template <typename Indices, typename Values>
struct DictionaryStrings {
  const Indices& indices;
  const Values& values;
  bool IsNull(int64_t i) const { return indices.IsNull(i); }
  std::string_view GetView(int64_t i) const {
    auto v = values.GetView(indices.Value(i));
    return {v.data(), v.size()};
  }
  int64_t length() const { return indices.length(); }
};

template <typename Fn>
void with_plain_strings(const arrow::Array& a, Fn&& fn);
template <typename Fn>
void with_ints(const arrow::Array& a, Fn&& fn);

// Calls fn(typed array) for a string array or a dictionary of strings.
template <typename Fn>
void with_strings(const arrow::Array& a, Fn&& fn) {
  if (a.type_id() == Type::DICTIONARY) {
    const auto& d = static_cast<const arrow::DictionaryArray&>(a);
    with_ints(*d.indices(), [&](const auto& indices) {
      with_plain_strings(*d.dictionary(), [&](const auto& values) {
        using I = std::decay_t<decltype(indices)>;
        using V = std::decay_t<decltype(values)>;
        fn(DictionaryStrings<I, V>{indices, values});
      });
    });
    return;
  }
  with_plain_strings(a, fn);
}

template <typename Fn>
void with_plain_strings(const arrow::Array& a, Fn&& fn) {
  switch (a.type_id()) {
    case Type::STRING: fn(static_cast<const arrow::StringArray&>(a)); break;
    case Type::LARGE_STRING: fn(static_cast<const arrow::LargeStringArray&>(a)); break;
    case Type::STRING_VIEW: fn(static_cast<const arrow::StringViewArray&>(a)); break;
    case Type::BINARY: fn(static_cast<const arrow::BinaryArray&>(a)); break;
    case Type::LARGE_BINARY: fn(static_cast<const arrow::LargeBinaryArray&>(a)); break;
    case Type::BINARY_VIEW: fn(static_cast<const arrow::BinaryViewArray&>(a)); break;
    default: break;  // refused at open
  }
}

template <typename Fn>
void with_ints(const arrow::Array& a, Fn&& fn) {
  switch (a.type_id()) {
    case Type::INT8: fn(static_cast<const arrow::Int8Array&>(a)); break;
    case Type::INT16: fn(static_cast<const arrow::Int16Array&>(a)); break;
    case Type::INT32: fn(static_cast<const arrow::Int32Array&>(a)); break;
    case Type::INT64: fn(static_cast<const arrow::Int64Array&>(a)); break;
    case Type::UINT8: fn(static_cast<const arrow::UInt8Array&>(a)); break;
    case Type::UINT16: fn(static_cast<const arrow::UInt16Array&>(a)); break;
    case Type::UINT32: fn(static_cast<const arrow::UInt32Array&>(a)); break;
    case Type::UINT64: fn(static_cast<const arrow::UInt64Array&>(a)); break;
    default: break;  // refused at open
  }
}

template <typename Fn>
void with_list(const arrow::Array& a, Fn&& fn) {
  if (a.type_id() == Type::LIST) fn(static_cast<const arrow::ListArray&>(a));
  if (a.type_id() == Type::LARGE_LIST) fn(static_cast<const arrow::LargeListArray&>(a));
}

void fill_strings(const arrow::Array& a, std::vector<std::string_view>& out, CorpusBatch& b,
                  CorpusField f) {
  with_strings(a, [&](const auto& s) {
    for (int64_t i = 0; i < s.length(); ++i) append_strings(s, i, i + 1, out, b, size_t(i), f);
  });
}

void fill_ints(const arrow::Array& a, std::vector<int64_t>& out, CorpusBatch& b, CorpusField f) {
  with_ints(a, [&](const auto& s) {
    for (int64_t i = 0; i < s.length(); ++i) append_ints(s, i, i + 1, out, b, size_t(i), f);
  });
}

// Row r's elements are appended to out and at[r] marks where they start.
template <typename Elements>
void fill_list(const arrow::Array& a, std::vector<uint32_t>& at, CorpusBatch& b, CorpusField f,
               Elements&& elements) {
  with_list(a, [&](const auto& list) {
    for (int64_t i = 0; i < list.length(); ++i) {
      at.push_back(0);  // set by elements() from the output size
      size_t row = static_cast<size_t>(i);
      if (list.IsNull(i)) {
        b.mark_missing(row, f);
        elements(*list.values(), 0, 0, row);
        continue;
      }
      elements(*list.values(), list.value_offset(i), list.value_offset(i + 1), row);
    }
  });
}

}  // namespace

struct CorpusTableReader::Impl {
  std::string path;
  CorpusColumns columns;
  std::unique_ptr<parquet::arrow::FileReader> file;
  std::vector<int> leaves;  // the parquet columns read
  int next_row_group = 0;
  std::unique_ptr<arrow::RecordBatchReader> batches;  // of the row group before next_row_group
  int64_t rows = 0;

  // The next record batch, or null at the end of the file. A batch never
  // spans two row groups: each has its own dictionaries, and Arrow cannot
  // return a list of dictionaries in more than one chunk.
  arrow::Status read_next(std::shared_ptr<arrow::RecordBatch>* out) {
    for (;;) {
      if (batches) {
        ARROW_RETURN_NOT_OK(batches->ReadNext(out));
        if (*out) return arrow::Status::OK();
        batches.reset();
      }
      if (next_row_group == file->num_row_groups()) return arrow::Status::OK();
      ARROW_ASSIGN_OR_RAISE(batches, file->GetRecordBatchReader({next_row_group++}, leaves));
    }
  }
};

CorpusTableReader::CorpusTableReader(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
CorpusTableReader::~CorpusTableReader() = default;
int64_t CorpusTableReader::num_rows() const { return impl_->rows; }
const std::string& CorpusTableReader::path() const { return impl_->path; }

Result<std::unique_ptr<CorpusTableReader>> CorpusTableReader::open(const std::string& path,
                                                                   const CorpusColumns& columns,
                                                                   int64_t batch_rows) {
  auto impl = std::make_unique<Impl>();
  impl->path = path;
  impl->columns = columns;
  MANAKA_ASSIGN_OR_RETURN(auto input, open_readable(path));
  parquet::ArrowReaderProperties props;
  props.set_batch_size(batch_rows);
  parquet::arrow::FileReaderBuilder builder;
  MANAKA_RETURN_NOT_OK(from_arrow(builder.Open(input), path));
  // Moves repeat a lot: read them as dictionaries, which skips building a
  // dense string column per batch.
  const parquet::SchemaDescriptor& leaves_schema = *builder.raw_reader()->metadata()->schema();
  for (int i = 0; i < leaves_schema.num_columns(); ++i) {
    const parquet::ColumnDescriptor& leaf = *leaves_schema.Column(i);
    const std::string top = leaf.path()->ToDotVector().front();
    if (leaf.physical_type() == parquet::Type::BYTE_ARRAY &&
        (top == columns[CorpusField::Move] || top == columns[CorpusField::CandMoves]))
      props.set_read_dictionary(i, true);
  }
  builder.properties(props);
  auto file = builder.Build();
  if (!file.ok()) return from_arrow(file.status(), path);
  impl->file = std::move(*file);
  impl->rows = impl->file->parquet_reader()->metadata()->num_rows();

  std::shared_ptr<arrow::Schema> schema;
  MANAKA_RETURN_NOT_OK(from_arrow(impl->file->GetSchema(&schema), path));
  const auto& manifest = impl->file->manifest();
  std::vector<int> leaves;
  for (size_t f = 0; f < kCorpusFieldCount; ++f) {
    const std::string& name = columns.names[f];
    int index = schema->GetFieldIndex(name);
    if (index < 0) {
      std::string have;
      for (const auto& field : schema->fields()) have += (have.empty() ? "" : ", ") + field->name();
      return Status::invalid(path + ": no column \"" + name + "\" for field " + kCorpusFieldNames[f] +
                             " (columns: " + have + "); map it with --column " +
                             kCorpusFieldNames[f] + "=NAME");
    }
    const auto& type = *schema->field(index)->type();
    if (!has_shape(type, kShapes[f]))
      return Status::invalid(path + ": column \"" + name + "\" (field " + kCorpusFieldNames[f] +
                             ") is " + type.ToString() + ", expected " + shape_name(kShapes[f]));
    // The parquet leaf columns under this top-level field.
    std::vector<const parquet::arrow::SchemaField*> stack = {&manifest.schema_fields[size_t(index)]};
    while (!stack.empty()) {
      const auto* sf = stack.back();
      stack.pop_back();
      if (sf->column_index >= 0) leaves.push_back(sf->column_index);
      for (const auto& child : sf->children) stack.push_back(&child);
    }
  }
  std::sort(leaves.begin(), leaves.end());
  leaves.erase(std::unique(leaves.begin(), leaves.end()), leaves.end());
  impl->leaves = std::move(leaves);
  return std::unique_ptr<CorpusTableReader>(new CorpusTableReader(std::move(impl)));
}

Result<bool> CorpusTableReader::next(CorpusBatch& b) {
  b.clear();
  std::shared_ptr<arrow::RecordBatch> rb;
  MANAKA_RETURN_NOT_OK(from_arrow(impl_->read_next(&rb), impl_->path));
  if (!rb) return false;
  const size_t n = static_cast<size_t>(rb->num_rows());
  b.rows = n;
  b.missing.assign(n, -1);
  b.keep_alive = rb;
  const auto& names = impl_->columns.names;
  auto column = [&](CorpusField f) -> const arrow::Array& {
    return *rb->GetColumnByName(names[static_cast<size_t>(f)]);
  };
  fill_strings(column(CorpusField::Sfen), b.sfen, b, CorpusField::Sfen);
  fill_strings(column(CorpusField::Move), b.move, b, CorpusField::Move);
  fill_ints(column(CorpusField::Ply), b.ply, b, CorpusField::Ply);
  fill_ints(column(CorpusField::Side), b.side, b, CorpusField::Side);
  fill_ints(column(CorpusField::Cp), b.cp, b, CorpusField::Cp);
  fill_ints(column(CorpusField::Result), b.result, b, CorpusField::Result);

  b.moves_at.reserve(n + 1);
  fill_list(column(CorpusField::CandMoves), b.moves_at, b, CorpusField::CandMoves,
            [&](const arrow::Array& values, int64_t begin, int64_t end, size_t row) {
              b.moves_at.back() = static_cast<uint32_t>(b.cand_moves.size());
              with_strings(values, [&](const auto& s) {
                append_strings(s, begin, end, b.cand_moves, b, row, CorpusField::CandMoves);
              });
            });
  b.moves_at.push_back(static_cast<uint32_t>(b.cand_moves.size()));
  b.cps_at.reserve(n + 1);
  fill_list(column(CorpusField::CandCp), b.cps_at, b, CorpusField::CandCp,
            [&](const arrow::Array& values, int64_t begin, int64_t end, size_t row) {
              b.cps_at.back() = static_cast<uint32_t>(b.cand_cp.size());
              with_ints(values, [&](const auto& s) {
                append_ints(s, begin, end, b.cand_cp, b, row, CorpusField::CandCp);
              });
            });
  b.cps_at.push_back(static_cast<uint32_t>(b.cand_cp.size()));
  return true;
}

}  // namespace manaka::shard
