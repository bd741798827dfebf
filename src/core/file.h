// Thin, error-reporting wrappers over POSIX file descriptors. Every failure is
// a Status::io naming the path and the OS's reason (strerror).
//
//   InputFile   sequential reads; read() fills the buffer unless at EOF;
//               read_at() reads at an offset (pread)
//   OutputFile  create/truncate and append; write_all() retries short writes
//   AtomicFile  writes "<final>.tmp-<pid>", renames to <final> on commit(),
//               removes the temporary on abort() or destruction (and, through
//               core/temporary.h, on SIGINT/SIGTERM)
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "core/status.h"
#include "core/temporary.h"

namespace manaka {

// True for a path that gives its bytes once, front to back: a FIFO, the pipe
// of a process substitution (`<(zstdcat c.jsonl.zst)`), a character device.
// A reader that must seek or read twice refuses one; a format that can only be
// one of several (parquet seeks) is told by it.
bool is_read_once(const std::string& path);

// For a command that reads each input more than once (pack, stream split):
// a pipe or FIFO would give its bytes to the first read only, or block the
// second open forever, so anything but a regular file is refused, naming the
// command. A path that does not exist passes (opening it reports why).
Status check_rereadable(const std::string& path, std::string_view command);

class InputFile {
 public:
  static Result<InputFile> open(const std::string& path);

  InputFile() = default;
  InputFile(InputFile&& other) noexcept;
  InputFile& operator=(InputFile&& other) noexcept;
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
  ~InputFile();

  // Reads up to n bytes, looping over short reads; returns fewer than n only
  // at end of file (0 when already there).
  Result<size_t> read(void* buf, size_t n);
  // Reads up to n bytes at offset without moving the position (pread),
  // looping over short reads; fewer than n only at end of file.
  Result<size_t> read_at(uint64_t offset, void* buf, size_t n);
  // The size at open() (fstat); a file still being appended to may grow.
  uint64_t size_at_open() const { return size_; }
  const std::string& path() const { return path_; }
  bool is_open() const { return fd_ >= 0; }
  void close();

 private:
  int fd_ = -1;
  uint64_t size_ = 0;
  std::string path_;
};

class OutputFile {
 public:
  // Creates the file, or truncates it when it exists.
  static Result<OutputFile> create(const std::string& path);

  OutputFile() = default;
  OutputFile(OutputFile&& other) noexcept;
  OutputFile& operator=(OutputFile&& other) noexcept;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();  // closes; an error at that point is lost, call close()

  // Writes all n bytes or fails; short writes are retried.
  Status write_all(const void* buf, size_t n);
  Status sync();   // fsync
  Status close();  // a second close() is a no-op
  const std::string& path() const { return path_; }
  bool is_open() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
  std::string path_;
};

class AtomicFile {
 public:
  static Result<AtomicFile> create(const std::string& final_path);

  AtomicFile() = default;
  AtomicFile(AtomicFile&& other) noexcept;
  AtomicFile& operator=(AtomicFile&& other) noexcept;
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile();  // aborts unless committed

  Status write_all(const void* buf, size_t n) { return file_.write_all(buf, n); }
  // fsyncs, closes and renames the temporary onto the final path.
  Status commit();
  // Closes and removes the temporary; the final path is untouched.
  void abort();
  const std::string& final_path() const { return final_path_; }
  const std::string& temp_path() const { return file_.path(); }

 private:
  OutputFile file_;
  std::string final_path_;
  TemporaryRegistration registration_;
  bool pending_ = false;
};

// A small file written whole: created (or truncated), bytes, fsync, close.
// For a file inside a directory that is committed as a whole (TempDir).
Status write_file(const std::string& path, std::string_view bytes);

// "path: <what>: <strerror(err)>", as Status::io.
Status io_error(const std::string& path, const char* what, int err);

}  // namespace manaka
