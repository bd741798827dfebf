// Where a streaming reader pulls bytes from: a file, plain or zstd-compressed
// (detected by its magic number, whatever its name, as Lichess's .pgn.zst),
// or bytes in memory. The PGN reader reads through it; so will any text or
// record format that may arrive compressed.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "core/status.h"

namespace manaka {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Up to n bytes into buf; fewer only at the end, 0 once there. A zstd
  // stream that is corrupt or cut inside a frame is an error naming the file
  // and the compressed byte.
  virtual Result<size_t> read(char* buf, size_t n) = 0;
};

// Opens path; one that starts with 28 B5 2F FD is decompressed as it is
// read, frame after frame.
Result<std::unique_ptr<ByteSource>> open_byte_source(const std::string& path);

// Bytes that outlive the source.
std::unique_ptr<ByteSource> memory_source(std::string_view bytes);

}  // namespace manaka
