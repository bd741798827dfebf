// Reads that stop at a documented size, so that a wrong file (a device such
// as /dev/zero, a binary given as text, a file without newlines) is refused
// with its name instead of growing a buffer until memory runs out.
//
//   kMaxSmallFileBytes  a config, a thresholds file, a manifest: 16 MiB
//   kMaxLineBytes       one line of a JSON-lines or text input: 16 MiB
#pragma once

#include <cstddef>
#include <istream>
#include <string>
#include <string_view>

#include "core/status.h"

namespace manaka {

inline constexpr size_t kMaxSmallFileBytes = size_t{16} << 20;
inline constexpr size_t kMaxLineBytes = size_t{16} << 20;

// The whole of a small file. `what` names it in the errors ("the thresholds
// file"): one that cannot be opened, or is longer than limit bytes.
Result<std::string> read_small_file(const std::string& path, std::string_view what,
                                    size_t limit = kMaxSmallFileBytes);

// std::getline with a cap: false at the end of the input; a line longer
// than limit is an error naming path and the line's number (line_no, from 1).
Result<bool> read_line(std::istream& in, std::string& line, const std::string& path, uint64_t line_no,
                       size_t limit = kMaxLineBytes);

}  // namespace manaka
