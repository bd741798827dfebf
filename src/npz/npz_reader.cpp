#include "npz/npz_reader.h"

#include <algorithm>

#include "core/text.h"

namespace manaka::npz {

namespace {

bool has_npy_suffix(const std::string& member) {
  return member.size() > NPY_SUFFIX.size() &&
         member.compare(member.size() - NPY_SUFFIX.size(), NPY_SUFFIX.size(), NPY_SUFFIX) == 0;
}

}  // namespace

Status ArrayReader::read_data(void* out) {
  MANAKA_RETURN_NOT_OK(member_.read_exact(out, header_.data_size));
  return member_.finish();
}

Result<NpzReader> NpzReader::with_zip(ZipReader zip) {
  NpzReader r;
  for (const ZipEntry& e : zip.entries()) {
    if (!has_npy_suffix(e.name))
      return Status::invalid(zip.member_context(e) + "not a .npy array (an npz archive holds NAME.npy members)");
    r.names_.push_back(e.name.substr(0, e.name.size() - NPY_SUFFIX.size()));
  }
  r.zip_ = std::move(zip);
  return r;
}

Result<NpzReader> NpzReader::open(const std::string& path, const ZipLimits& limits) {
  MANAKA_ASSIGN_OR_RETURN(ZipReader zip, ZipReader::open(path, limits));
  return with_zip(std::move(zip));
}

Result<NpzReader> NpzReader::from_memory(std::span<const uint8_t> bytes, std::string name, const ZipLimits& limits) {
  MANAKA_ASSIGN_OR_RETURN(ZipReader zip, ZipReader::from_memory(bytes, std::move(name), limits));
  return with_zip(std::move(zip));
}

bool NpzReader::contains(std::string_view name) const {
  return std::find(names_.begin(), names_.end(), name) != names_.end();
}

Result<ArrayReader> NpzReader::open_array(std::string_view name) const {
  const ZipEntry* entry = zip_.find(std::string(name) + std::string(NPY_SUFFIX));
  if (!entry) return Status::invalid(path() + ": no array '" + printable(name) + "'");
  const std::string context = zip_.member_context(*entry);
  ArrayReader a;
  a.name_ = std::string(name);
  MANAKA_ASSIGN_OR_RETURN(a.member_, zip_.open_member(*entry));

  // The preamble (10 bytes, 12 from version 2 on), then the rest of the header.
  std::vector<uint8_t> header(NPY_PREAMBLE_V1);
  MANAKA_ASSIGN_OR_RETURN(size_t got, a.member_.read(header.data(), header.size()));
  if (got == NPY_PREAMBLE_V1 && header[6] >= 2) {
    header.resize(NPY_PREAMBLE_V2);
    MANAKA_ASSIGN_OR_RETURN(size_t more, a.member_.read(header.data() + got, NPY_PREAMBLE_V2 - got));
    got += more;
  }
  header.resize(got);
  auto size = npy_header_size(header);
  if (!size.ok()) return std::move(size).take_status().with_context(context);
  if (*size > entry->uncompressed_size)
    return Status::invalid(context + "a .npy header of " + std::to_string(*size) + " bytes in a member of " +
                           std::to_string(entry->uncompressed_size));
  // npy_header_size is at least the preamble just read, so nothing was read past the header.
  const size_t have = header.size();
  header.resize(*size);
  MANAKA_RETURN_NOT_OK(a.member_.read_exact(header.data() + have, header.size() - have));
  auto parsed = parse_npy_header(header);
  if (!parsed.ok()) return std::move(parsed).take_status().with_context(context);
  a.header_ = std::move(*parsed);
  const uint64_t data_bytes = entry->uncompressed_size - a.header_.header_size;
  if (a.header_.data_size != data_bytes)
    return Status::invalid(context + "shape " + shape_text(a.header_.shape) + " of '" +
                           std::string(descr(a.header_.dtype)) + "' is " + std::to_string(a.header_.data_size) +
                           " bytes, but the member holds " + std::to_string(data_bytes) + " after its header");
  return a;
}

Result<NpzArray> NpzReader::read(std::string_view name) const {
  MANAKA_ASSIGN_OR_RETURN(ArrayReader a, open_array(name));
  NpzArray out;
  out.name = std::string(name);
  out.dtype = a.header().dtype;
  out.shape = a.header().shape;
  out.data.resize(a.header().data_size);
  MANAKA_RETURN_NOT_OK(a.read_data(out.data.data()));
  return out;
}

}  // namespace manaka::npz
