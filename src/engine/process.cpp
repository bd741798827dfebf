#include "engine/process.h"

#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

extern char** environ;

namespace manaka::engine {

namespace {

constexpr size_t kMaxLine = size_t{1} << 20;
constexpr size_t kReadChunk = 1 << 16;

std::string errno_text(int err) { return std::strerror(err); }

}  // namespace

Result<Process> Process::spawn(const std::string& path, const std::vector<std::string>& args) {
  const std::string context = "engine " + path + ": ";
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
    return Status::engine(context + "socketpair: " + errno_text(errno));

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  // dup2 clears close-on-exec on the copies; the originals close at exec.
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);

  // The child starts with default signal handling and an empty mask: a
  // parent that ignores SIGPIPE (Python does) would otherwise pass that on.
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t defaults, empty;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  sigemptyset(&empty);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setsigmask(&attr, &empty);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);

  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(path.c_str()));
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);

  pid_t pid = -1;
  int rc = path.find('/') == std::string::npos
               ? ::posix_spawnp(&pid, path.c_str(), &actions, &attr, argv.data(), environ)
               : ::posix_spawn(&pid, path.c_str(), &actions, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(fds[1]);
  if (rc != 0) {
    ::close(fds[0]);
    return Status::engine(context + "cannot start: " + errno_text(rc));
  }
  Process p;
  p.path_ = path;
  p.pid_ = pid;
  p.fd_ = fds[0];
  return p;
}

Process::Process(Process&& other) noexcept { *this = std::move(other); }

Process& Process::operator=(Process&& other) noexcept {
  if (this != &other) {
    kill();
    path_ = std::move(other.path_);
    pid_ = other.pid_;
    fd_ = other.fd_;
    reaped_ = other.reaped_;
    wait_status_ = other.wait_status_;
    buffer_ = std::move(other.buffer_);
    scan_from_ = other.scan_from_;
    other.pid_ = -1;
    other.fd_ = -1;
    other.reaped_ = false;
    other.buffer_.clear();
    other.scan_from_ = 0;
  }
  return *this;
}

Process::~Process() { kill(); }

std::string Process::context() const {
  return "engine " + path_ + " (pid " + std::to_string(pid_) + "): ";
}

void Process::close_socket() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

Status Process::write_line(std::string_view line) {
  if (fd_ < 0) return Status::engine(context() + "not running");
  std::string data(line);
  data += '\n';
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::send(fd_, data.data() + done, data.size() - done, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      poll_exit();
      return Status::engine(context() + "cannot send \"" + std::string(line) + "\": " +
                            errno_text(err) + " (" + exit_description() + ")");
    }
    done += static_cast<size_t>(n);
  }
  return Status();
}

Result<Process::Read> Process::read_line(std::string* line, int timeout_ms) {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms < 0 ? 0 : timeout_ms);
  for (;;) {
    size_t nl = buffer_.find('\n', scan_from_);
    if (nl != std::string::npos) {
      size_t end = nl > 0 && buffer_[nl - 1] == '\r' ? nl - 1 : nl;
      line->assign(buffer_, 0, end);
      buffer_.erase(0, nl + 1);
      scan_from_ = 0;
      return Read::Line;
    }
    scan_from_ = buffer_.size();
    if (buffer_.size() > kMaxLine)
      return Status::engine(context() + "sent a line longer than 1 MiB");
    if (fd_ < 0) return Read::Eof;
    int wait_ms = -1;
    if (timeout_ms >= 0) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      if (left.count() <= 0) return Read::Timeout;
      wait_ms = static_cast<int>(left.count());
    }
    pollfd pfd{fd_, POLLIN, 0};
    int rc = ::poll(&pfd, 1, wait_ms);
    if (rc < 0) {
      if (errno == EINTR) continue;
      return Status::engine(context() + "poll: " + errno_text(errno));
    }
    if (rc == 0) return Read::Timeout;
    char chunk[kReadChunk];
    ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      if (errno != ECONNRESET) return Status::engine(context() + "read: " + errno_text(errno));
      n = 0;
    }
    if (n == 0) {
      close_socket();
      if (buffer_.empty()) return Read::Eof;
      line->swap(buffer_);  // a last line without its '\n'
      buffer_.clear();
      scan_from_ = 0;
      return Read::Line;
    }
    buffer_.append(chunk, static_cast<size_t>(n));
  }
}

bool Process::poll_exit() {
  if (pid_ <= 0 || reaped_) return reaped_;
  int status = 0;
  pid_t r = ::waitpid(pid_, &status, WNOHANG);
  if (r == pid_) {
    reaped_ = true;
    wait_status_ = status;
  }
  return reaped_;
}

bool Process::wait_exit(int timeout_ms) {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  while (running() && !poll_exit() && Clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  return !running();
}

void Process::wait_or_kill(int timeout_ms) {
  wait_exit(timeout_ms);
  kill();
}

void Process::kill() {
  close_socket();
  if (pid_ > 0 && !reaped_) {
    if (!poll_exit()) {
      ::kill(pid_, SIGKILL);
      int status = 0;
      while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
      }
      reaped_ = true;
      wait_status_ = status;
    }
  }
}

std::string Process::exit_description() const {
  if (pid_ <= 0) return "not started";
  if (!reaped_) return "still running";
  if (WIFEXITED(wait_status_)) return "exited with status " + std::to_string(WEXITSTATUS(wait_status_));
  if (WIFSIGNALED(wait_status_)) {
    int sig = WTERMSIG(wait_status_);
    const char* name = ::strsignal(sig);
    return "killed by signal " + std::to_string(sig) + (name ? std::string(" (") + name + ")" : "");
  }
  return "ended (wait status " + std::to_string(wait_status_) + ")";
}

}  // namespace manaka::engine
