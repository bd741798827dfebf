// An npz archive written as named arrays, as numpy's np.savez_compressed
// (ZipWriteOptions::compress, the default) or np.savez writes it: each
// array NAME becomes the member "NAME.npy", numpy's .npy header
// (format_npy_header) followed by the data in C order. For the same arrays
// in the same order the archive is byte for byte numpy's (zip_writer.h).
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "core/status.h"
#include "npz/npy_header.h"
#include "npz/zip_writer.h"

namespace manaka::npz {

class NpzWriter {
 public:
  static Result<NpzWriter> create(const std::string& path, const ZipWriteOptions& options = {});

  // data holds count(shape) * itemsize(dtype) bytes, C order, little-endian.
  Status add(const std::string& name, DType dtype, std::span<const uint64_t> shape, const void* data);
  // Completes the archive and renames it onto its path.
  Status commit() { return zip_.commit(); }
  const std::string& path() const { return zip_.path(); }

 private:
  ZipWriter zip_;
};

}  // namespace manaka::npz
