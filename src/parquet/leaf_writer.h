// Row groups written leaf by leaf through parquet's own column writers, the
// definition and repetition levels computed here from the columns' plain
// layout, instead of through Arrow's FileWriter, which derives every leaf's
// levels by a general walk of nested arrays and writes a nullable leaf
// "spaced" (a fifth of pack's encoding time for the candidates list). The
// pages are parquet's, the same bytes either way (tests/cpp/parquet).
//
// Layouts taken: top-level fixed-width columns (integers, floats,
// fixed-size binary) that are not nullable, and non-nullable lists of
// non-nullable structs of such fields (those may be nullable): shards'
// columns. Anything else goes through Arrow's writer.
#pragma once

#include <climits>
#include <cstdint>
#include <span>
#include <vector>

#include "core/status.h"
#include "parquet/column.h"

namespace parquet {
class RowGroupWriter;
class SchemaDescriptor;
}  // namespace parquet

namespace manaka::parquet {

// Whether every field is one the leaf writer takes, and the file's leaves
// (as Arrow laid them out) are of the physical types and levels it writes.
bool leaf_writable(const std::vector<Field>& schema, const ::parquet::SchemaDescriptor& leaves);

// Buffers reused from row group to row group.
struct LeafScratch {
  std::vector<int32_t> int32s;  // narrow integers widened
  std::vector<const uint8_t*> fixed;
  std::vector<int16_t> def, rep;
  std::vector<uint8_t> values;  // a nullable leaf's non-null values, packed
};

// Leaves [begin, end) of a file, in schema order (a list of structs has a
// leaf per struct field).
struct LeafRange {
  int begin = 0;
  int end = INT_MAX;
};

// Rows [first, first + rows) of `columns` (one per schema field) as the
// leaves of the row group `group`: its columns taken in order (NextColumn),
// or by index in a buffered row group, where a range of them may be written
// (each range on its own thread, with its own scratch).
Status write_leaves(::parquet::RowGroupWriter& group, const std::vector<Field>& schema,
                    std::span<const Column> columns, int64_t first, int64_t rows, LeafScratch& scratch,
                    LeafRange range = {});

}  // namespace manaka::parquet
