// Writing a zip archive the way Python's zipfile writes numpy's savez and
// savez_compressed: byte for byte the same archive for the same members
// (with the same zlib and level; zlib's default, 6, is numpy's).
//
//   - each member gets a local header with ZIP64 sizes (numpy forces ZIP64
//     there), version needed 4.5, time 1980-01-01 00:00, no data descriptor;
//   - its central directory entry holds plain 32-bit fields unless a size
//     or offset exceeds 2^31 - 1, then a ZIP64 extra field (zipfile's rule);
//   - a ZIP64 end record and locator precede the end record when the entry
//     count exceeds 65535 or the central directory lies or reaches past
//     2^31 - 1.
// Zip64::Always puts ZIP64 in every central entry and the end record (the
// 32-bit fields all ones), which zipfile never does for small archives;
// it exists so that the ZIP64 paths of readers can be tested on small files.
//
// The archive is written to "<path>.tmp-<pid>" and renamed onto path by
// commit(); destroyed uncommitted, nothing appears under path.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

#include "core/file.h"
#include "core/status.h"
#include "npz/zip_reader.h"

namespace manaka::npz {

struct ZipWriteOptions {
  bool compress = true;  // deflate (savez_compressed) or store (savez)
  int level = -1;        // zlib level, -1 its default (6); 0 to 9
  enum class Zip64 : uint8_t { AsZipfile, Always } zip64 = Zip64::AsZipfile;
};

class ZipWriter {
 public:
  static Result<ZipWriter> create(const std::string& path, const ZipWriteOptions& options = {});

  ZipWriter() = default;
  ZipWriter(ZipWriter&&) noexcept = default;
  ZipWriter& operator=(ZipWriter&&) noexcept = default;

  // One member whose bytes are the pieces, in order.
  Status add(const std::string& name, std::initializer_list<std::span<const uint8_t>> pieces);
  // The central directory and end record, then the rename.
  Status commit();
  const std::string& path() const { return file_.final_path(); }

 private:
  Status write(const void* data, size_t n);

  ZipWriteOptions options_;
  AtomicFile file_;
  uint64_t offset_ = 0;
  std::vector<ZipEntry> entries_;
  std::vector<uint8_t> buffer_;  // the member being compressed, reused
};

}  // namespace manaka::npz
