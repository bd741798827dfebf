#include "npz/zip_writer.h"

#include <zlib.h>

#include <algorithm>

#include "core/bytes.h"
#include "core/crc32.h"
#include "core/text.h"
#include "npz/zip_format.h"

namespace manaka::npz {

namespace {

constexpr size_t ZLIB_CHUNK = size_t{1} << 30;  // zlib's counts are 32-bit
constexpr int ZLIB_MEM_LEVEL = 8;                // zlib's and Python's default

bool ascii(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

}  // namespace

Result<ZipWriter> ZipWriter::create(const std::string& path, const ZipWriteOptions& options) {
  if (options.level < -1 || options.level > 9)
    return Status::invalid(path + ": zlib level " + std::to_string(options.level) + " (-1 or 0 to 9)");
  MANAKA_ASSIGN_OR_RETURN(AtomicFile file, AtomicFile::create(path));
  ZipWriter w;
  w.options_ = options;
  w.file_ = std::move(file);
  return w;
}

Status ZipWriter::write(const void* data, size_t len) {
  MANAKA_RETURN_NOT_OK(file_.write_all(data, len));
  offset_ += len;
  return Status();
}

Status ZipWriter::add(const std::string& name, std::initializer_list<std::span<const uint8_t>> pieces) {
  const std::string context = path() + ": member '" + printable(name) + "': ";
  if (name.empty() || name.size() > 0xFFFF) return Status::invalid(context + "a name of 1 to 65535 bytes is needed");
  for (const ZipEntry& e : entries_)
    if (e.name == name) return Status::invalid(context + "a second member of this name");

  ZipEntry e;
  e.name = name;
  e.method = options_.compress ? METHOD_DEFLATED : METHOD_STORED;
  e.flags = ascii(name) ? 0 : FLAG_UTF8;
  e.header_offset = offset_;
  uint32_t crc = 0;
  for (auto piece : pieces) {
    crc = crc32_update(crc, piece.data(), piece.size());
    e.uncompressed_size += piece.size();
  }
  e.crc32 = crc;

  if (options_.compress) {
    z_stream s{};
    if (deflateInit2(&s, options_.level, Z_DEFLATED, -MAX_WBITS, ZLIB_MEM_LEVEL, Z_DEFAULT_STRATEGY) != Z_OK)
      return Status::io(context + "zlib's deflateInit2 failed (out of memory)");
    buffer_.resize(deflateBound(&s, e.uncompressed_size));
    uint64_t out = 0;
    // Each piece as Python's compressobj.compress() takes it (Z_NO_FLUSH),
    // then Z_FINISH as its flush(): the same bytes as zipfile's.
    auto pump = [&](const uint8_t* in, uint64_t len, int flush) -> int {
      int rc = Z_OK;
      do {
        const size_t take = static_cast<size_t>(std::min<uint64_t>(len, ZLIB_CHUNK));
        s.next_in = const_cast<Bytef*>(in);
        s.avail_in = static_cast<uInt>(take);
        in += take;
        len -= take;
        const int mode = len == 0 ? flush : Z_NO_FLUSH;
        do {
          if (out == buffer_.size()) buffer_.resize(buffer_.size() + buffer_.size() / 4 + (size_t{64} << 10));
          const size_t room = static_cast<size_t>(std::min<uint64_t>(buffer_.size() - out, ZLIB_CHUNK));
          s.next_out = buffer_.data() + out;
          s.avail_out = static_cast<uInt>(room);
          rc = deflate(&s, mode);
          out += room - s.avail_out;
        } while (rc == Z_OK && (s.avail_in > 0 || s.avail_out == 0 || mode == Z_FINISH));
        if (rc == Z_BUF_ERROR && mode == Z_NO_FLUSH) rc = Z_OK;  // nothing left to do: not an error
        if (rc != Z_OK && rc != Z_STREAM_END) return rc;
      } while (len > 0);
      return rc;
    };
    int rc = Z_OK;
    for (auto piece : pieces) {
      if (piece.empty()) continue;
      rc = pump(piece.data(), piece.size(), Z_NO_FLUSH);
      if (rc != Z_OK) break;
    }
    if (rc == Z_OK) rc = pump(nullptr, 0, Z_FINISH);
    deflateEnd(&s);
    if (rc != Z_STREAM_END) return Status::io(context + "zlib's deflate failed (" + std::to_string(rc) + ")");
    e.compressed_size = out;
  } else {
    e.compressed_size = e.uncompressed_size;
  }

  // Local header, ZIP64 sizes always (as numpy asks of zipfile).
  std::vector<uint8_t> h(LOCAL_HEADER_SIZE + name.size() + 4 + ZIP64_LOCAL_EXTRA_SIZE);
  uint8_t* p = h.data();
  store_u32(p, LOCAL_HEADER_SIG);
  store_u16(p + 4, VERSION_ZIP64);
  store_u16(p + 6, e.flags);
  store_u16(p + 8, e.method);
  store_u16(p + 10, DOS_TIME_1980);
  store_u16(p + 12, DOS_DATE_1980);
  store_u32(p + 14, e.crc32);
  store_u32(p + 18, U32_IN_ZIP64);
  store_u32(p + 22, U32_IN_ZIP64);
  store_u16(p + 26, static_cast<uint16_t>(name.size()));
  store_u16(p + 28, 4 + ZIP64_LOCAL_EXTRA_SIZE);
  std::copy(name.begin(), name.end(), p + LOCAL_HEADER_SIZE);
  uint8_t* x = p + LOCAL_HEADER_SIZE + name.size();
  store_u16(x, ZIP64_EXTRA_ID);
  store_u16(x + 2, ZIP64_LOCAL_EXTRA_SIZE);
  store_u64(x + 4, e.uncompressed_size);
  store_u64(x + 12, e.compressed_size);
  MANAKA_RETURN_NOT_OK(write(h.data(), h.size()));
  e.data_offset = offset_;
  if (options_.compress) {
    MANAKA_RETURN_NOT_OK(write(buffer_.data(), e.compressed_size));
  } else {
    for (auto piece : pieces) MANAKA_RETURN_NOT_OK(write(piece.data(), piece.size()));
  }
  entries_.push_back(std::move(e));
  return Status();
}

Status ZipWriter::commit() {
  const bool always = options_.zip64 == ZipWriteOptions::Zip64::Always;
  const uint64_t cd_offset = offset_;
  std::vector<uint8_t> h;
  for (const ZipEntry& e : entries_) {
    std::vector<uint64_t> z64;
    uint32_t csize = static_cast<uint32_t>(e.compressed_size), usize = static_cast<uint32_t>(e.uncompressed_size);
    uint32_t offset = static_cast<uint32_t>(e.header_offset);
    if (always || e.uncompressed_size > ZIPFILE_ZIP64_LIMIT || e.compressed_size > ZIPFILE_ZIP64_LIMIT) {
      z64.push_back(e.uncompressed_size);
      z64.push_back(e.compressed_size);
      csize = usize = U32_IN_ZIP64;
    }
    if (always || e.header_offset > ZIPFILE_ZIP64_LIMIT) {
      z64.push_back(e.header_offset);
      offset = U32_IN_ZIP64;
    }
    const size_t extra_len = z64.empty() ? 0 : 4 + 8 * z64.size();
    h.assign(CENTRAL_ENTRY_SIZE + e.name.size() + extra_len, 0);
    uint8_t* p = h.data();
    store_u32(p, CENTRAL_ENTRY_SIG);
    store_u8(p + 4, VERSION_ZIP64);
    store_u8(p + 5, SYSTEM_UNIX);
    store_u16(p + 6, VERSION_ZIP64);
    store_u16(p + 8, e.flags);
    store_u16(p + 10, e.method);
    store_u16(p + 12, DOS_TIME_1980);
    store_u16(p + 14, DOS_DATE_1980);
    store_u32(p + 16, e.crc32);
    store_u32(p + 20, csize);
    store_u32(p + 24, usize);
    store_u16(p + 28, static_cast<uint16_t>(e.name.size()));
    store_u16(p + 30, static_cast<uint16_t>(extra_len));
    // comment length, disk, internal attributes: 0
    store_u32(p + 38, EXTERNAL_ATTR_RW);
    store_u32(p + 42, offset);
    std::copy(e.name.begin(), e.name.end(), p + CENTRAL_ENTRY_SIZE);
    if (!z64.empty()) {
      uint8_t* x = p + CENTRAL_ENTRY_SIZE + e.name.size();
      store_u16(x, ZIP64_EXTRA_ID);
      store_u16(x + 2, static_cast<uint16_t>(8 * z64.size()));
      for (size_t i = 0; i < z64.size(); ++i) store_u64(x + 4 + 8 * i, z64[i]);
    }
    MANAKA_RETURN_NOT_OK(write(h.data(), h.size()));
  }
  const uint64_t cd_size = offset_ - cd_offset;
  const uint64_t count = entries_.size();
  uint64_t count16 = count, size32 = cd_size, offset32 = cd_offset;
  if (always || count > ZIPFILE_COUNT_LIMIT || cd_offset > ZIPFILE_ZIP64_LIMIT || cd_size > ZIPFILE_ZIP64_LIMIT) {
    const uint64_t z64_offset = offset_;
    uint8_t r[ZIP64_END_SIZE + ZIP64_LOCATOR_SIZE] = {};
    store_u32(r, ZIP64_END_SIG);
    store_u64(r + 4, ZIP64_END_SIZE - 12);
    store_u16(r + 12, VERSION_ZIP64);
    store_u16(r + 14, VERSION_ZIP64);
    store_u64(r + 24, count);
    store_u64(r + 32, count);
    store_u64(r + 40, cd_size);
    store_u64(r + 48, cd_offset);
    uint8_t* loc = r + ZIP64_END_SIZE;
    store_u32(loc, ZIP64_LOCATOR_SIG);
    store_u64(loc + 8, z64_offset);
    store_u32(loc + 16, 1);
    MANAKA_RETURN_NOT_OK(write(r, sizeof r));
    count16 = always ? U16_IN_ZIP64 : std::min<uint64_t>(count, U16_IN_ZIP64);
    size32 = always ? U32_IN_ZIP64 : std::min<uint64_t>(cd_size, U32_IN_ZIP64);
    offset32 = always ? U32_IN_ZIP64 : std::min<uint64_t>(cd_offset, U32_IN_ZIP64);
  }
  uint8_t end[END_SIZE] = {};
  store_u32(end, END_SIG);
  store_u16(end + 8, static_cast<uint16_t>(count16));
  store_u16(end + 10, static_cast<uint16_t>(count16));
  store_u32(end + 12, static_cast<uint32_t>(size32));
  store_u32(end + 16, static_cast<uint32_t>(offset32));
  MANAKA_RETURN_NOT_OK(write(end, sizeof end));
  return file_.commit();
}

}  // namespace manaka::npz
