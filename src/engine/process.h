// A child process whose standard input and output are one end of a Unix
// socket pair, read a line at a time with a timeout.
//
// A socket rather than two pipes so that writing to a child that has died
// fails with EPIPE (send with MSG_NOSIGNAL) instead of raising SIGPIPE in the
// whole program, which would kill a Python interpreter or the command along
// with the engine. Every descriptor is created close-on-exec, so a child
// spawned by one worker thread never holds another child's socket open (which
// would hide that child's death: its end would never reach EOF).
//
// Errors are Status::engine and name the program and its pid:
//   "engine /usr/games/fairy-stockfish (pid 4242): exited with status 3"
// The child's standard error is inherited.
#pragma once

#include <sys/types.h>

#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace manaka::engine {

class Process {
 public:
  // What read_line found.
  enum class Read : uint8_t { Line, Eof, Timeout };

  // Starts `path` (searched on PATH when it has no '/') with `args`.
  static Result<Process> spawn(const std::string& path, const std::vector<std::string>& args = {});

  Process() = default;
  Process(Process&& other) noexcept;
  Process& operator=(Process&& other) noexcept;
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;
  ~Process();  // kill() if still running

  // Sends line + '\n'. A child that has gone is an engine error.
  Status write_line(std::string_view line);
  // The next line without its '\n' (and without a '\r' before it) in *line.
  // timeout_ms < 0 waits for ever. Eof: the child closed its output (it has
  // exited, or is exiting). Lines longer than 1 MiB are an engine error.
  Result<Read> read_line(std::string* line, int timeout_ms);

  // SIGKILL and reap; a no-op once the child has been reaped.
  void kill();
  // Waits up to timeout_ms for the child to exit by itself, then kill()s.
  void wait_or_kill(int timeout_ms);
  // Waits up to timeout_ms for the child to exit by itself; true if it has.
  bool wait_exit(int timeout_ms);
  // Reaps the child if it has exited (non-blocking); true if it has.
  bool poll_exit();
  // "exited with status 3", "killed by signal 9", or "still running".
  std::string exit_description() const;

  bool running() const { return pid_ > 0 && !reaped_; }
  pid_t pid() const { return pid_; }
  const std::string& path() const { return path_; }
  // "engine <path> (pid N): "
  std::string context() const;

 private:
  void close_socket();

  std::string path_;
  pid_t pid_ = -1;
  int fd_ = -1;
  bool reaped_ = false;
  int wait_status_ = 0;
  std::string buffer_;  // bytes read past the last line returned
  size_t scan_from_ = 0;  // buffer_[0, scan_from_) holds no '\n'
};

}  // namespace manaka::engine
