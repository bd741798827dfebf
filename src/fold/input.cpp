#include "fold/input.h"

#include "core/file.h"
#include "core/output.h"
#include "fold/board_hash.h"
#include "fold/compat.h"

namespace manaka::fold {

Result<Inputs> open_inputs(const std::vector<std::string>& paths) {
  if (paths.empty()) return Status::usage("no input streams");
  // Folding a stream with itself would double every weight.
  MANAKA_RETURN_NOT_OK(check_distinct_inputs(paths));
  Inputs in;
  in.paths = paths;
  for (size_t i = 0; i < paths.size(); ++i) {
    MANAKA_RETURN_NOT_OK(check_rereadable(paths[i], "pack"));
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
