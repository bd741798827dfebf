// Columns in Arrow's columnar layout, described and viewed with manaka's own
// plain types: what the parquet adapter's readers hand out and its writers
// take. No Arrow type appears here (the adapter's .cpp files convert), so a
// caller of parquet/ does not compile Arrow's headers.
//
// The layout is Arrow's (arrow.apache.org/docs/format/Columnar.html), so the
// conversion is a wrap, never a copy:
//   validity  bit (offset + i) set = element i valid, LSB first; null: no nulls
//   values    fixed width: element i at values[offset + i]; Bool: bits like
//             validity; Utf8View/BinaryView: 16-byte views
//   offsets   Utf8/Binary/List: int32 (Large*: int64), element i spans
//             [offsets[offset + i], offsets[offset + i + 1]) of data / children[0]
//   children  List: {the values}; Struct: one per field, element i of a child
//             being field k of element i (the parent's offset applied);
//             Dictionary: {the indices (with the validity), the dictionary}
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace manaka::parquet {

enum class Type : uint8_t {
  Bool, Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64, Float, Double,
  Utf8, LargeUtf8, Utf8View, Binary, LargeBinary, BinaryView, FixedSizeBinary,
  List, LargeList, Struct, Dictionary,
  Other,  // read only: a type no manaka reader takes (named in Field::type_name)
};

inline bool is_integer(Type t) { return t >= Type::Int8 && t <= Type::UInt64; }
// Strings and bytes, in any of Arrow's three layouts.
inline bool is_text(Type t) { return t >= Type::Utf8 && t <= Type::BinaryView; }
inline bool is_list(Type t) { return t == Type::List || t == Type::LargeList; }
// Bytes of one value of a fixed-width numeric type; 0 for any other type.
inline int value_width(Type t) {
  switch (t) {
    case Type::Int8: case Type::UInt8: return 1;
    case Type::Int16: case Type::UInt16: return 2;
    case Type::Int32: case Type::UInt32: case Type::Float: return 4;
    case Type::Int64: case Type::UInt64: case Type::Double: return 8;
    default: return 0;
  }
}

// One column of a schema. Writers take a description; readers fill one,
// type_name included.
struct Field {
  std::string name;
  Type type = Type::Int32;
  bool nullable = true;
  int32_t byte_width = 0;       // FixedSizeBinary
  std::vector<Field> children;  // List: {element}; Struct: fields; Dictionary: {indices, values}
  std::string type_name;        // as Arrow spells it ("list<item: int32>"); filled by readers
};

// Descriptions, spelled as Arrow's factories are.
inline Field field(std::string name, Type type, bool nullable = true) {
  Field f;
  f.name = std::move(name);
  f.type = type;
  f.nullable = nullable;
  return f;
}
inline Field fixed_size_binary(std::string name, int32_t byte_width, bool nullable = true) {
  Field f = field(std::move(name), Type::FixedSizeBinary, nullable);
  f.byte_width = byte_width;
  return f;
}
inline Field list_of(std::string name, Field element, bool nullable = true) {
  Field f = field(std::move(name), Type::List, nullable);
  f.children.push_back(std::move(element));
  return f;
}
inline Field struct_of(std::string name, std::vector<Field> fields, bool nullable = true) {
  Field f = field(std::move(name), Type::Struct, nullable);
  f.children = std::move(fields);
  return f;
}

// The type as Arrow spells it, for messages ("fixed_size_binary[96]").
std::string type_name(const Field& field);

// One column's elements, borrowed: the pointers stay valid while whatever
// owns the buffers lives (a ColumnBatch's keep_alive, or the writer's caller
// until write() returns).
struct Column {
  Type type = Type::Int32;
  int64_t length = 0;
  int64_t offset = 0;
  int64_t null_count = 0;
  const uint8_t* validity = nullptr;
  const void* values = nullptr;
  const void* offsets = nullptr;
  const uint8_t* data = nullptr;          // Utf8/Binary bytes
  std::vector<const uint8_t*> view_data;  // Utf8View/BinaryView: the data buffers
  int32_t byte_width = 0;                 // FixedSizeBinary
  std::vector<Column> children;

  bool is_null(int64_t i) const {
    if (validity == nullptr) return false;
    const int64_t bit = offset + i;
    return ((validity[bit >> 3] >> (bit & 7)) & 1) == 0;
  }
  // Fixed-width values from element 0.
  template <typename T>
  const T* values_as() const {
    return static_cast<const T*>(values) + offset;
  }
  // Utf8/Binary/List offsets from element 0 (int32_t, or int64_t for Large*).
  template <typename O>
  const O* offsets_as() const {
    return static_cast<const O*>(offsets) + offset;
  }
};

// Plain typed access for the text layouts, chosen once per column: element
// i's bytes as a view into the column's buffers.
template <typename O>
struct TextOffsets {
  const Column& c;
  const O* at = c.offsets_as<O>();
  std::string_view operator()(int64_t i) const {
    return {reinterpret_cast<const char*>(c.data) + at[i], static_cast<size_t>(at[i + 1] - at[i])};
  }
};
// Utf8View/BinaryView: a 16-byte view holds its length, then the bytes inline
// (up to 12) or a prefix, a data buffer index and an offset into it.
struct TextViews {
  const Column& c;
  std::string_view operator()(int64_t i) const {
    const uint8_t* view = static_cast<const uint8_t*>(c.values) + 16 * (c.offset + i);
    int32_t size, buffer, at;
    std::memcpy(&size, view, 4);
    if (size <= 12) return {reinterpret_cast<const char*>(view + 4), static_cast<size_t>(size)};
    std::memcpy(&buffer, view + 8, 4);
    std::memcpy(&at, view + 12, 4);
    return {reinterpret_cast<const char*>(c.view_data[static_cast<size_t>(buffer)]) + at,
            static_cast<size_t>(size)};
  }
};

// Rows of columns read from a file, by name; the views point into buffers
// that keep_alive owns.
struct ColumnBatch {
  int64_t rows = 0;
  std::vector<std::string> names;
  std::vector<Column> columns;
  std::shared_ptr<const void> keep_alive;

  // The column named `name`, or null.
  const Column* find(std::string_view name) const {
    for (size_t i = 0; i < names.size(); ++i)
      if (names[i] == name) return &columns[i];
    return nullptr;
  }
};

}  // namespace manaka::parquet
