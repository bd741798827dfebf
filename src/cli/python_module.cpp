#include "cli/python_module.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <pthread.h>
#include <unistd.h>

#include <CLI/CLI.hpp>

#ifndef MANAKA_PYTHON
#define MANAKA_PYTHON "python3"
#endif

namespace manaka::cli {

void exec_python_module(const std::string& module, const std::string& spec, const std::string& what,
                        const std::string& needs) {
  const char* env = std::getenv("MANAKA_PYTHON");
  const std::string python = env && *env ? env : MANAKA_PYTHON;
  std::fflush(nullptr);
  // main() blocked the termination signals for its cleanup thread; the
  // interpreter must get them (Ctrl-C) as usual.
  sigset_t set;
  sigemptyset(&set);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&set, sig);
  pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
  std::vector<const char*> argv{python.c_str(), "-m", module.c_str(), spec.c_str(), nullptr};
  execvp(python.c_str(), const_cast<char* const*>(argv.data()));
  std::fprintf(stderr, "manaka: %s: cannot run %s (%s); set MANAKA_PYTHON to the Python that has %s\n", what.c_str(),
               python.c_str(), std::strerror(errno), needs.c_str());
  throw CLI::RuntimeError(1);
}

}  // namespace manaka::cli
