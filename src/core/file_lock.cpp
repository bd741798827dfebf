#include "core/file_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "core/file.h"

namespace manaka {

Result<FileLock> FileLock::acquire(const std::string& path, const std::string& what) {
  for (;;) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return io_error(path, "cannot open the lock file", errno);
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      ::close(fd);
      if (err == EWOULDBLOCK) return Status::usage(what + " (it holds " + path + ")");
      return io_error(path, "cannot lock", err);
    }
    struct stat held, named;
    if (::fstat(fd, &held) == 0 && ::stat(path.c_str(), &named) == 0 && held.st_ino == named.st_ino &&
        held.st_dev == named.st_dev) {
      FileLock lock;
      lock.fd_ = fd;
      lock.path_ = path;
      lock.registration_ = TemporaryRegistration(path);
      return lock;
    }
    ::close(fd);
  }
}

FileLock& FileLock::operator=(FileLock&& other) noexcept {
  if (this != &other) {
    release();
    fd_ = std::exchange(other.fd_, -1);
    path_ = std::move(other.path_);
    registration_ = std::move(other.registration_);
  }
  return *this;
}

void FileLock::release() {
  if (fd_ < 0) return;
  ::unlink(path_.c_str());  // while still held: the next run's stat check sees it
  ::close(fd_);
  fd_ = -1;
  registration_.release();
}

}  // namespace manaka
