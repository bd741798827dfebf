// Reading a zip archive's members (stored or deflated) from a file or from
// memory, for npz archives (zip_format.h has the layout).
//
// open() reads the end record (and the ZIP64 end record when its locator is
// there), the central directory and every member's local header, and checks
// every count, length and offset against the archive's size before anything
// is allocated from it:
//   - the end record is the archive's last bytes (its comment included), on
//     disk 0, and the central directory ends exactly where the (ZIP64) end
//     record starts (no data prepended, no gaps);
//   - the entry count fits the central directory and ZipLimits; the entries
//     fill the central directory exactly, names unique;
//   - each member's local header and data lie before the central directory,
//     its local header names it as the central directory does;
//   - a member is stored (uncompressed = compressed size) or deflated (at
//     most 1032 times its compressed size, deflate's limit), not encrypted,
//     and at most ZipLimits::max_member_bytes inflated.
// A MemberReader then inflates a member as it is read and, at its end,
// checks that the data ends exactly at the declared size and that its CRC-32
// is the central directory's.
//
// Every error names the archive and, past the central directory, the member:
//   "shard_000003.npz: member 'states.npy': CRC-32 is 1c291ca3, the central directory says 0c291ca3"
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/default_init.h"
#include "core/file.h"
#include "core/status.h"

namespace manaka::npz {

// Caps on what a file may make the reader allocate.
struct ZipLimits {
  uint64_t max_entries = 4096;
  uint64_t max_central_directory = uint64_t{16} << 20;
  uint64_t max_member_bytes = uint64_t{4} << 30;  // one member, inflated
};

struct ZipEntry {
  std::string name;
  uint16_t method = 0;  // METHOD_STORED or METHOD_DEFLATED
  uint16_t flags = 0;
  uint32_t crc32 = 0;
  uint64_t compressed_size = 0;
  uint64_t uncompressed_size = 0;
  uint64_t header_offset = 0;  // the local header
  uint64_t data_offset = 0;    // the member's first byte, past the local header
};

class ZipReader;

// One member's bytes, inflated as they are read. Move-only; the archive it
// came from must outlive it.
class MemberReader {
 public:
  MemberReader();
  MemberReader(MemberReader&&) noexcept;
  MemberReader& operator=(MemberReader&&) noexcept;
  ~MemberReader();

  // Up to n bytes; fewer only at the member's end (then 0). Reading past the
  // declared size is not possible; a deflate stream that is corrupt or ends
  // early is an error.
  Result<size_t> read(void* buf, size_t n);
  // Exactly n bytes, or a Truncated error saying how many were there.
  Status read_exact(void* buf, size_t n);
  // After the last byte: the deflate stream must end there, with no bytes
  // left over, and the CRC-32 must match. Reads what was not yet read first.
  Status finish();

  const ZipEntry& entry() const { return *entry_; }
  uint64_t position() const { return produced_; }  // bytes handed out so far

 private:
  friend class ZipReader;
  struct Inflater;

  Status fail(Status st) const;
  Status inflate_into(uint8_t* out, size_t n, size_t* got);

  const ZipEntry* entry_ = nullptr;
  std::string archive_;
  UninitVector<uint8_t> owned_;       // compressed bytes read from a file
  std::span<const uint8_t> input_;    // the compressed bytes (owned_ or memory)
  uint64_t consumed_ = 0;             // of input_, for stored members
  uint64_t produced_ = 0;
  uint32_t crc_ = 0;
  bool ended_ = false;                // deflate stream end seen
  std::unique_ptr<Inflater> inflater_;
};

class ZipReader {
 public:
  static Result<ZipReader> open(const std::string& path, const ZipLimits& limits = {});
  // bytes must outlive the reader and its members; name is used in messages.
  static Result<ZipReader> from_memory(std::span<const uint8_t> bytes, std::string name,
                                       const ZipLimits& limits = {});

  ZipReader() = default;
  ZipReader(ZipReader&&) noexcept = default;
  ZipReader& operator=(ZipReader&&) noexcept = default;

  const std::string& path() const { return path_; }
  uint64_t size() const { return size_; }
  const std::vector<ZipEntry>& entries() const { return entries_; }
  const ZipEntry* find(std::string_view name) const;

  // entry must be one of entries().
  Result<MemberReader> open_member(const ZipEntry& entry) const;
  // The whole member into out (entry.uncompressed_size bytes), checked.
  Status read_member(const ZipEntry& entry, void* out) const;

  // "path: member 'name': " for messages about a member.
  std::string member_context(const ZipEntry& entry) const;

 private:
  Status read_at(uint64_t offset, void* buf, size_t n) const;
  Status load(const ZipLimits& limits);

  std::string path_;
  uint64_t size_ = 0;
  std::unique_ptr<InputFile> file_;   // null when reading memory
  std::span<const uint8_t> memory_;
  std::vector<ZipEntry> entries_;
};

}  // namespace manaka::npz
