#include "fold/input.h"

#include <sys/stat.h>

#include "core/output.h"
#include "fold/board_hash.h"
#include "fold/compat.h"

namespace manaka::fold {

namespace {

// pack reads every input more than once (its header first, then once per
// fold thread, or again for each bucket pass): a pipe or FIFO would give its
// bytes to the first read only, or block the second open forever.
Status check_rereadable(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return Status();  // opening it reports why
  if (S_ISREG(st.st_mode)) return Status();
  const char* kind = S_ISFIFO(st.st_mode) ? "a pipe or FIFO" : S_ISDIR(st.st_mode) ? "a directory" : "not a regular file";
  return Status::usage(path + ": is " + kind +
                       ", and pack reads each input more than once; write it to a file first (manaka stream "
                       "validate reads a pipe once)");
}

}  // namespace

Result<Inputs> open_inputs(const std::vector<std::string>& paths) {
  if (paths.empty()) return Status::usage("no input streams");
  // Folding a stream with itself would double every weight.
  MANAKA_RETURN_NOT_OK(check_distinct_inputs(paths));
  Inputs in;
  in.paths = paths;
  for (size_t i = 0; i < paths.size(); ++i) {
    MANAKA_RETURN_NOT_OK(check_rereadable(paths[i]));
    MANAKA_ASSIGN_OR_RETURN(auto reader, stream::Reader::open(paths[i]));
    const stream::Header& h = reader.header();
    if (i == 0) {
      if (h.packed_len != kBoardBytes) {
        return Status::invalid(paths[i] + ": packed_len is " + std::to_string(h.packed_len) +
                               ", but shards hold the 96-byte manaka shogi position");
      }
      in.header = h;
    } else {
      MANAKA_RETURN_NOT_OK(check_foldable(paths[0], in.header, paths[i], h));
    }
    in.total_bytes += reader.size();
  }
  return in;
}

}  // namespace manaka::fold
