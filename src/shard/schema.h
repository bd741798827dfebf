// The shard schema (docs: "Parquet"). Every column is required (non-null)
// except candidates.element.cp, which is null on every row of a shard made
// from visit-sourced (self-play) streams and present on every row of a
// cp-sourced (teacher) one:
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

#include <arrow/api.h>

#include <memory>
#include <string>

#include "core/status.h"

namespace manaka::shard {

namespace column {
inline constexpr int kPacked = 0, kPly = 1, kValueZ = 2, kValueQ = 3, kWeight = 4,
                     kCandidates = 5;
inline constexpr int kCount = 6;
}  // namespace column

std::shared_ptr<arrow::Schema> shard_schema();
std::shared_ptr<arrow::DataType> candidate_type();  // the struct

// Ok when `schema` has the shard columns with the shard types (nullability
// and metadata aside, so files written by other tools still read); otherwise
// Invalid naming path and the first column that differs.
Status check_schema(const arrow::Schema& schema, const std::string& path);

}  // namespace manaka::shard
