#include "npz/npz_writer.h"

#include "core/text.h"
#include "npz/npz_reader.h"

namespace manaka::npz {

Result<NpzWriter> NpzWriter::create(const std::string& path, const ZipWriteOptions& options) {
  MANAKA_ASSIGN_OR_RETURN(ZipWriter zip, ZipWriter::create(path, options));
  NpzWriter w;
  w.zip_ = std::move(zip);
  return w;
}

Status NpzWriter::add(const std::string& name, DType dtype, std::span<const uint64_t> shape, const void* data) {
  uint64_t bytes = itemsize(dtype);
  for (uint64_t d : shape) {
    if (__builtin_mul_overflow(bytes, d, &bytes))
      return Status::invalid(path() + ": array '" + printable(name) + "': shape " + shape_text(shape) +
                             " overflows 64 bits");
  }
  const std::string header = format_npy_header(dtype, shape);
  return zip_.add(name + std::string(NPY_SUFFIX),
                  {std::span(reinterpret_cast<const uint8_t*>(header.data()), header.size()),
                   std::span(static_cast<const uint8_t*>(data), bytes)});
}

}  // namespace manaka::npz
