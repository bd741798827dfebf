// Putting a written shard set in place of the earlier set under the same
// prefix, so that a kill at any moment leaves one of the two whole under the
// final names: at once, or once the next run on the prefix has recovered it.
//
//   1. "<dir>/.<name>.publish" is written whole (temporary, fsync, rename):
//      this run's pid and the new shards' indices. Every new shard is already
//      complete under "<shard>.tmp-<pid>".
//   2. the earlier set's files that the new set replaces or outgrows are
//      renamed aside to "<shard>.old-<pid>";
//   3. the new shards' temporaries are renamed onto the final names;
//   4. the set-aside files are removed, then the journal.
// A kill before (1) leaves the earlier set untouched and the new shards as
// stale temporaries. A kill after it is rolled forward by recover_shard_set,
// which the next holder of the prefix's lock runs before anything else:
// every new shard is complete once the journal exists, so the replacement is
// always finished, never undone. Renames onto names that do not exist also
// keep ext4 from writing a replaced file back at once (auto_da_alloc, about
// 90 ms for a 250 MB shard): the earlier files are removed afterwards, on
// several threads.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/status.h"
#include "core/temporary.h"

namespace manaka::shard {

// The journal of a prefix: "<dir>/.<name>.publish".
std::string publish_journal_path(const std::string& prefix);

struct Published {
  std::vector<std::string> shards;   // the new set's final paths, by index
  std::vector<std::string> removed;  // the earlier set's files no longer named by the new one
};

// Steps 1-4 for the complete shards `pending` (indices [first, first +
// pending.size()) of a set of `count`), each a PendingFile on
// shard_path(prefix, index). The caller holds the prefix's lock. A failure
// before the journal exists removes nothing of the earlier set; one after it
// says that the next pack on the prefix completes the replacement.
Result<Published> publish_shard_set(const std::string& prefix, uint64_t first, uint64_t count,
                                    std::vector<std::unique_ptr<PendingFile>>& pending);

// Finishes a replacement a killed run left half done (see above); a no-op
// without a journal. Returns how many new shards it renamed into place. The
// caller holds the prefix's lock, so the journal's writer is gone.
Result<uint64_t> recover_shard_set(const std::string& prefix);

}  // namespace manaka::shard
