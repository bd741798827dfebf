// A shard set: the files <prefix>-NNNNN.parquet one pack run writes, which
// readers take whole or not at all (docs/reliability.md, "Shard sets").
//
// Every shard's footer names its set:
//   manaka.set.id      16 hex digits: a fingerprint of what the run read and
//                      the options that order its rows (fold/pack.cpp), so
//                      two runs that would write different rows never share
//                      one, and the same run twice writes the same bytes
//   manaka.set.shard   this file's index, "0" .. count - 1
//   manaka.set.shards  how many files the set has
//   manaka.set.rows    rows in the whole set
// A set is written as temporaries, renamed into place together at the end,
// under a lock that keeps a second run off the prefix (lock_shard_set). A run
// killed while renaming leaves files of two sets under one prefix, which
// check_shard_sets refuses, naming them; rerunning the pack repairs it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/file_lock.h"
#include "core/status.h"

namespace manaka::shard {

inline constexpr const char* kSetIdKey = "manaka.set.id";
inline constexpr const char* kSetShardKey = "manaka.set.shard";
inline constexpr const char* kSetShardsKey = "manaka.set.shards";
inline constexpr const char* kSetRowsKey = "manaka.set.rows";

// The footer pairs of shard `index` of a set.
std::vector<std::pair<std::string, std::string>> set_footer(uint64_t set_id, uint64_t index, uint64_t count,
                                                            uint64_t rows);

// "<prefix>-NNNNN.parquet" files (digits only) beside prefix, sorted by index.
Result<std::vector<std::pair<uint64_t, std::string>>> existing_shards(const std::string& prefix);

// The index of file name "<prefix_name>-NNNNN.parquet" (digits only), or -1.
int64_t shard_file_index(std::string_view file_name, std::string_view prefix_name);

// The prefix of a shard file name ("out/train" for out/train-00012.parquet),
// or "" when the name is not of that form.
std::string shard_prefix(const std::string& path);

// Refuses files that do not make whole sets: files of one prefix from
// different sets, and a set missing some of its shards (with
// require_complete). Files without set keys (written before sets were
// recorded, or by other tools) pass unchecked. Reads only the footers.
Status check_shard_sets(const std::vector<std::string>& paths, bool require_complete = true);

// The lock that keeps a second run off a prefix: core/file_lock.h on
// "<dir>/.<name>.lock".
Result<FileLock> lock_shard_set(const std::string& prefix);

}  // namespace manaka::shard
