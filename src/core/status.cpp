#include "core/status.h"

namespace manaka {

const char* to_string(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Usage: return "usage";
    case ErrorKind::Invalid: return "invalid";
    case ErrorKind::Truncated: return "truncated";
    case ErrorKind::IO: return "io";
    case ErrorKind::Engine: return "engine";
  }
  return "unknown";
}

}  // namespace manaka
