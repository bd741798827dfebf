// The pid of a process that has exited: what a temporary left by kill -9
// carries in its name.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

namespace manaka::testing {

inline pid_t dead_pid() {
  pid_t pid = ::fork();
  if (pid == 0) ::_exit(0);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return pid;
}

}  // namespace manaka::testing
