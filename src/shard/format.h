// The shard format's constants and file naming: what the fold and the Python
// side include. The schema is in shard/schema.h, the row in shard/row.h; no
// file of src/shard includes Arrow (the parquet adapter, src/parquet, does).
#pragma once

#include <cstdint>
#include <string>

namespace manaka::shard {

// Rows per shard unless told otherwise: 128 row groups.
inline constexpr uint64_t kDefaultRowsPerShard = uint64_t{1} << 20;
// Rows per row group, set explicitly: the reader's unit of decompression.
inline constexpr int64_t kRowGroupRows = 8192;
// zstd at its lowest level.
inline constexpr int kZstdLevel = 1;

// "<prefix>-00012.parquet": five digits from 00000 (more past 99999).
std::string shard_path(const std::string& prefix, uint64_t index);

}  // namespace manaka::shard
