// Test helpers that make the operating system refuse, so a test can check
// that its reason reaches the message: an unprivileged user (root reads a
// file of mode 000), a file-size limit (a write beyond it fails with EFBIG,
// "File too large", SIGXFSZ ignored) and a tiny tmpfs (ENOSPC, "No space left
// on device"; needs the right to mount, else the test skips). Included by
// shard, fold and vpd tests; not a test itself.
#pragma once

#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <string>

namespace manaka::testing {

// Drops the effective user to nobody (65534) while alive when running as
// root; an unprivileged run is refused by mode 000 already. ok() is false
// when root cannot drop (then the test skips).
class AsUnprivileged {
 public:
  AsUnprivileged() : was_root_(::geteuid() == 0) { ok_ = !was_root_ || ::seteuid(65534) == 0; }
  ~AsUnprivileged() {
    if (was_root_ && ok_) (void)::seteuid(0);
  }
  AsUnprivileged(const AsUnprivileged&) = delete;
  AsUnprivileged& operator=(const AsUnprivileged&) = delete;
  bool ok() const { return ok_; }

 private:
  bool was_root_;
  bool ok_ = false;
};

// Limits the size of every file this process writes to `bytes` while alive.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    ::getrlimit(RLIMIT_FSIZE, &saved_);
    previous_ = std::signal(SIGXFSZ, SIG_IGN);
    rlimit lim = saved_;
    lim.rlim_cur = bytes;
    ok_ = ::setrlimit(RLIMIT_FSIZE, &lim) == 0;
  }
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &saved_);
    std::signal(SIGXFSZ, previous_);
  }
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;
  bool ok() const { return ok_; }

 private:
  rlimit saved_{};
  void (*previous_)(int) = SIG_DFL;
  bool ok_ = false;
};

// Removes a scratch directory (testing::scratch_dir) at the end of a test.
struct RemovedAtEnd {
  std::filesystem::path dir;
  ~RemovedAtEnd() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
};

// A tmpfs of `size` mounted at `dir` while alive; ok() is false when this
// process may not mount.
class TinyFilesystem {
 public:
  TinyFilesystem(const std::filesystem::path& dir, const std::string& size) : dir_(dir) {
    std::filesystem::create_directories(dir_);
    ok_ = ::mount("tmpfs", dir_.c_str(), "tmpfs", 0, ("size=" + size).c_str()) == 0;
  }
  ~TinyFilesystem() {
    if (ok_) ::umount2(dir_.c_str(), MNT_DETACH);
  }
  TinyFilesystem(const TinyFilesystem&) = delete;
  TinyFilesystem& operator=(const TinyFilesystem&) = delete;
  bool ok() const { return ok_; }

 private:
  std::filesystem::path dir_;
  bool ok_ = false;
};

}  // namespace manaka::testing
