// An npz archive read as named arrays, as numpy's np.load sees it: each
// member "NAME.npy" is the array NAME, a .npy header (npy_header.h) and
// its data. Any other member is refused (np.savez writes none).
//
// Opening reads only the zip's directories (zip_reader.h); an array's
// header is read when the array is opened, and checked against its member:
// header size + count(shape) * itemsize must be the member's inflated size
// exactly. The data is then read into the caller's memory, inflated and
// checksummed on the way.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/default_init.h"
#include "core/status.h"
#include "npz/npy_header.h"
#include "npz/zip_reader.h"

namespace manaka::npz {

constexpr std::string_view NPY_SUFFIX = ".npy";

// One array, opened: its header read, its data next.
class ArrayReader {
 public:
  const NpyHeader& header() const { return header_; }
  const std::string& name() const { return name_; }
  // The header_.data_size bytes into out, then the member's end and CRC-32.
  Status read_data(void* out);

 private:
  friend class NpzReader;
  std::string name_;
  NpyHeader header_;
  MemberReader member_;
};

// A whole array in memory.
struct NpzArray {
  std::string name;
  DType dtype = DType::UInt8;
  std::vector<uint64_t> shape;
  UninitVector<uint8_t> data;  // count(shape) * itemsize(dtype) bytes, C order
};

class NpzReader {
 public:
  static Result<NpzReader> open(const std::string& path, const ZipLimits& limits = {});
  // bytes must outlive the reader; name is used in messages.
  static Result<NpzReader> from_memory(std::span<const uint8_t> bytes, std::string name,
                                       const ZipLimits& limits = {});

  const std::string& path() const { return zip_.path(); }
  const ZipReader& zip() const { return zip_; }
  // The array names in archive order.
  const std::vector<std::string>& names() const { return names_; }
  bool contains(std::string_view name) const;

  Result<ArrayReader> open_array(std::string_view name) const;
  Result<NpzArray> read(std::string_view name) const;

 private:
  static Result<NpzReader> with_zip(ZipReader zip);

  ZipReader zip_;
  std::vector<std::string> names_;
};

}  // namespace manaka::npz
