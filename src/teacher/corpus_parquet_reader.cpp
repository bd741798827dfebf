#include "teacher/corpus_parquet_reader.h"

#include <limits>
#include <type_traits>

#include "parquet/reader.h"

namespace manaka::teacher {

namespace {

using parquet::Column;
using parquet::Field;
using parquet::Type;

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
bool is_text_or_dictionary(const Field& f) {
  if (f.type != Type::Dictionary) return parquet::is_text(f.type);
  return parquet::is_text(f.children[1].type);
}

bool has_shape(const Field& f, Shape s) {
  switch (s) {
    case Shape::String: return is_text_or_dictionary(f);
    case Shape::Integer: return parquet::is_integer(f.type);
    case Shape::StringList: return parquet::is_list(f.type) && is_text_or_dictionary(f.children[0]);
    case Shape::IntegerList: return parquet::is_list(f.type) && parquet::is_integer(f.children[0].type);
  }
  return false;
}

// ---- element access, dispatched once per column and batch ----

// Strings of one layout: element i's bytes through `get`.
template <typename Get>
struct Strings {
  const Column& c;
  Get get;
  bool is_null(int64_t i) const { return c.is_null(i); }
  std::string_view view(int64_t i) const { return get(i); }
  int64_t length() const { return c.length; }
};

template <typename T>
struct Ints {
  const Column& c;
  const T* v = c.values_as<T>();
  using value_type = T;
  bool is_null(int64_t i) const { return c.is_null(i); }
  T value(int64_t i) const { return v[i]; }
  int64_t length() const { return c.length; }
};

// A dictionary-encoded string column read through the same interface.
template <typename Indices, typename Values>
struct DictionaryStrings {
  Indices indices;
  Values values;
  bool is_null(int64_t i) const { return indices.is_null(i); }
  std::string_view view(int64_t i) const { return values.view(static_cast<int64_t>(indices.value(i))); }
  int64_t length() const { return indices.length(); }
};

template <typename O>
struct Lists {
  const Column& c;
  const O* at = c.offsets_as<O>();
  bool is_null(int64_t i) const { return c.is_null(i); }
  int64_t begin(int64_t i) const { return static_cast<int64_t>(at[i]); }
  int64_t end(int64_t i) const { return static_cast<int64_t>(at[i + 1]); }
  const Column& values() const { return c.children[0]; }
  int64_t length() const { return c.length; }
};

template <typename A>
void append_strings(const A& a, int64_t begin, int64_t end, std::vector<std::string_view>& out,
                    CorpusBatch& b, size_t row, CorpusField f) {
  for (int64_t i = begin; i < end; ++i) {
    if (a.is_null(i)) {
      b.mark_missing(row, f);
      out.emplace_back();
    } else {
      out.push_back(a.view(i));
    }
  }
}

template <typename A>
void append_ints(const A& a, int64_t begin, int64_t end, std::vector<int64_t>& out, CorpusBatch& b,
                 size_t row, CorpusField f) {
  using V = typename A::value_type;
  for (int64_t i = begin; i < end; ++i) {
    if (a.is_null(i)) {
      b.mark_missing(row, f);
      out.push_back(0);
      continue;
    }
    V v = a.value(i);
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

template <typename Fn>
void with_plain_strings(const Column& a, Fn&& fn) {
  auto call = [&](auto get) { fn(Strings<decltype(get)>{a, get}); };
  switch (a.type) {
    case Type::Utf8: case Type::Binary: call(parquet::TextOffsets<int32_t>{a}); break;
    case Type::LargeUtf8: case Type::LargeBinary: call(parquet::TextOffsets<int64_t>{a}); break;
    case Type::Utf8View: case Type::BinaryView: call(parquet::TextViews{a}); break;
    default: break;  // refused at open
  }
}

template <typename Fn>
void with_ints(const Column& a, Fn&& fn) {
  switch (a.type) {
    case Type::Int8: fn(Ints<int8_t>{a}); break;
    case Type::Int16: fn(Ints<int16_t>{a}); break;
    case Type::Int32: fn(Ints<int32_t>{a}); break;
    case Type::Int64: fn(Ints<int64_t>{a}); break;
    case Type::UInt8: fn(Ints<uint8_t>{a}); break;
    case Type::UInt16: fn(Ints<uint16_t>{a}); break;
    case Type::UInt32: fn(Ints<uint32_t>{a}); break;
    case Type::UInt64: fn(Ints<uint64_t>{a}); break;
    default: break;  // refused at open
  }
}

// Calls fn(typed access) for a string column or a dictionary of strings.
template <typename Fn>
void with_strings(const Column& a, Fn&& fn) {
  if (a.type == Type::Dictionary) {
    with_ints(a.children[0], [&](const auto& indices) {
      with_plain_strings(a.children[1], [&](const auto& values) {
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
void with_list(const Column& a, Fn&& fn) {
  if (a.type == Type::List) fn(Lists<int32_t>{a});
  if (a.type == Type::LargeList) fn(Lists<int64_t>{a});
}

void fill_strings(const Column& a, std::vector<std::string_view>& out, CorpusBatch& b, CorpusField f) {
  with_strings(a, [&](const auto& s) {
    for (int64_t i = 0; i < s.length(); ++i) append_strings(s, i, i + 1, out, b, size_t(i), f);
  });
}

void fill_ints(const Column& a, std::vector<int64_t>& out, CorpusBatch& b, CorpusField f) {
  with_ints(a, [&](const auto& s) {
    for (int64_t i = 0; i < s.length(); ++i) append_ints(s, i, i + 1, out, b, size_t(i), f);
  });
}

// Row r's elements are appended to out and at[r] marks where they start.
template <typename Elements>
void fill_list(const Column& a, std::vector<uint32_t>& at, CorpusBatch& b, CorpusField f,
               Elements&& elements) {
  with_list(a, [&](const auto& list) {
    for (int64_t i = 0; i < list.length(); ++i) {
      at.push_back(0);  // set by elements() from the output size
      size_t row = static_cast<size_t>(i);
      if (list.is_null(i)) {
        b.mark_missing(row, f);
        elements(list.values(), 0, 0, row);
        continue;
      }
      elements(list.values(), list.begin(i), list.end(i), row);
    }
  });
}

}  // namespace

struct CorpusParquetReader::Impl {
  std::unique_ptr<parquet::ParquetFileReader> file;
  CorpusColumns columns;
  std::vector<int> fields;  // the file's columns read, by index
  parquet::ColumnBatch read;
};

CorpusParquetReader::CorpusParquetReader(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
CorpusParquetReader::~CorpusParquetReader() = default;
int64_t CorpusParquetReader::num_rows() const { return impl_->file->num_rows(); }
const std::string& CorpusParquetReader::path() const { return impl_->file->path(); }

Result<std::unique_ptr<CorpusParquetReader>> CorpusParquetReader::open(const std::string& path,
                                                                       const CorpusColumns& columns,
                                                                       int64_t batch_rows) {
  auto impl = std::make_unique<Impl>();
  impl->columns = columns;
  parquet::ReadOptions options;
  options.batch_rows = batch_rows;
  // Moves repeat a lot: read them as dictionaries, which skips building a
  // dense string column per batch.
  options.dictionary_columns = {columns[CorpusField::Move], columns[CorpusField::CandMoves]};
  MANAKA_ASSIGN_OR_RETURN(impl->file, parquet::ParquetFileReader::open(path, options));
  const std::vector<Field>& have = impl->file->fields();
  for (size_t f = 0; f < kCorpusFieldCount; ++f) {
    const std::string& name = columns.names[f];
    const int index = impl->file->field_index(name);
    if (index < 0) {
      std::string names;
      for (const Field& field : have) names += (names.empty() ? "" : ", ") + field.name;
      return Status::invalid(path + ": no column \"" + name + "\" for field " + kCorpusFieldNames[f] +
                             " (columns: " + names + "); map it with --column " +
                             kCorpusFieldNames[f] + "=NAME");
    }
    const Field& field = have[size_t(index)];
    if (!has_shape(field, kShapes[f]))
      return Status::invalid(path + ": column \"" + name + "\" (field " + kCorpusFieldNames[f] +
                             ") is " + field.type_name + ", expected " + shape_name(kShapes[f]));
    impl->fields.push_back(index);
  }
  return std::unique_ptr<CorpusParquetReader>(new CorpusParquetReader(std::move(impl)));
}

Result<bool> CorpusParquetReader::next(CorpusBatch& b) {
  b.clear();
  parquet::ColumnBatch& rb = impl_->read;
  MANAKA_ASSIGN_OR_RETURN(bool more, impl_->file->next_batch(impl_->fields, rb));
  if (!more) return false;
  const size_t n = static_cast<size_t>(rb.rows);
  b.rows = n;
  b.missing.assign(n, -1);
  b.keep_alive = std::move(rb.keep_alive);
  const auto& names = impl_->columns.names;
  auto column = [&](CorpusField f) -> const Column& { return *rb.find(names[static_cast<size_t>(f)]); };
  fill_strings(column(CorpusField::Sfen), b.sfen, b, CorpusField::Sfen);
  fill_strings(column(CorpusField::Move), b.move, b, CorpusField::Move);
  fill_ints(column(CorpusField::Ply), b.ply, b, CorpusField::Ply);
  fill_ints(column(CorpusField::Side), b.side, b, CorpusField::Side);
  fill_ints(column(CorpusField::Cp), b.cp, b, CorpusField::Cp);
  fill_ints(column(CorpusField::Result), b.result, b, CorpusField::Result);

  b.moves_at.reserve(n + 1);
  fill_list(column(CorpusField::CandMoves), b.moves_at, b, CorpusField::CandMoves,
            [&](const Column& values, int64_t begin, int64_t end, size_t row) {
              b.moves_at.back() = static_cast<uint32_t>(b.cand_moves.size());
              with_strings(values, [&](const auto& s) {
                append_strings(s, begin, end, b.cand_moves, b, row, CorpusField::CandMoves);
              });
            });
  b.moves_at.push_back(static_cast<uint32_t>(b.cand_moves.size()));
  b.cps_at.reserve(n + 1);
  fill_list(column(CorpusField::CandCp), b.cps_at, b, CorpusField::CandCp,
            [&](const Column& values, int64_t begin, int64_t end, size_t row) {
              b.cps_at.back() = static_cast<uint32_t>(b.cand_cp.size());
              with_ints(values, [&](const auto& s) {
                append_ints(s, begin, end, b.cand_cp, b, row, CorpusField::CandCp);
              });
            });
  b.cps_at.push_back(static_cast<uint32_t>(b.cand_cp.size()));
  return true;
}

}  // namespace manaka::teacher
