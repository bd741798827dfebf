#include "core/byte_source.h"

#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "core/file.h"

namespace manaka {
namespace {

constexpr unsigned char ZSTD_MAGIC[4] = {0x28, 0xB5, 0x2F, 0xFD};

// A file's bytes, after `head` (what open() read to look for the magic).
class FileSource final : public ByteSource {
 public:
  FileSource(InputFile file, std::string head) : file_(std::move(file)), head_(std::move(head)) {}
  Result<size_t> read(char* buf, size_t n) override {
    size_t done = 0;
    if (head_pos_ < head_.size()) {
      done = std::min(n, head_.size() - head_pos_);
      std::memcpy(buf, head_.data() + head_pos_, done);
      head_pos_ += done;
    }
    if (done == n) return done;
    MANAKA_ASSIGN_OR_RETURN(size_t got, file_.read(buf + done, n - done));
    return done + got;
  }

 private:
  InputFile file_;
  std::string head_;
  size_t head_pos_ = 0;
};

// A zstd-compressed file, decompressed block by block, frame after frame.
class ZstdSource final : public ByteSource {
 public:
  ZstdSource(InputFile file, std::string head)
      : file_(std::move(file)), in_(ZSTD_DStreamInSize()), stream_(ZSTD_createDStream()) {
    std::memcpy(in_.data(), head.data(), head.size());
    input_ = {in_.data(), head.size(), 0};
  }
  ~ZstdSource() override { ZSTD_freeDStream(stream_); }
  ZstdSource(const ZstdSource&) = delete;
  ZstdSource& operator=(const ZstdSource&) = delete;

  Result<size_t> read(char* buf, size_t n) override {
    if (stream_ == nullptr) return Status::io(file_.path() + ": zstd: cannot create a decompression stream");
    ZSTD_outBuffer out{buf, n, 0};
    while (out.pos == 0) {
      if (input_.pos == input_.size && !file_end_) {
        MANAKA_ASSIGN_OR_RETURN(size_t got, file_.read(in_.data(), in_.size()));
        input_ = {in_.data(), got, 0};
        file_end_ = got == 0;
      }
      const size_t in_before = input_.pos;
      const size_t ret = ZSTD_decompressStream(stream_, &out, &input_);
      if (ZSTD_isError(ret))
        return Status::invalid(file_.path() + ": zstd: " + ZSTD_getErrorName(ret) + " (compressed byte " +
                               std::to_string(consumed_ + input_.pos) + ")");
      // A call that moved nothing says nothing of the frame (between frames
      // it asks for the next header).
      if (input_.pos != in_before || out.pos > 0) frame_open_ = ret != 0;
      if (input_.pos == input_.size && input_.size > 0) consumed_ += input_.size, input_ = {in_.data(), 0, 0};
      if (file_end_ && out.pos == 0) {
        if (frame_open_) return Status::truncated(file_.path() + ": zstd: the last frame is truncated");
        return size_t(0);
      }
    }
    return out.pos;
  }

 private:
  InputFile file_;
  std::vector<char> in_;
  ZSTD_DStream* stream_;
  ZSTD_inBuffer input_{};
  uint64_t consumed_ = 0;
  bool file_end_ = false;
  bool frame_open_ = false;
};

class MemorySource final : public ByteSource {
 public:
  explicit MemorySource(std::string_view bytes) : bytes_(bytes) {}
  Result<size_t> read(char* buf, size_t n) override {
    const size_t k = std::min(n, bytes_.size());
    std::memcpy(buf, bytes_.data(), k);
    bytes_.remove_prefix(k);
    return k;
  }

 private:
  std::string_view bytes_;
};

}  // namespace

Result<std::unique_ptr<ByteSource>> open_byte_source(const std::string& path) {
  MANAKA_ASSIGN_OR_RETURN(InputFile file, InputFile::open(path));
  std::string head(sizeof ZSTD_MAGIC, '\0');
  MANAKA_ASSIGN_OR_RETURN(size_t got, file.read(head.data(), head.size()));
  head.resize(got);
  if (got == sizeof ZSTD_MAGIC && std::memcmp(head.data(), ZSTD_MAGIC, got) == 0)
    return std::unique_ptr<ByteSource>(std::make_unique<ZstdSource>(std::move(file), std::move(head)));
  return std::unique_ptr<ByteSource>(std::make_unique<FileSource>(std::move(file), std::move(head)));
}

std::unique_ptr<ByteSource> memory_source(std::string_view bytes) { return std::make_unique<MemorySource>(bytes); }

}  // namespace manaka
