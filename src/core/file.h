// Thin, error-reporting wrappers over POSIX file descriptors. Every failure is
// a Status::io naming the path and the OS's reason (strerror).
//
//   InputFile   sequential reads; read() fills the buffer unless at EOF
//   OutputFile  create/truncate and append; write_all() retries short writes
//   AtomicFile  writes "<final>.tmp-<pid>", renames to <final> on commit(),
//               removes the temporary on abort() or destruction
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

#include "core/status.h"

namespace manaka {

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
  bool pending_ = false;
};

// "path: <what>: <strerror(err)>", as Status::io.
Status io_error(const std::string& path, const char* what, int err);

// The name an output is written under until it is complete:
// "<final>.tmp-<pid>". Every writer of a final file goes through it, so a
// killed job leaves only complete files under final names.
std::string temporary_path(const std::string& final_path);

// rename(2) of a completed temporary onto its final name.
Status rename_into_place(const std::string& temp, const std::string& final_path);

// A temporary for a writer that opens files by name itself (the MPK1 writer,
// Arrow's file sink): write to path(), then commit() renames it onto the
// final name; destroyed uncommitted, it removes the temporary.
class PendingFile {
 public:
  explicit PendingFile(std::string final_path)
      : final_(std::move(final_path)), temp_(temporary_path(final_)) {}
  PendingFile(const PendingFile&) = delete;
  PendingFile& operator=(const PendingFile&) = delete;
  ~PendingFile() { discard(); }

  const std::string& path() const { return temp_; }
  const std::string& final_path() const { return final_; }
  Status commit();
  // Removes the temporary (a no-op once committed).
  void discard();

 private:
  std::string final_, temp_;
  bool done_ = false;
};

}  // namespace manaka
