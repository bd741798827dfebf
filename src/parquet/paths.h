// Inputs named on a command line as parquet files: each path is a file,
// taken as given, or a directory, standing for its *.parquet files in name
// order (hidden "." and "_" files, such as _manifest.json or
// _SUCCESS markers, left out).
#pragma once

#include <string>
#include <vector>

#include "core/status.h"

namespace manaka::parquet {

// A path that does not exist is an I/O error naming it; a directory without
// a *.parquet file is refused naming it. left_out, when given, receives the
// directories' other files (hidden, "_", not *.parquet: a .jsonl or a
// .PARQUET beside the shards), for a summary to say what was not read.
Result<std::vector<std::string>> expand_parquet_paths(const std::vector<std::string>& paths,
                                                      std::vector<std::string>* left_out = nullptr);

}  // namespace manaka::parquet
