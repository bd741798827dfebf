// An exclusive lock held through a file: flock(2) on it, released when the
// holder ends, however it ends. The holder removes the file as it lets go,
// and so does the signal cleanup when SIGINT, SIGTERM or SIGHUP stops it
// (core/temporary.h; a kill -9 leaves it, empty and unlocked, for the next
// run); a run that locked a file just removed (its inode no longer the
// path's) tries again.
#pragma once

#include <string>
#include <utility>

#include "core/status.h"
#include "core/temporary.h"

namespace manaka {

class FileLock {
 public:
  // Refuses at once (Usage: "<what>: another run holds <path>") when another
  // process holds it.
  static Result<FileLock> acquire(const std::string& path, const std::string& what);
  FileLock() = default;
  FileLock(FileLock&& other) noexcept
      : fd_(std::exchange(other.fd_, -1)), path_(std::move(other.path_)), registration_(std::move(other.registration_)) {}
  FileLock& operator=(FileLock&& other) noexcept;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  ~FileLock() { release(); }
  void release();

 private:
  int fd_ = -1;
  std::string path_;
  TemporaryRegistration registration_;  // the signal cleanup removes the file too
};

}  // namespace manaka
