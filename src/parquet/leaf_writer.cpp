#include "parquet/leaf_writer.h"

#include <parquet/column_writer.h>
#include <parquet/file_writer.h>
#include <parquet/schema.h>

#include <algorithm>
#include <cstring>
#include <string>

namespace manaka::parquet {

namespace {

// Arrow's physical type for a fixed-width field (parquet 2.x: unsigned
// integers as the signed type of their width, narrow ones widened to INT32).
::parquet::Type::type physical_of(Type t) {
  switch (t) {
    case Type::Int8: case Type::Int16: case Type::Int32:
    case Type::UInt8: case Type::UInt16: case Type::UInt32: return ::parquet::Type::INT32;
    case Type::Int64: case Type::UInt64: return ::parquet::Type::INT64;
    case Type::Float: return ::parquet::Type::FLOAT;
    case Type::Double: return ::parquet::Type::DOUBLE;
    case Type::FixedSizeBinary: return ::parquet::Type::FIXED_LEN_BYTE_ARRAY;
    default: return ::parquet::Type::UNDEFINED;
  }
}

bool fixed_width(const Field& f) { return physical_of(f.type) != ::parquet::Type::UNDEFINED; }

// Leaf `leaf`'s writer: by index in a buffered row group, else the next in order.
::parquet::ColumnWriter* column_at(::parquet::RowGroupWriter& group, int leaf) {
  return group.buffered() ? group.column(leaf) : group.NextColumn();
}

int width_of(const Field& f) { return f.type == Type::FixedSizeBinary ? f.byte_width : value_width(f.type); }

static_assert(sizeof(::parquet::FixedLenByteArray) == sizeof(const uint8_t*),
              "LeafScratch::fixed holds FixedLenByteArray's one pointer");

// Leaf `leaf` of the descriptor holds what field f writes at the given levels.
bool leaf_is(const ::parquet::SchemaDescriptor& leaves, int leaf, const Field& f, int16_t max_def, int16_t max_rep) {
  if (leaf >= leaves.num_columns()) return false;
  const ::parquet::ColumnDescriptor& d = *leaves.Column(leaf);
  return d.physical_type() == physical_of(f.type) && d.max_definition_level() == max_def &&
         d.max_repetition_level() == max_rep &&
         (f.type != Type::FixedSizeBinary || d.type_length() == f.byte_width);
}

template <typename T>
void widen(const uint8_t* from, int64_t count, int32_t* to) {
  for (int64_t i = 0; i < count; ++i) {
    T x;
    std::memcpy(&x, from + i * static_cast<int64_t>(sizeof(T)), sizeof(T));
    to[i] = x;
  }
}

// `count` values of a fixed-width field from element `from` of c, written
// with the given levels; with skip_nulls, c's null elements are left out
// (the levels say where they were).
Status write_values(::parquet::ColumnWriter& w, const Field& f, const Column& c, int64_t from, int64_t count,
                    int64_t levels, const int16_t* def, const int16_t* rep, bool skip_nulls, LeafScratch& s) {
  const int width = width_of(f);
  const auto* base = static_cast<const uint8_t*>(c.values) + (c.offset + from) * width;
  const uint8_t* bytes = base;
  if (skip_nulls && c.validity && c.null_count > 0) {  // the non-null values, packed
    s.values.resize(static_cast<size_t>(count) * width);
    uint8_t* out = s.values.data();
    for (int64_t i = 0; i < count; ++i) {
      if (c.is_null(from + i)) continue;
      std::memcpy(out, base + i * width, static_cast<size_t>(width));
      out += width;
    }
    count = (out - s.values.data()) / width;
    bytes = s.values.data();
  }
  switch (physical_of(f.type)) {
    case ::parquet::Type::INT32: {
      const int32_t* v = reinterpret_cast<const int32_t*>(bytes);
      if (width != 4) {  // widened, by the field's signedness
        s.int32s.resize(static_cast<size_t>(count));
        switch (f.type) {
          case Type::Int8: widen<int8_t>(bytes, count, s.int32s.data()); break;
          case Type::UInt8: widen<uint8_t>(bytes, count, s.int32s.data()); break;
          case Type::Int16: widen<int16_t>(bytes, count, s.int32s.data()); break;
          default: widen<uint16_t>(bytes, count, s.int32s.data()); break;
        }
        v = s.int32s.data();
      }
      static_cast<::parquet::Int32Writer&>(w).WriteBatch(levels, def, rep, v);
      break;
    }
    case ::parquet::Type::INT64:
      static_cast<::parquet::Int64Writer&>(w).WriteBatch(levels, def, rep, reinterpret_cast<const int64_t*>(bytes));
      break;
    case ::parquet::Type::FLOAT:
      static_cast<::parquet::FloatWriter&>(w).WriteBatch(levels, def, rep, reinterpret_cast<const float*>(bytes));
      break;
    case ::parquet::Type::DOUBLE:
      static_cast<::parquet::DoubleWriter&>(w).WriteBatch(levels, def, rep, reinterpret_cast<const double*>(bytes));
      break;
    case ::parquet::Type::FIXED_LEN_BYTE_ARRAY: {
      s.fixed.resize(static_cast<size_t>(count));
      for (int64_t i = 0; i < count; ++i) s.fixed[i] = bytes + i * width;
      static_cast<::parquet::FixedLenByteArrayWriter&>(w).WriteBatch(
          levels, def, rep, reinterpret_cast<const ::parquet::FixedLenByteArray*>(s.fixed.data()));
      break;
    }
    default: return Status::invalid("the leaf writer takes no " + type_name(f) + " column");
  }
  return Status();
}

// A list column's rows [first, first + rows): each struct field's leaf, its
// levels from the offsets (an empty list is one level: repetition 0,
// definition 0) and the field's nulls.
Status write_list(::parquet::RowGroupWriter& group, const Field& f, const Column& c, int64_t first, int64_t rows,
                  LeafRange range, int& leaf, LeafScratch& s) {
  const Field& element_field = f.children.at(0);
  const int first_leaf = leaf;
  leaf += static_cast<int>(element_field.children.size());
  if (leaf <= range.begin || first_leaf >= range.end) return Status();
  const auto* off = c.offsets_as<int32_t>() + first;
  const int64_t lo = off[0], hi = off[rows];
  const Column& element = c.children.at(0);
  // Repetition levels (1, with 0 where a row starts), shared by the leaves;
  // an empty list is one level of its own.
  std::vector<int16_t>& rep = s.rep;
  int64_t empty = 0;
  for (int64_t r = 0; r < rows; ++r) empty += off[r + 1] == off[r];
  const int64_t levels = hi - lo + empty;
  rep.assign(static_cast<size_t>(levels), 1);
  for (int64_t r = 0, at = 0; r < rows; ++r) {
    rep[static_cast<size_t>(at)] = 0;
    at += std::max<int64_t>(off[r + 1] - off[r], 1);
  }
  // Definition levels: max_def for a value; 1 for a null field (max_def 2);
  // 0 for an empty list. mv's and prob's are the same array.
  int16_t def_for = -1;  // the max_def s.def was last filled for with no nulls
  for (size_t k = 0; k < element_field.children.size(); ++k) {
    const int index = first_leaf + static_cast<int>(k);
    if (index < range.begin || index >= range.end) continue;
    const Field& leaf = element_field.children[k];
    const Column& values = element.children.at(k);
    const int16_t max_def = leaf.nullable ? 2 : 1;
    const bool nulls = leaf.nullable && values.validity && values.null_count > 0;
    const bool all_null = nulls && values.null_count == hi - lo && values.length == hi - lo;
    const int16_t fill = all_null ? 1 : max_def;
    if (nulls && !all_null) {
      def_for = -1;
      s.def.resize(static_cast<size_t>(levels));
      for (int64_t r = 0, at = 0, e = lo; r < rows; ++r) {
        const int64_t n = off[r + 1] - off[r];
        if (n == 0) {
          s.def[static_cast<size_t>(at++)] = 0;
          continue;
        }
        for (int64_t i = 0; i < n; ++i, ++e, ++at)
          s.def[static_cast<size_t>(at)] = values.is_null(e) ? 1 : max_def;
      }
    } else if (def_for != fill) {
      def_for = fill;
      s.def.assign(static_cast<size_t>(levels), fill);
      if (empty > 0)
        for (int64_t r = 0, at = 0; r < rows; ++r) {
          const int64_t n = off[r + 1] - off[r];
          if (n == 0) s.def[static_cast<size_t>(at)] = 0;
          at += std::max<int64_t>(n, 1);
        }
    }
    ::parquet::ColumnWriter* w = column_at(group, index);
    MANAKA_RETURN_NOT_OK(write_values(*w, leaf, values, lo, all_null ? 0 : hi - lo, levels, s.def.data(), rep.data(),
                                      nulls && !all_null, s));
  }
  return Status();
}

}  // namespace

bool leaf_writable(const std::vector<Field>& schema, const ::parquet::SchemaDescriptor& leaves) {
  int leaf = 0;
  for (const Field& f : schema) {
    if (f.nullable) return false;
    if (fixed_width(f)) {
      if (!leaf_is(leaves, leaf++, f, 0, 0)) return false;
      continue;
    }
    if (f.type != Type::List || f.children.size() != 1) return false;
    const Field& element = f.children[0];
    if (element.type != Type::Struct || element.nullable || element.children.empty()) return false;
    for (const Field& child : element.children) {
      if (!fixed_width(child) || !leaf_is(leaves, leaf++, child, child.nullable ? 2 : 1, 1)) return false;
    }
  }
  return leaf == leaves.num_columns();
}

Status write_leaves(::parquet::RowGroupWriter& group, const std::vector<Field>& schema,
                    std::span<const Column> columns, int64_t first, int64_t rows, LeafScratch& scratch,
                    LeafRange range) {
  int leaf = 0;
  for (size_t i = 0; i < schema.size(); ++i) {
    const Field& f = schema[i];
    const Column& c = columns[i];
    // What Arrow's writer checks by validating the batch: the column is of
    // its field's type and holds the rows (and a list, its elements).
    if (c.type != f.type || c.length < first + rows ||
        (f.type == Type::FixedSizeBinary && c.byte_width != f.byte_width))
      return Status::invalid("column " + f.name + " is not a " + type_name(f) + " of " +
                             std::to_string(first + rows) + " rows");
    if (f.type == Type::List) {
      if (c.offset != 0 || c.children.size() != 1 || c.children[0].offset != 0)
        return Status::invalid(f.name + ": the leaf writer takes list columns from offset 0");
      const Column& element = c.children[0];
      const int64_t end = c.offsets_as<int32_t>()[first + rows];
      const Field& element_field = f.children.at(0);
      bool fits = element.type == Type::Struct && element.length >= end &&
                  element.children.size() == element_field.children.size();
      for (size_t k = 0; fits && k < element.children.size(); ++k)
        fits = element.children[k].type == element_field.children[k].type && element.children[k].length >= end;
      if (!fits) return Status::invalid("column " + f.name + ": its elements are not " + type_name(f) + "'s");
      MANAKA_RETURN_NOT_OK(write_list(group, f, c, first, rows, range, leaf, scratch));
      continue;
    }
    if (c.validity && c.null_count > 0) return Status::invalid(f.name + ": nulls in a column that is not nullable");
    const int index = leaf++;
    if (index < range.begin || index >= range.end) continue;
    ::parquet::ColumnWriter* w = column_at(group, index);
    MANAKA_RETURN_NOT_OK(write_values(*w, f, c, first, rows, rows, nullptr, nullptr, false, scratch));
  }
  return Status();
}

}  // namespace manaka::parquet
