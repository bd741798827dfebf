// A SAZ2 file is one chunk (as rsshogi's write_sazpack_file writes it and
// decode_sazpack_file reads it). Opening one checks the header and the
// file's length before the payload is touched; writing goes through a
// temporary renamed into place once complete.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/status.h"

namespace manaka::sazpack {

// A chunk file's bytes: a regular file is mapped read-only (no copy; like
// any mapping it assumes the file is not truncated while open), anything
// else (a pipe) is read into memory a block at a time.
class ChunkFile {
 public:
  // Refusals start with the path: "a.saz: byte 4: version 3 ...".
  static Result<ChunkFile> open(const std::string& path);

  ChunkFile() = default;
  ChunkFile(ChunkFile&& other) noexcept;
  ChunkFile& operator=(ChunkFile&& other) noexcept;
  ChunkFile(const ChunkFile&) = delete;
  ChunkFile& operator=(const ChunkFile&) = delete;
  ~ChunkFile();

  std::span<const uint8_t> bytes() const { return {data_, size_}; }
  const std::string& path() const { return path_; }

 private:
  void release();

  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  void* map_ = nullptr;  // the mapping, when there is one
  std::vector<uint8_t> owned_;
  std::string path_;
};

// Writes the bytes to "<path>.tmp-<pid>" and renames it onto path.
Status write_chunk_file(const std::string& path, std::span<const uint8_t> chunk);

}  // namespace manaka::sazpack
