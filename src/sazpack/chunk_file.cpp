#include "sazpack/chunk_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <utility>

#include "core/file.h"
#include "sazpack/codec.h"

namespace manaka::sazpack {
namespace {

constexpr size_t kBlock = size_t{1} << 24;  // 16 MiB, reading a pipe

// Reads what is not a regular file up to one byte past the chunk, a block at
// a time, so payload_len alone never sizes an allocation.
Result<std::vector<uint8_t>> read_stream(const std::string& path) {
  MANAKA_ASSIGN_OR_RETURN(InputFile in, InputFile::open(path));
  std::vector<uint8_t> bytes(kHeaderSize);
  MANAKA_ASSIGN_OR_RETURN(size_t got, in.read(bytes.data(), kHeaderSize));
  MANAKA_ASSIGN_OR_RETURN(ChunkHeader header, parse_header(std::span<const uint8_t>(bytes.data(), got)));
  const uint64_t want = kHeaderSize + uint64_t{header.payload_len} + 1;
  while (bytes.size() < want) {
    const size_t have = bytes.size();
    bytes.resize(have + size_t(std::min<uint64_t>(kBlock, want - have)));
    MANAKA_ASSIGN_OR_RETURN(size_t n, in.read(bytes.data() + have, bytes.size() - have));
    bytes.resize(have + n);
    if (n == 0) break;
  }
  MANAKA_RETURN_NOT_OK(check_chunk_length(header, bytes.size()));
  return bytes;
}

}  // namespace

Result<ChunkFile> ChunkFile::open(const std::string& path) {
  const std::string prefix = path + ": ";
  ChunkFile f;
  f.path_ = path;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return io_error(path, "cannot open for reading", errno);
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    return io_error(path, "cannot stat", err);
  }
  if (!S_ISREG(st.st_mode) || st.st_size == 0) {
    ::close(fd);
    if (S_ISDIR(st.st_mode)) return io_error(path, "cannot read", EISDIR);
    auto bytes = read_stream(path);
    if (!bytes.ok()) {
      const bool io = bytes.status().kind() == ErrorKind::IO;  // already names the path
      return std::move(bytes).take_status().with_context(io ? "" : prefix);
    }
    f.owned_ = std::move(*bytes);
    f.data_ = f.owned_.data();
    f.size_ = f.owned_.size();
    return f;
  }
  // The header and the length first, so a file that is no chunk is never mapped.
  const size_t size = size_t(st.st_size);
  uint8_t head[kHeaderSize];
  const ssize_t got = ::pread(fd, head, kHeaderSize, 0);
  if (got < 0) {
    const int err = errno;
    ::close(fd);
    return io_error(path, "read failed", err);
  }
  auto header = parse_header(std::span<const uint8_t>(head, size_t(got)));
  Status length = header.ok() ? check_chunk_length(*header, size) : header.status();
  if (!length.ok()) {
    ::close(fd);
    return std::move(length).with_context(prefix);
  }
  void* map = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
  const int err = errno;
  ::close(fd);
  if (map == MAP_FAILED) return io_error(path, "cannot map", err);
  f.map_ = map;
  f.data_ = static_cast<const uint8_t*>(map);
  f.size_ = size;
  return f;
}

ChunkFile::ChunkFile(ChunkFile&& other) noexcept { *this = std::move(other); }

ChunkFile& ChunkFile::operator=(ChunkFile&& other) noexcept {
  if (this != &other) {
    release();
    owned_ = std::move(other.owned_);
    path_ = std::move(other.path_);
    map_ = std::exchange(other.map_, nullptr);
    size_ = std::exchange(other.size_, 0);
    data_ = map_ ? static_cast<const uint8_t*>(map_) : owned_.data();
    other.data_ = nullptr;
  }
  return *this;
}

ChunkFile::~ChunkFile() { release(); }

void ChunkFile::release() {
  if (map_) ::munmap(map_, size_);
  map_ = nullptr;
  data_ = nullptr;
  size_ = 0;
  owned_.clear();
}

Status write_chunk_file(const std::string& path, std::span<const uint8_t> chunk) {
  MANAKA_ASSIGN_OR_RETURN(AtomicFile out, AtomicFile::create(path));
  MANAKA_RETURN_NOT_OK(out.write_all(chunk.data(), chunk.size()));
  return out.commit();
}

}  // namespace manaka::sazpack
