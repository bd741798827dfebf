#include "npz/zip_reader.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <unordered_set>

#include "core/bytes.h"
#include "core/crc32.h"
#include "core/text.h"
#include "npz/zip_format.h"

namespace manaka::npz {

namespace {

// Inflated bytes are checksummed in slices of this size while they are
// still in cache; zlib is handed at most ZLIB_CHUNK at a time (its counts
// are 32-bit).
constexpr size_t CRC_SLICE = size_t{256} << 10;
constexpr size_t ZLIB_CHUNK = size_t{1} << 30;

std::string n(uint64_t v) { return std::to_string(v); }

std::string name_text(const std::string& name) { return "'" + printable(name) + "'"; }

}  // namespace

// ---- MemberReader ----

struct MemberReader::Inflater {
  z_stream strm{};
  bool live = false;
  ~Inflater() {
    if (live) inflateEnd(&strm);
  }
};

MemberReader::MemberReader() = default;
MemberReader::MemberReader(MemberReader&&) noexcept = default;
MemberReader& MemberReader::operator=(MemberReader&&) noexcept = default;
MemberReader::~MemberReader() = default;

Status MemberReader::fail(Status st) const {
  return std::move(st).with_context(archive_ + ": member " + name_text(entry_->name) + ": ");
}

Status MemberReader::inflate_into(uint8_t* out, size_t want, size_t* got) {
  z_stream& s = inflater_->strm;
  size_t total = 0;
  while (total < want && !ended_) {
    if (s.avail_in == 0 && consumed_ < input_.size()) {
      const size_t chunk = std::min<uint64_t>(input_.size() - consumed_, ZLIB_CHUNK);
      s.next_in = const_cast<Bytef*>(input_.data() + consumed_);
      s.avail_in = static_cast<uInt>(chunk);
      consumed_ += chunk;
    }
    const auto room = static_cast<uInt>(std::min(want - total, ZLIB_CHUNK));
    s.next_out = out + total;
    s.avail_out = room;
    const int rc = inflate(&s, Z_NO_FLUSH);
    total += room - s.avail_out;
    if (rc == Z_STREAM_END) {
      ended_ = true;
    } else if (rc == Z_BUF_ERROR) {  // no progress possible: the input is spent
      *got = total;
      return fail(Status::truncated("deflate data ends after its " + n(input_.size()) +
                                    " compressed bytes, inside the stream (" + n(produced_ + total) + " of " +
                                    n(entry_->uncompressed_size) + " bytes inflated)"));
    } else if (rc != Z_OK) {
      *got = total;
      const uint64_t at = consumed_ - s.avail_in;
      std::string why = rc == Z_MEM_ERROR ? "out of memory" : s.msg ? s.msg : "error " + std::to_string(rc);
      return fail(Status::invalid("corrupt deflate data at compressed byte " + n(at) + " (" + why + ")"));
    }
  }
  *got = total;
  return Status();
}

Result<size_t> MemberReader::read(void* buf, size_t want) {
  const uint64_t left = entry_->uncompressed_size - produced_;
  want = static_cast<size_t>(std::min<uint64_t>(want, left));
  auto* out = static_cast<uint8_t*>(buf);
  size_t done = 0;
  while (done < want) {
    const size_t slice = std::min(want - done, CRC_SLICE);
    size_t got = slice;
    if (inflater_) {
      MANAKA_RETURN_NOT_OK(inflate_into(out + done, slice, &got));
      if (got < slice) {  // the stream ended early
        return fail(Status::invalid("inflates to " + n(produced_ + done + got) + " bytes, the central directory says " +
                                    n(entry_->uncompressed_size)));
      }
    } else {
      std::memcpy(out + done, input_.data() + consumed_, slice);
      consumed_ += slice;
    }
    crc_ = crc32_update(crc_, out + done, got);
    done += got;
  }
  produced_ += done;
  return done;
}

Status MemberReader::read_exact(void* buf, size_t want) {
  MANAKA_ASSIGN_OR_RETURN(size_t got, read(buf, want));
  if (got < want)
    return fail(Status::truncated("ends after " + n(produced_) + " bytes, " + n(produced_ - got + want) +
                                  " are needed"));
  return Status();
}

Status MemberReader::finish() {
  uint8_t scratch[4096];
  while (produced_ < entry_->uncompressed_size) {
    MANAKA_ASSIGN_OR_RETURN(size_t got, read(scratch, sizeof scratch));
    if (got == 0) break;
  }
  if (inflater_) {
    z_stream& s = inflater_->strm;
    // The stream must end here: anything more it inflates is too much.
    for (uint64_t rounds = 0; !ended_; ++rounds) {
      size_t got = 0;
      MANAKA_RETURN_NOT_OK(inflate_into(scratch, 1, &got));
      if (got > 0)
        return fail(Status::invalid("inflates to more than the " + n(entry_->uncompressed_size) +
                                    " bytes the central directory says"));
      if (rounds > input_.size())
        return fail(Status::invalid("deflate data that never ends"));  // not reachable with zlib
    }
    const uint64_t left = input_.size() - consumed_ + s.avail_in;
    if (left > 0)
      return fail(Status::invalid(n(left) + " compressed bytes after the end of the deflate data"));
  }
  if (crc_ != entry_->crc32)
    return fail(Status::invalid("CRC-32 is " + crc32_text(crc_) + ", the central directory says " +
                                crc32_text(entry_->crc32)));
  return Status();
}

// ---- ZipReader ----

Result<ZipReader> ZipReader::open(const std::string& path, const ZipLimits& limits) {
  MANAKA_ASSIGN_OR_RETURN(InputFile file, InputFile::open(path));
  ZipReader r;
  r.path_ = path;
  r.size_ = file.size_at_open();
  r.file_ = std::make_unique<InputFile>(std::move(file));
  MANAKA_RETURN_NOT_OK(r.load(limits));
  return r;
}

Result<ZipReader> ZipReader::from_memory(std::span<const uint8_t> bytes, std::string name, const ZipLimits& limits) {
  ZipReader r;
  r.path_ = std::move(name);
  r.size_ = bytes.size();
  r.memory_ = bytes;
  MANAKA_RETURN_NOT_OK(r.load(limits));
  return r;
}

const ZipEntry* ZipReader::find(std::string_view name) const {
  for (const ZipEntry& e : entries_)
    if (e.name == name) return &e;
  return nullptr;
}

std::string ZipReader::member_context(const ZipEntry& entry) const {
  return path_ + ": member " + name_text(entry.name) + ": ";
}

Status ZipReader::read_at(uint64_t offset, void* buf, size_t len) const {
  if (offset > size_ || len > size_ - offset)
    return Status::truncated(path_ + ": " + n(len) + " bytes at " + n(offset) + " lie past the end (" + n(size_) +
                             " bytes)");
  if (len == 0) return Status();  // buf may be an empty vector's null data()
  if (!file_) {
    std::memcpy(buf, memory_.data() + offset, len);
    return Status();
  }
  MANAKA_ASSIGN_OR_RETURN(size_t got, file_->read_at(offset, buf, len));
  if (got < len)
    return Status::truncated(path_ + ": ends at " + n(offset + got) + " while reading " + n(len) + " bytes at " +
                             n(offset) + " (the file shrank?)");
  return Status();
}

Status ZipReader::load(const ZipLimits& limits) {
  auto invalid = [&](const std::string& what) { return Status::invalid(path_ + ": " + what); };
  if (size_ < END_SIZE)
    return Status::truncated(path_ + ": " + n(size_) + " bytes, too short for a zip archive (its end record alone is " +
                             n(END_SIZE) + ")");

  // The end record: the last END_SIZE + comment bytes.
  const uint64_t tail_len = std::min<uint64_t>(size_, END_SIZE + MAX_COMMENT);
  std::vector<uint8_t> tail(tail_len);
  MANAKA_RETURN_NOT_OK(read_at(size_ - tail_len, tail.data(), tail_len));
  int64_t at = -1;
  for (int64_t pos = static_cast<int64_t>(tail_len - END_SIZE); pos >= 0; --pos) {
    const uint8_t* p = tail.data() + pos;
    if (load_u32(p) == END_SIG && uint64_t(pos) + END_SIZE + load_u16(p + 20) == tail_len) {
      at = pos;
      break;
    }
  }
  if (at < 0)
    return invalid("no end record (50 4B 05 06, ending the file) in its last " + n(tail_len) +
                   " bytes: not a zip archive, or cut short");
  const uint8_t* end = tail.data() + at;
  const uint64_t end_offset = size_ - tail_len + uint64_t(at);
  uint64_t disk = load_u16(end + 4), cd_disk = load_u16(end + 6);
  uint64_t disk_entries = load_u16(end + 8), count = load_u16(end + 10);
  uint64_t cd_size = load_u32(end + 12), cd_offset = load_u32(end + 16);
  uint64_t cd_end = end_offset;

  // The ZIP64 end record, when a locator sits right before the end record.
  if (end_offset >= ZIP64_LOCATOR_SIZE) {
    uint8_t loc[ZIP64_LOCATOR_SIZE];
    MANAKA_RETURN_NOT_OK(read_at(end_offset - ZIP64_LOCATOR_SIZE, loc, sizeof loc));
    if (load_u32(loc) == ZIP64_LOCATOR_SIG) {
      const uint64_t loc_offset = end_offset - ZIP64_LOCATOR_SIZE;
      const uint64_t z64_offset = load_u64(loc + 8);
      if (load_u32(loc + 4) != 0 || load_u32(loc + 16) > 1)
        return invalid("a multi-disk archive (ZIP64 locator: disk " + n(load_u32(loc + 4)) + " of " +
                       n(load_u32(loc + 16)) + ") is not supported");
      if (loc_offset < ZIP64_END_SIZE || z64_offset > loc_offset - ZIP64_END_SIZE)
        return invalid("the ZIP64 locator at " + n(loc_offset) + " points to a ZIP64 end record at " +
                       n(z64_offset) + ", which does not fit before it");
      uint8_t z64[ZIP64_END_SIZE];
      MANAKA_RETURN_NOT_OK(read_at(z64_offset, z64, sizeof z64));
      if (load_u32(z64) != ZIP64_END_SIG)
        return invalid("no ZIP64 end record (50 4B 06 06) at " + n(z64_offset) + ", where its locator points");
      const uint64_t rest = load_u64(z64 + 4);
      if (rest < ZIP64_END_SIZE - 12 || rest != loc_offset - z64_offset - 12)
        return invalid("the ZIP64 end record at " + n(z64_offset) + " says it is " + n(rest + 12) +
                       " bytes, but its locator is at " + n(loc_offset));
      disk = load_u32(z64 + 16);
      cd_disk = load_u32(z64 + 20);
      disk_entries = load_u64(z64 + 24);
      count = load_u64(z64 + 32);
      cd_size = load_u64(z64 + 40);
      cd_offset = load_u64(z64 + 48);
      cd_end = z64_offset;
    }
  }
  if (disk != 0 || cd_disk != 0)
    return invalid("a multi-disk archive (disk " + n(disk) + ", central directory on disk " + n(cd_disk) +
                   ") is not supported");
  if (disk_entries != count)
    return invalid("the end record counts " + n(count) + " entries in all but " + n(disk_entries) + " on this disk");
  if (cd_size > cd_end || cd_offset != cd_end - cd_size)
    return invalid("the central directory (" + n(cd_size) + " bytes at " + n(cd_offset) +
                   ") does not end where the end record starts (" + n(cd_end) + ")");
  if (cd_size > limits.max_central_directory)
    return invalid("a central directory of " + n(cd_size) + " bytes, above the limit of " +
                   n(limits.max_central_directory));
  if (count > limits.max_entries)
    return invalid(n(count) + " entries, above the limit of " + n(limits.max_entries));
  if (count > cd_size / CENTRAL_ENTRY_SIZE)
    return invalid(n(count) + " entries cannot fit a central directory of " + n(cd_size) + " bytes (" +
                   n(CENTRAL_ENTRY_SIZE) + " bytes each at least)");

  std::vector<uint8_t> cd(cd_size);
  MANAKA_RETURN_NOT_OK(read_at(cd_offset, cd.data(), cd_size));
  std::unordered_set<std::string> names;
  entries_.reserve(count);
  uint64_t pos = 0;
  for (uint64_t i = 0; i < count; ++i) {
    const std::string where = "central directory entry " + n(i) + " (at " + n(cd_offset + pos) + ")";
    if (cd_size - pos < CENTRAL_ENTRY_SIZE) return invalid(where + ": runs past the central directory");
    const uint8_t* e = cd.data() + pos;
    if (load_u32(e) != CENTRAL_ENTRY_SIG) return invalid(where + ": no signature 50 4B 01 02");
    const uint64_t name_len = load_u16(e + 28), extra_len = load_u16(e + 30), comment_len = load_u16(e + 32);
    if (name_len + extra_len + comment_len > cd_size - pos - CENTRAL_ENTRY_SIZE)
      return invalid(where + ": its name, extra field and comment run past the central directory");
    ZipEntry z;
    z.name.assign(reinterpret_cast<const char*>(e + CENTRAL_ENTRY_SIZE), name_len);
    z.flags = load_u16(e + 8);
    z.method = load_u16(e + 10);
    z.crc32 = load_u32(e + 16);
    const uint32_t csize32 = load_u32(e + 20), usize32 = load_u32(e + 24), offset32 = load_u32(e + 42);
    const uint16_t disk16 = load_u16(e + 34);
    z.compressed_size = csize32;
    z.uncompressed_size = usize32;
    z.header_offset = offset32;
    uint64_t member_disk = disk16;
    const std::string member = path_ + ": member " + name_text(z.name) + ": ";
    auto bad = [&](const std::string& what) { return Status::invalid(member + what); };

    // ZIP64: the fields that read all ones come from the extra field, in order.
    if (usize32 == U32_IN_ZIP64 || csize32 == U32_IN_ZIP64 || offset32 == U32_IN_ZIP64 || disk16 == U16_IN_ZIP64) {
      const uint8_t* x = e + CENTRAL_ENTRY_SIZE + name_len;
      std::span<const uint8_t> z64;
      bool found = false;
      for (uint64_t q = 0; q + 4 <= extra_len;) {
        const uint64_t id = load_u16(x + q), len = load_u16(x + q + 2);
        if (len > extra_len - q - 4) return bad("an extra field (id " + n(id) + ") runs past its entry");
        if (id == ZIP64_EXTRA_ID && !found) {
          z64 = {x + q + 4, len};
          found = true;
        }
        q += 4 + len;
      }
      size_t used = 0;
      auto take = [&](uint64_t& field, size_t width, const char* what) -> Status {
        if (!found || z64.size() - used < width)
          return bad(std::string(what) + " reads all ones but the ZIP64 extra field does not hold it");
        field = width == 8 ? load_u64(z64.data() + used) : load_u32(z64.data() + used);
        used += width;
        return Status();
      };
      if (usize32 == U32_IN_ZIP64) MANAKA_RETURN_NOT_OK(take(z.uncompressed_size, 8, "the uncompressed size"));
      if (csize32 == U32_IN_ZIP64) MANAKA_RETURN_NOT_OK(take(z.compressed_size, 8, "the compressed size"));
      if (offset32 == U32_IN_ZIP64) MANAKA_RETURN_NOT_OK(take(z.header_offset, 8, "the local header offset"));
      if (disk16 == U16_IN_ZIP64) MANAKA_RETURN_NOT_OK(take(member_disk, 4, "the disk number"));
    }

    if (z.name.empty()) return invalid(where + ": an empty member name");
    if (!names.insert(z.name).second) return bad("a second member of this name");
    if (member_disk != 0) return bad("on disk " + n(member_disk) + " (multi-disk archives are not supported)");
    if (z.flags & FLAG_ENCRYPTED) return bad("encrypted (not supported)");
    if (z.method != METHOD_STORED && z.method != METHOD_DEFLATED)
      return bad("compression method " + n(z.method) + " (only 0, stored, and 8, deflate, are supported)");
    if (z.uncompressed_size > limits.max_member_bytes)
      return bad(n(z.uncompressed_size) + " bytes inflated, above the limit of " + n(limits.max_member_bytes));
    if (z.method == METHOD_STORED && z.uncompressed_size != z.compressed_size)
      return bad("stored, yet " + n(z.compressed_size) + " bytes hold " + n(z.uncompressed_size));
    if (z.method == METHOD_DEFLATED && z.uncompressed_size / DEFLATE_MAX_RATIO > z.compressed_size)
      return bad(n(z.compressed_size) + " deflated bytes cannot inflate to the " + n(z.uncompressed_size) +
                 " declared (deflate's limit is 1032 to 1)");
    if (z.header_offset > cd_offset || cd_offset - z.header_offset < LOCAL_HEADER_SIZE)
      return bad("its local header at " + n(z.header_offset) + " does not lie before the central directory (at " +
                 n(cd_offset) + ")");
    entries_.push_back(std::move(z));
    pos += CENTRAL_ENTRY_SIZE + name_len + extra_len + comment_len;
  }
  if (pos != cd_size)
    return invalid(n(cd_size - pos) + " bytes after the last of the " + n(count) +
                   " central directory entries the end record counts");

  // Local headers: where each member's data starts, and that it agrees.
  std::vector<uint8_t> local;
  for (ZipEntry& z : entries_) {
    const std::string member = path_ + ": member " + name_text(z.name) + ": ";
    local.resize(LOCAL_HEADER_SIZE + z.name.size());
    const uint64_t want = std::min<uint64_t>(local.size(), cd_offset - z.header_offset);
    MANAKA_RETURN_NOT_OK(read_at(z.header_offset, local.data(), want));
    if (load_u32(local.data()) != LOCAL_HEADER_SIG)
      return Status::invalid(member + "no local header signature (50 4B 03 04) at " + n(z.header_offset));
    const uint64_t name_len = load_u16(local.data() + 26), extra_len = load_u16(local.data() + 28);
    if (load_u16(local.data() + 8) != z.method)
      return Status::invalid(member + "the local header says compression method " + n(load_u16(local.data() + 8)) +
                             ", the central directory " + n(z.method));
    if (name_len != z.name.size() || want < local.size() ||
        std::memcmp(local.data() + LOCAL_HEADER_SIZE, z.name.data(), name_len) != 0)
      return Status::invalid(member + "the local header at " + n(z.header_offset) +
                             " names another member than the central directory");
    z.data_offset = z.header_offset + LOCAL_HEADER_SIZE + name_len + extra_len;
    if (z.data_offset > cd_offset || z.compressed_size > cd_offset - z.data_offset)
      return Status::invalid(member + "its " + n(z.compressed_size) + " bytes at " + n(z.data_offset) +
                             " run past the start of the central directory (" + n(cd_offset) + ")");
  }
  return Status();
}

Result<MemberReader> ZipReader::open_member(const ZipEntry& entry) const {
  MemberReader m;
  m.entry_ = &entry;
  m.archive_ = path_;
  if (file_) {
    m.owned_.resize(entry.compressed_size);
    MANAKA_RETURN_NOT_OK(read_at(entry.data_offset, m.owned_.data(), m.owned_.size()));
    m.input_ = m.owned_;
  } else {
    m.input_ = memory_.subspan(entry.data_offset, entry.compressed_size);
  }
  if (entry.method == METHOD_DEFLATED) {
    m.inflater_ = std::make_unique<MemberReader::Inflater>();
    if (inflateInit2(&m.inflater_->strm, -MAX_WBITS) != Z_OK)
      return Status::io(member_context(entry) + "zlib's inflateInit2 failed (out of memory)");
    m.inflater_->live = true;
  }
  return m;
}

Status ZipReader::read_member(const ZipEntry& entry, void* out) const {
  MANAKA_ASSIGN_OR_RETURN(MemberReader m, open_member(entry));
  MANAKA_RETURN_NOT_OK(m.read_exact(out, entry.uncompressed_size));
  return m.finish();
}

}  // namespace manaka::npz
