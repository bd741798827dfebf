#include "core/crc32.h"

#include <zlib.h>

#include <cstdio>
#include <vector>

#include "core/file.h"

namespace manaka {

namespace {

constexpr size_t kFileBuffer = size_t{1} << 20;

std::string hex32(uint32_t crc) {
  char out[9];
  std::snprintf(out, sizeof out, "%08x", crc);
  return out;
}

}  // namespace

uint32_t crc32_update(uint32_t crc, const void* data, size_t n) {
  // zlib answers a null buffer with the initial value, 0, whatever crc was;
  // an empty piece (an empty vector's data() may be null) continues nothing.
  if (n == 0) return crc;
  return static_cast<uint32_t>(crc32_z(crc, static_cast<const Bytef*>(data), n));
}

std::string crc32_hex(std::string_view bytes) { return hex32(crc32(bytes)); }
std::string crc32_text(uint32_t crc) { return hex32(crc); }

Result<std::string> crc32_file(const std::string& path) {
  MANAKA_ASSIGN_OR_RETURN(InputFile in, InputFile::open(path));
  std::vector<char> buf(kFileBuffer);
  uint32_t crc = 0;
  for (;;) {
    MANAKA_ASSIGN_OR_RETURN(size_t n, in.read(buf.data(), buf.size()));
    if (n == 0) break;
    crc = crc32_update(crc, buf.data(), n);
  }
  return hex32(crc);
}

}  // namespace manaka
