// A column grown one value at a time into plain vectors laid out as Arrow
// lays them (parquet/column.h), then viewed as a Column for a writer: the
// writers' builders, without Arrow. Capacity is kept across clear(), so a
// builder reused batch after batch stops allocating.
#pragma once

#include <cassert>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

#include "parquet/column.h"

namespace manaka::parquet {

class ColumnBuilder {
 public:
  // Bool, the integer and float types, Utf8/Binary, or List of those.
  explicit ColumnBuilder(const Field& field);

  // A fixed-width value; T must be the field's type (int32_t for Int32, ...).
  template <typename T>
  void append(T value) {
    assert(sizeof(T) == width_);
    const size_t at = values_.size();
    values_.resize(at + sizeof(T));
    std::memcpy(values_.data() + at, &value, sizeof(T));
    append_valid();
  }
  void append_bool(bool value);
  void append_text(std::string_view value);
  void append_null();
  // List: append the elements to element(), then end_list() closes the row.
  ColumnBuilder& element() { return *element_; }
  void end_list();

  int64_t length() const { return length_; }
  // Views into this builder, valid until the next append or clear.
  Column column() const;
  void clear();

 private:
  void append_valid();

  Type type_;
  size_t width_ = 0;               // bytes of a fixed-width value
  std::vector<uint8_t> values_;    // fixed width, or Bool bits
  std::vector<uint8_t> validity_;  // empty until the first null
  std::vector<int32_t> offsets_;   // Utf8/Binary/List: length + 1
  std::vector<uint8_t> data_;      // Utf8/Binary bytes
  int64_t length_ = 0, nulls_ = 0;
  std::unique_ptr<ColumnBuilder> element_;
};

}  // namespace manaka::parquet
