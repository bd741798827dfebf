// The output policy every command follows (docs/reliability.md):
//   1. an output that is one of the inputs (the same file by device and
//      inode, whatever path names it) is refused, --overwrite or not;
//   2. an existing output is refused unless the caller asked to overwrite;
//   3. the output appears under its final name only when complete (the
//      writers' part: core/temporary.h; a shard set's: shard/set_publish.h);
//   4. a directory is replaced only when it holds what the command itself
//      writes there (a manifest of ours), never an arbitrary directory;
//   5. one input named twice (by any path) is refused: it would count twice.
#pragma once

#include <string>
#include <vector>

#include "core/status.h"

namespace manaka {

// Rules 1 and 2 for one output path. Inputs that do not exist are ignored
// here (opening them reports that); directories among the inputs are
// compared as themselves, not by what they hold.
Status check_output(const std::string& output, const std::vector<std::string>& inputs, bool overwrite);

// The same for an output that is a directory (self-play, vpd to-parquet):
// an existing directory is replaced with overwrite (TempDir::commit) when it
// is empty or holds `marker` (the file name of the manifest the command
// writes there); one that is or holds an input is refused, overwrite or not
// (replacing it would remove the input); an existing file there is refused.
Status check_output_dir(const std::string& output, const std::vector<std::string>& inputs, bool overwrite,
                        const std::string& marker);

// Rule 1 alone for a directory output: refused when it is an input or would
// contain one (the engine, a checkpoint), whatever it holds now.
Status check_dir_not_input(const std::string& output, const std::vector<std::string>& inputs);

// Rule 5: the first input that names the same file as an earlier one.
Status check_distinct_inputs(const std::vector<std::string>& inputs);

// Rule 1 alone: whether path is the same file as one of inputs; names it.
Status check_not_input(const std::string& path, const std::vector<std::string>& inputs);

}  // namespace manaka
