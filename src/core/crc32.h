// CRC-32 as zlib and Python's zlib.crc32 compute it: for finding damaged
// copies (manifests, zip members), not for resisting tampering.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/status.h"

namespace manaka {

// Continues crc over n bytes; start from 0.
uint32_t crc32_update(uint32_t crc, const void* data, size_t n);
inline uint32_t crc32(std::string_view bytes) { return crc32_update(0, bytes.data(), bytes.size()); }

// 8 lowercase hex digits: of bytes, of a file's contents, of a CRC already computed.
std::string crc32_hex(std::string_view bytes);
std::string crc32_text(uint32_t crc);
Result<std::string> crc32_file(const std::string& path);

}  // namespace manaka
