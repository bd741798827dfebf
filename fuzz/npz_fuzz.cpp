// libFuzzer target: arbitrary bytes as an npz archive, from memory and from
// a file (a memfd), through the zip directories, every array's .npy header
// and data, and the chess shard layer. The readers must only ever return
// errors: never crash, read out of bounds, or allocate beyond their caps
// (ZipLimits here are small, so a hostile size shows up as a refusal).
// Both sources must agree on the outcome.
//
//   make fuzz    (builds every fuzz/*_fuzz.cpp against the instrumented core)
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>

#include "chess_shard/chess_shard.h"
#include "npz/npz_reader.h"

namespace {

using namespace manaka;

void check(bool ok) {
  if (!ok) std::abort();
}

npz::ZipLimits limits() {
  npz::ZipLimits l;
  l.max_entries = 64;
  l.max_central_directory = 1 << 16;
  l.max_member_bytes = 1 << 24;
  return l;
}

std::string strip(const std::string& msg, const std::string& name) {
  return msg.rfind(name, 0) == 0 ? msg.substr(name.size()) : msg;
}

// Every array read in full; the outcome as text (errors without the name).
std::string drain(Result<npz::NpzReader> r, const std::string& name) {
  if (!r.ok()) return "open: " + strip(r.status().message(), name);
  std::string out;
  for (const std::string& array : r->names()) {
    auto a = r->read(array);
    if (!a.ok()) {
      out += "array: " + strip(a.status().message(), name) + "\n";
      continue;
    }
    check(a->data.size() == npz::itemsize(a->dtype) * [&] {
      uint64_t n = 1;
      for (uint64_t d : a->shape) n *= d;
      return n;
    }());
    out += array + " ok\n";
  }
  auto shard = chess_corpus::read_chess_shard(*r);
  if (shard.ok()) {
    check(shard->states.size() == shard->positions * chess_corpus::PLANES_PER_POSITION);
    check(chess_corpus::check_values(shard->view()).ok());
    out += "shard ok\n";
  } else {
    out += "shard: " + strip(shard.status().message(), name) + "\n";
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string mem =
      drain(npz::NpzReader::from_memory(std::span<const uint8_t>(data, size), "fuzz.npz", limits()), "fuzz.npz");

  int fd = ::memfd_create("npz", 0);
  if (fd < 0) return 0;
  size_t done = 0;
  while (done < size) {
    ssize_t put = ::write(fd, data + done, size - done);
    if (put <= 0) break;
    done += static_cast<size_t>(put);
  }
  const std::string name = "/proc/self/fd/" + std::to_string(fd);
  const std::string file = drain(npz::NpzReader::open(name, limits()), name);
  ::close(fd);
  if (done == size) check(mem == file);
  return 0;
}
