#include "parquet/library_error.h"

#include <cstring>

namespace manaka::parquet {

Status library_error(const std::string& context, const std::string& message, int os_error, bool io) {
  std::string text = context + ": " + message;
  if (os_error > 0) {
    const char* reason = std::strerror(os_error);
    if (text.find(reason) == std::string::npos) text += std::string(": ") + reason;
    return Status::io(text);
  }
  return io ? Status::io(text) : Status::invalid(text);
}

}  // namespace manaka::parquet
