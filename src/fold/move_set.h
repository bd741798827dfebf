// The rule the stream leaves to the fold: a record lists each mv at most
// once (docs: "The one thing not checked is that mv appears at most once in
// a record ... it is enforced there, where the lists are being merged").
//
// One stamp per possible u16 move (256 KiB); a record bumps the epoch, so the
// check is O(n_cand) with nothing to clear between records.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "stream/format.h"

namespace manaka::fold {

class MoveSet {
 public:
  MoveSet() : stamp_(size_t{1} << 16, 0), index_(size_t{1} << 16, 0) {}

  // The index of the first candidate whose mv an earlier candidate already
  // listed, or -1 when every mv is distinct; *first gets the earlier index.
  int64_t first_repeat(std::span<const stream::Candidate> cands, int64_t* first) {
    if (++epoch_ == 0) {  // wrapped: old stamps could match again
      std::fill(stamp_.begin(), stamp_.end(), 0);
      epoch_ = 1;
    }
    for (size_t i = 0; i < cands.size(); ++i) {
      const uint16_t mv = cands[i].mv;
      if (stamp_[mv] == epoch_) {
        if (first) *first = index_[mv];
        return static_cast<int64_t>(i);
      }
      stamp_[mv] = epoch_;
      index_[mv] = static_cast<uint32_t>(i);
    }
    return -1;
  }

 private:
  std::vector<uint32_t> stamp_;
  std::vector<uint32_t> index_;  // position of each stamped mv in the record
  uint32_t epoch_ = 0;
};

}  // namespace manaka::fold
