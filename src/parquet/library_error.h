// How the adapter reports a failure of Arrow/Parquet (the .cpp files pass the
// library's status apart, so this header names no Arrow type).
#pragma once

#include <string>

#include "core/status.h"

namespace manaka::parquet {

// "<context>: <message>", with the operating system's reason appended when
// the library kept an errno apart from its message ("Error writing bytes to
// file" + ENOSPC -> "...: Error writing bytes to file: No space left on
// device"). IO when there is an errno or the library says IO, else Invalid.
Status library_error(const std::string& context, const std::string& message, int os_error, bool io);

}  // namespace manaka::parquet
