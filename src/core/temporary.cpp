#include "core/temporary.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "core/file.h"

namespace manaka {

namespace fs = std::filesystem;

namespace {

constexpr const char* kTempInfix = ".tmp-";

// ---- the registry the signal thread empties ----

struct Registry {
  std::mutex mu;
  std::vector<std::pair<uint64_t, std::string>> paths;
  uint64_t next_id = 1;
};

Registry& registry() {
  static Registry* r = new Registry;  // never destroyed: the signal thread may outlive main
  return *r;
}

// Whether pid names a process that no longer exists.
bool process_gone(const std::string& digits) {
  if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos)
    return false;
  const auto pid = static_cast<pid_t>(std::stol(digits));
  if (pid <= 0 || pid == ::getpid()) return false;
  return ::kill(pid, 0) != 0 && errno == ESRCH;
}

void remove_path(const std::string& path) {
  std::error_code ec;
  fs::remove_all(path, ec);
}

// Removal while the process ends under writer threads that may still be
// filling a temporary directory: it is moved off its name first, so a file
// opened by that name afterwards fails instead of landing in it, and a pass
// that met a file made meanwhile is repeated.
void remove_on_signal(const std::string& path) {
  const std::string aside = path + ".removing";
  const std::string& target = ::rename(path.c_str(), aside.c_str()) == 0 ? aside : path;
  for (int pass = 0; pass < 8; ++pass) {
    std::error_code ec;
    fs::remove_all(target, ec);
    if (!fs::exists(fs::symlink_status(target, ec))) return;
  }
}

void signal_thread(sigset_t set) {
  int sig = 0;
  while (::sigwait(&set, &sig) != 0) {
  }
  Registry& r = registry();
  r.mu.lock();  // held until the process ends: no temporary is made after this
  for (const auto& [id, path] : r.paths) remove_on_signal(path);
  ::signal(sig, SIG_DFL);
  sigset_t one;
  sigemptyset(&one);
  sigaddset(&one, sig);
  ::pthread_sigmask(SIG_UNBLOCK, &one, nullptr);
  ::raise(sig);
  ::_exit(128 + sig);  // not reached: the default action ends the process
}

}  // namespace

std::string temporary_path(const std::string& final_path) {
  return final_path + kTempInfix + std::to_string(::getpid());
}

Status rename_into_place(const std::string& temp, const std::string& final_path) {
  if (::rename(temp.c_str(), final_path.c_str()) != 0)
    return io_error(final_path, ("cannot rename " + temp + " onto it").c_str(), errno);
  return Status();
}

std::vector<std::string> stale_temporaries(const std::string& dir,
                                           const std::function<bool(std::string_view final_name)>& ours) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir.empty() ? fs::path(".") : fs::path(dir), ec)) {
    const std::string name = entry.path().filename().string();
    const size_t at = name.rfind(kTempInfix);
    if (at == std::string::npos || at == 0) continue;
    if (!process_gone(name.substr(at + std::string_view(kTempInfix).size()))) continue;
    if (ours(std::string_view(name).substr(0, at))) out.push_back(entry.path().string());
  }
  return out;
}

int remove_stale_temporaries(const std::string& final_path) {
  const fs::path final_p(final_path);
  const std::string final_name = final_p.filename().string();
  const auto stale = stale_temporaries(final_p.parent_path().string(),
                                       [&](std::string_view name) { return name == final_name; });
  for (const std::string& path : stale) remove_path(path);
  return int(stale.size());
}

void install_signal_cleanup() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  ::pthread_sigmask(SIG_BLOCK, &set, nullptr);
  // A write past `ulimit -f` or into a closed pipe fails with EFBIG or EPIPE
  // instead of killing the process where it stands: the writer's error names
  // the file and its temporaries go the ordinary way (Python does the same).
  ::signal(SIGXFSZ, SIG_IGN);
  ::signal(SIGPIPE, SIG_IGN);
  std::thread(signal_thread, set).detach();
}

// ---- TemporaryRegistration ----

TemporaryRegistration::TemporaryRegistration(const std::string& path) {
  Registry& r = registry();
  std::lock_guard lock(r.mu);
  id_ = r.next_id++;
  r.paths.emplace_back(id_, path);
}

TemporaryRegistration::TemporaryRegistration(TemporaryRegistration&& other) noexcept
    : id_(std::exchange(other.id_, 0)) {}

TemporaryRegistration& TemporaryRegistration::operator=(TemporaryRegistration&& other) noexcept {
  if (this != &other) {
    release();
    id_ = std::exchange(other.id_, 0);
  }
  return *this;
}

void TemporaryRegistration::release() {
  if (id_ == 0) return;
  Registry& r = registry();
  std::lock_guard lock(r.mu);
  for (size_t i = 0; i < r.paths.size(); ++i) {
    if (r.paths[i].first != id_) continue;
    r.paths[i] = std::move(r.paths.back());
    r.paths.pop_back();
    break;
  }
  id_ = 0;
}

// ---- PendingFile ----

PendingFile::PendingFile(std::string final_path)
    : final_(std::move(final_path)),
      temp_(temporary_path(final_)),
      registration_(temp_),
      parents_(fs::path(final_).parent_path().string()) {
  remove_stale_temporaries(final_);
}

Status PendingFile::commit() {
  if (done_) return Status::io(final_ + ": commit of a file already committed or discarded");
  Status st = rename_into_place(temp_, final_);
  if (!st.ok()) {
    discard();
    return st;
  }
  done_ = true;
  registration_.release();
  parents_.keep();
  return Status();
}

void PendingFile::keep() {
  done_ = true;
  registration_.release();
  parents_.keep();
}

void PendingFile::discard() {
  if (done_) return;
  done_ = true;
  ::unlink(temp_.c_str());
  registration_.release();
  parents_.undo();
}

// ---- MadeDirectories ----

MadeDirectories::MadeDirectories(const std::string& dir) {
  std::error_code ec;
  std::vector<std::string> missing;
  for (fs::path p = dir; !p.empty() && !fs::exists(p, ec); p = p.parent_path()) {
    missing.push_back(p.string());
    if (p == p.parent_path()) break;
  }
  fs::create_directories(dir, ec);
  if (ec) return;
  made_.assign(missing.rbegin(), missing.rend());
}

MadeDirectories& MadeDirectories::operator=(MadeDirectories&& other) noexcept {
  if (this != &other) {
    undo();
    made_ = std::move(other.made_);
    other.made_.clear();
  }
  return *this;
}

void MadeDirectories::undo() {
  // rmdir refuses a directory that is not empty: what another writer put
  // there, or the output a concurrent run completed, stays.
  for (auto it = made_.rbegin(); it != made_.rend(); ++it) ::rmdir(it->c_str());
  made_.clear();
}

// ---- TempDir ----

Result<TempDir> TempDir::for_output(const std::string& output) {
  // "games/" names the directory games: its temporary is games.tmp-PID, not games/.tmp-PID.
  std::string final_path = output;
  while (final_path.size() > 1 && final_path.back() == '/') final_path.pop_back();
  TempDir dir;
  dir.parents_ = MadeDirectories(fs::path(final_path).parent_path().string());
  remove_stale_temporaries(final_path);
  dir.path_ = temporary_path(final_path);
  dir.final_ = final_path;
  remove_path(dir.path_);  // a leftover of a process with our pid
  if (::mkdir(dir.path_.c_str(), 0755) != 0) {
    int err = errno;
    dir.path_.clear();
    return io_error(temporary_path(final_path), "cannot create the directory", err);
  }
  dir.registration_ = TemporaryRegistration(dir.path_);
  return dir;
}

Result<TempDir> TempDir::scratch(const std::string& parent_dir, const std::string& label) {
  const std::string parent = parent_dir.empty() ? std::string(".") : parent_dir;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(parent, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.size() <= label.size() || name.compare(0, label.size(), label) != 0) continue;
    const size_t dash = name.find('-', label.size());
    if (dash == std::string::npos) continue;
    if (process_gone(name.substr(label.size(), dash - label.size()))) remove_path(entry.path().string());
  }
  std::string pattern = parent + "/" + label + std::to_string(::getpid()) + "-XXXXXX";
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  if (::mkdtemp(buf.data()) == nullptr) return io_error(pattern, "cannot create the directory", errno);
  TempDir dir;
  dir.path_ = buf.data();
  dir.registration_ = TemporaryRegistration(dir.path_);
  return dir;
}

TempDir::TempDir(TempDir&& other) noexcept
    : path_(std::exchange(other.path_, {})),
      final_(std::exchange(other.final_, {})),
      registration_(std::move(other.registration_)),
      parents_(std::move(other.parents_)) {}

TempDir& TempDir::operator=(TempDir&& other) noexcept {
  if (this != &other) {
    remove();
    path_ = std::exchange(other.path_, {});
    final_ = std::exchange(other.final_, {});
    registration_ = std::move(other.registration_);
    parents_ = std::move(other.parents_);
  }
  return *this;
}

Status replace_directory(const std::string& from, const std::string& onto) {
  // The new tree takes the name in one step; the old one is then at `from`.
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, onto.c_str(), RENAME_EXCHANGE) == 0) {
    remove_path(from);
    return Status();
  }
  if (errno != EINVAL && errno != ENOSYS) return io_error(onto, "cannot exchange it with its replacement", errno);
  const std::string aside = onto + ".old-" + std::to_string(::getpid());
  if (::rename(onto.c_str(), aside.c_str()) != 0) return io_error(onto, "cannot move it aside", errno);
  Status st_in = rename_into_place(from, onto);
  if (!st_in.ok()) {
    (void)::rename(aside.c_str(), onto.c_str());
    return st_in;
  }
  remove_path(aside);
  return Status();
}

Status TempDir::commit(bool replace) {
  if (path_.empty() || final_.empty()) return Status::io(final_ + ": commit of a directory that is not pending");
  struct stat st;
  const bool exists = ::lstat(final_.c_str(), &st) == 0;
  if (exists && !replace) return Status::io(final_ + ": exists; not replaced");
  if (exists) {
    Status replaced = replace_directory(path_, final_);
    if (!replaced.ok()) return replaced;
  } else {
    MANAKA_RETURN_NOT_OK(rename_into_place(path_, final_));
  }
  path_.clear();
  registration_.release();
  parents_.keep();
  return Status();
}

void TempDir::remove() {
  if (path_.empty()) return;
  remove_path(path_);
  path_.clear();
  registration_.release();
  parents_.undo();
}

}  // namespace manaka
