#include "core/fault.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>

namespace manaka {

namespace {

struct Fault {
  std::string point, action;
  long at = 0;
  std::atomic<long> passes{0};
};

// Parsed once; a malformed value injects nothing (it is a test's own knob).
Fault* configured() {
  static Fault* fault = [] () -> Fault* {
    const char* env = std::getenv("MANAKA_FAULT");
    if (!env) return nullptr;
    const std::string spec(env);
    const size_t a = spec.find(':'), b = spec.rfind(':');
    if (a == std::string::npos || b == a) return nullptr;
    auto* f = new Fault;  // lives as long as the process
    f->point = spec.substr(0, a);
    f->at = std::strtol(spec.c_str() + a + 1, nullptr, 10);
    f->action = spec.substr(b + 1);
    return f;
  }();
  return fault;
}

}  // namespace

void fault_point(const char* point) {
  Fault* f = configured();
  if (!f || f->point != point) return;
  if (f->passes.fetch_add(1) + 1 != f->at) return;
  if (f->action == "kill") ::kill(::getpid(), SIGKILL);
  if (f->action == "hang")
    while (true) ::pause();
}

}  // namespace manaka
