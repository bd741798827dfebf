// The shard schema (docs: "Parquet"), described for the parquet adapter.
// Every column is required (non-null) except candidates.element.cp, which is
// null on every row of a shard made from visit-sourced (self-play) streams
// and present on every row of a cp-sourced (teacher) one:
//
//   packed      fixed_size_binary[96]  not null
//   ply         uint16                 not null
//   value_z     float                  not null
//   value_q     float                  not null
//   weight      uint32                 not null
//   candidates  list<element: struct<mv: uint16 not null,
//                                    prob: float not null,
//                                    cp: int16>  not null>  not null
//
// The list's element field is named "element", as Parquet's compliant
// nested types name it on disk, so the Arrow schema reads back the same with
// or without the stored ARROW:schema.
#pragma once

#include <string>
#include <vector>

#include "core/status.h"
#include "parquet/column.h"

namespace manaka::shard {

namespace column {
inline constexpr int kPacked = 0, kPly = 1, kValueZ = 2, kValueQ = 3, kWeight = 4,
                     kCandidates = 5;
inline constexpr int kCount = 6;
// Fields of the candidate struct, in order.
inline constexpr int kMv = 0, kProb = 1, kCp = 2;
}  // namespace column

// The six columns, in column::k* order.
const std::vector<parquet::Field>& shard_fields();

// Ok when `fields` has the shard columns with the shard types (nullability,
// list element names and metadata aside, so files written by other tools
// still read); otherwise Invalid naming path and the first column that differs.
Status check_schema(const std::vector<parquet::Field>& fields, const std::string& path);

}  // namespace manaka::shard
