// libFuzzer target: arbitrary bytes through the MPK1 reader and the
// statistics, once from memory and once from a file (a memfd), which must
// agree. The reader must only ever return errors: never crash, read out of
// bounds or allocate beyond its caps.
//
//   clang++ -std=c++20 -fconstexpr-steps=100000000 -fsanitize=fuzzer,address,undefined -I src \
//     fuzz/stream_reader_fuzz.cpp src/stream/*.cpp src/shogi/*.cpp src/core/status.cpp \
//     src/core/file.cpp src/core/progress.cpp -o /tmp/stream_fuzz
//   /tmp/stream_fuzz -max_total_time=30 [CORPUS_DIR]
// (src/shogi for rule 10: a 96-byte position must be one shogi::unpack accepts.)
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "stream/inspect.h"
#include "stream/reader.h"
#include "stream/validate.h"

namespace {

using namespace manaka;
using namespace manaka::stream;

struct Outcome {
  bool opened = false;
  uint64_t records = 0;
  uint64_t offset = 0;
  std::string error;  // without the leading name
};

std::string strip_name(const std::string& msg, const std::string& name) {
  return msg.rfind(name, 0) == 0 ? msg.substr(name.size()) : msg;
}

Outcome drain(Result<Reader> reader, const std::string& name) {
  Outcome out;
  if (!reader.ok()) {
    out.error = strip_name(reader.status().message(), name);
    return out;
  }
  out.opened = true;
  StatsAccumulator stats(reader->header());
  MoveSeen seen;  // one for the stream, as the reader keeps one
  RecordView rec;
  while (true) {
    auto more = reader->next(rec);
    if (!more.ok()) {
      out.error = strip_name(more.status().message(), name);
      break;
    }
    if (!*more) break;
    // Whatever the reader hands out has passed every rule.
    if (!validate_record(reader->header(), rec, seen).ok()) __builtin_trap();
    stats.add(rec);
  }
  (void)stats.finish(reader->byte_offset());
  out.records = reader->record_index();
  out.offset = reader->byte_offset();
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Outcome mem = drain(Reader::from_memory(std::span<const uint8_t>(data, size), "fuzz.mpk"), "fuzz.mpk");

  int fd = ::memfd_create("mpk", 0);
  if (fd < 0) return 0;
  size_t done = 0;
  while (done < size) {
    ssize_t put = ::write(fd, data + done, size - done);
    if (put <= 0) break;
    done += static_cast<size_t>(put);
  }
  std::string name = "/proc/self/fd/" + std::to_string(fd);
  Outcome file = drain(Reader::open(name), name);
  ::close(fd);

  if (done == size && (mem.opened != file.opened || mem.records != file.records || mem.offset != file.offset ||
                       mem.error != file.error)) {
    __builtin_trap();  // the two sources disagree
  }
  return 0;
}
