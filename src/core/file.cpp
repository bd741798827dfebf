#include "core/file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>

namespace manaka {

Status io_error(const std::string& path, const char* what, int err) {
  return Status::io(path + ": " + what + ": " + std::strerror(err));
}

// ---- InputFile ----

bool is_read_once(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode) || S_ISSOCK(st.st_mode));
}

Status check_rereadable(const std::string& path, std::string_view command) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode)) return Status();
  const char* kind = S_ISFIFO(st.st_mode) ? "a pipe or FIFO" : S_ISDIR(st.st_mode) ? "a directory" : "not a regular file";
  return Status::usage(path + ": is " + kind + ", and " + std::string(command) +
                       " reads each input more than once; write it to a file first (manaka stream validate reads a "
                       "pipe once)");
}

Result<InputFile> InputFile::open(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return io_error(path, "cannot open for reading", errno);
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    return io_error(path, "cannot stat", err);
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    return io_error(path, "cannot read", EISDIR);
  }
#ifdef POSIX_FADV_SEQUENTIAL
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
  InputFile f;
  f.fd_ = fd;
  f.size_ = S_ISREG(st.st_mode) ? static_cast<uint64_t>(st.st_size) : 0;
  f.path_ = path;
  return f;
}

InputFile::InputFile(InputFile&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), size_(other.size_), path_(std::move(other.path_)) {}

InputFile& InputFile::operator=(InputFile&& other) noexcept {
  if (this != &other) {
    close();
    fd_ = std::exchange(other.fd_, -1);
    size_ = other.size_;
    path_ = std::move(other.path_);
  }
  return *this;
}

InputFile::~InputFile() { close(); }

void InputFile::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

namespace {

// Reads until n bytes or the end of the file, retrying interrupted and short
// reads; one_read(p, k, done) is one read(2) or pread(2) of k bytes into p.
template <typename OneRead>
Result<size_t> read_fully(const std::string& path, void* buf, size_t n, OneRead one_read) {
  size_t done = 0;
  auto* p = static_cast<uint8_t*>(buf);
  while (done < n) {
    ssize_t got = one_read(p + done, n - done, done);
    if (got < 0) {
      if (errno == EINTR) continue;
      return io_error(path, "read failed", errno);
    }
    if (got == 0) break;
    done += static_cast<size_t>(got);
  }
  return done;
}

}  // namespace

Result<size_t> InputFile::read(void* buf, size_t n) {
  if (fd_ < 0) return Status::io(path_ + ": read from a closed file");
  return read_fully(path_, buf, n, [this](uint8_t* p, size_t k, size_t) { return ::read(fd_, p, k); });
}

Result<size_t> InputFile::read_at(uint64_t offset, void* buf, size_t n) {
  if (fd_ < 0) return Status::io(path_ + ": read from a closed file");
  return read_fully(path_, buf, n, [this, offset](uint8_t* p, size_t k, size_t done) {
    return ::pread(fd_, p, k, static_cast<off_t>(offset + done));
  });
}

// ---- OutputFile ----

Result<OutputFile> OutputFile::create(const std::string& path) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return io_error(path, "cannot open for writing", errno);
  OutputFile f;
  f.fd_ = fd;
  f.path_ = path;
  return f;
}

OutputFile::OutputFile(OutputFile&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), path_(std::move(other.path_)) {}

OutputFile& OutputFile::operator=(OutputFile&& other) noexcept {
  if (this != &other) {
    (void)close();
    fd_ = std::exchange(other.fd_, -1);
    path_ = std::move(other.path_);
  }
  return *this;
}

OutputFile::~OutputFile() { (void)close(); }

Status OutputFile::write_all(const void* buf, size_t n) {
  if (fd_ < 0) return Status::io(path_ + ": write to a closed file");
  const auto* p = static_cast<const uint8_t*>(buf);
  while (n > 0) {
    ssize_t put = ::write(fd_, p, n);
    if (put < 0) {
      if (errno == EINTR) continue;
      return io_error(path_, "write failed", errno);
    }
    p += put;
    n -= static_cast<size_t>(put);
  }
  return Status();
}

Status OutputFile::sync() {
  if (fd_ < 0) return Status::io(path_ + ": sync of a closed file");
  if (::fsync(fd_) != 0) return io_error(path_, "fsync failed", errno);
  return Status();
}

Status OutputFile::close() {
  if (fd_ < 0) return Status();
  int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0) return io_error(path_, "close failed", errno);
  return Status();
}

Status write_file(const std::string& path, std::string_view bytes) {
  MANAKA_ASSIGN_OR_RETURN(OutputFile out, OutputFile::create(path));
  MANAKA_RETURN_NOT_OK(out.write_all(bytes.data(), bytes.size()));
  MANAKA_RETURN_NOT_OK(out.sync());
  return out.close();
}

// ---- AtomicFile ----

Result<AtomicFile> AtomicFile::create(const std::string& final_path) {
  remove_stale_temporaries(final_path);
  TemporaryRegistration registration(temporary_path(final_path));
  MANAKA_ASSIGN_OR_RETURN(OutputFile file, OutputFile::create(temporary_path(final_path)));
  AtomicFile f;
  f.file_ = std::move(file);
  f.registration_ = std::move(registration);
  f.final_path_ = final_path;
  f.pending_ = true;
  return f;
}

AtomicFile::AtomicFile(AtomicFile&& other) noexcept
    : file_(std::move(other.file_)),
      final_path_(std::move(other.final_path_)),
      registration_(std::move(other.registration_)),
      pending_(std::exchange(other.pending_, false)) {}

AtomicFile& AtomicFile::operator=(AtomicFile&& other) noexcept {
  if (this != &other) {
    abort();
    file_ = std::move(other.file_);
    final_path_ = std::move(other.final_path_);
    registration_ = std::move(other.registration_);
    pending_ = std::exchange(other.pending_, false);
  }
  return *this;
}

AtomicFile::~AtomicFile() { abort(); }

Status AtomicFile::commit() {
  if (!pending_) return Status::io(final_path_ + ": commit of a file already committed or aborted");
  Status st = file_.sync();
  if (st.ok()) st = file_.close();
  if (st.ok()) st = rename_into_place(file_.path(), final_path_);
  if (!st.ok()) {
    abort();
    return st;
  }
  pending_ = false;
  registration_.release();
  return Status();
}

void AtomicFile::abort() {
  if (!pending_) return;
  pending_ = false;
  (void)file_.close();
  ::unlink(file_.path().c_str());
  registration_.release();
}

}  // namespace manaka
