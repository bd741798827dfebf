// Three stages overlapped over three buffers in rotation: while the calling
// thread converts buffer i, a reading thread fills buffer i + 1 and a
// writing thread writes buffer i - 1 (teacher conversion, stream import).
//
//   read(T& into)    -> Result<bool>  false at the end of the input
//   convert(T& buf)                   on the calling thread (which may fan out)
//   write(T& buf)    -> Status
//
// The first error of any stage is returned after the other stages in flight
// have finished with the buffers they hold.
#pragma once

#include <future>

#include "core/status.h"
#include "core/task_thread.h"

namespace manaka {

template <class T, class Read, class Convert, class Write>
Status run_three_stages(T (&buffers)[3], Read&& read, Convert&& convert, Write&& write) {
  TaskThread reading, writing;
  std::future<Status> written;  // the previous buffer's write
  auto wait_written = [&written]() -> Status { return written.valid() ? written.get() : Status{}; };
  MANAKA_ASSIGN_OR_RETURN(bool have, read(buffers[0]));
  for (size_t cur = 0; have; cur = (cur + 1) % 3) {
    T& buffer = buffers[cur];
    auto next = reading.submit([&read, &buffers, cur] { return read(buffers[(cur + 1) % 3]); });
    convert(buffer);
    Status st = wait_written();
    if (!st.ok()) {
      next.wait();
      return st;
    }
    written = writing.submit([&write, &buffer] { return write(buffer); });
    auto more = next.get();
    if (!more.ok()) {
      written.wait();
      return std::move(more).take_status();
    }
    have = *more;
  }
  return wait_written();
}

}  // namespace manaka
