// Column views (parquet/column.h) over a test's own vectors, for the writer
// tests: fixed-width columns, and a shard's candidates list
// (list<struct<mv uint16, prob float, cp int16 nullable>>).
#pragma once

#include <cstdint>

#include "parquet/column.h"

namespace manaka::parquet::testing {

inline Column fixed_column(Type type, int64_t length, const void* values, int32_t byte_width = 0) {
  Column c;
  c.type = type;
  c.length = length;
  c.values = values;
  c.byte_width = byte_width;
  return c;
}

// rows lists by offsets (rows + 1 of them) over m candidates; cp_valid may
// be null (no nulls).
inline Column candidates_column(int64_t rows, const int32_t* offsets, int64_t m, const uint16_t* mv,
                                const float* prob, const int16_t* cp, const uint8_t* cp_valid, int64_t cp_nulls) {
  Column cp_col = fixed_column(Type::Int16, m, cp);
  cp_col.validity = cp_valid;
  cp_col.null_count = cp_nulls;
  Column cand;
  cand.type = Type::Struct;
  cand.length = m;
  cand.children = {fixed_column(Type::UInt16, m, mv), fixed_column(Type::Float, m, prob), cp_col};
  Column list;
  list.type = Type::List;
  list.length = rows;
  list.offsets = offsets;
  list.children = {cand};
  return list;
}

}  // namespace manaka::parquet::testing
