// Spool files of the --buckets conversion (fold/bucketed.h), all inside one
// temporary directory that is removed when the conversion ends, whether it
// succeeded, failed or was stopped by a signal. (A run killed by -9 leaves it
// behind, named .manaka-pack-<pid>-XXXXXX, and the next run using the same
// spool directory removes it.)
//
// First set (pass 1 -> pass 2): spool-a-NNNN.mpk, each an MPK1 stream with
// the inputs' header, holding the records whose board hashes to it.
// Second set (pass 2 -> pass 3): spool-b-NNNN.rows, folded rows, prob
// already derived, back to back:
//   off size field
//     0  96  packed
//    96   2  ply        u16
//    98   4  value_z    f32
//   102   4  value_q    f32
//   106   4  weight     u32
//   110   2  n_cand     u16 (a row's moves are distinct valid move16s,
//                            fewer than 81 x 88 x 2 = 14,256)
//   112  8n  mv u16 | prob f32 | cp i16      rows of cp-sourced streams
//        6n  mv u16 | prob f32               rows of visit-sourced streams,
//                                            whose cp is null throughout
// Little-endian like every manaka format. Which of the two candidate layouts
// a spool holds is the conversion's policy_source (with_cp below).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "core/file.h"
#include "core/status.h"
#include "core/temporary.h"
#include "fold/mapped_vector.h"
#include "shard/row.h"

namespace manaka::fold {

inline constexpr size_t kSpoolRowFixed = 112;
inline constexpr size_t spool_cand_size(bool with_cp) { return with_cp ? 8 : 6; }

// The spool directory of a --buckets run: "<parent>/.manaka-pack-<pid>-XXXXXX"
// (core/temporary.h TempDir::scratch), removed with everything in it when the
// run ends, and by the next run in the same parent after a kill -9.
inline constexpr const char* kSpoolDirLabel = ".manaka-pack-";

// "<dir>/spool-<set>-NNNN.<ext>": spool i of the first set ('a', "mpk") or
// the second ('b', "rows"), in a --buckets run's directory or a task's
// (fold/pack_parts.h).
std::string spool_path(const std::string& dir, char set, uint32_t i, const char* ext);
// The buffer of each of `spools` spools open at once (4 MiB in all, each
// 64 KiB to 1 MiB).
size_t spool_buffer_bytes(uint32_t spools);
// `sets` sets of `spools` spools open at once, plus the inputs, must fit the
// descriptor limit: raises the soft limit toward the hard one when they
// would not. Returns how many sets fit (at least 1; with fewer than one,
// opening the spools reports the limit).
uint32_t ensure_descriptors(uint32_t spools, uint32_t sets = 1);
// Descriptors left beside the spools: the inputs, shards, the standard ones.
inline constexpr uint64_t kSpareDescriptors = 64;
// How many of `sets` sets of `spools` fit a descriptor limit of `limit`
// (at least 1).
uint32_t sets_that_fit(uint64_t limit, uint32_t spools, uint32_t sets);

// An append-only file with its own buffer (one per spool, many open at once).
class SpoolWriter {
 public:
  static Result<SpoolWriter> create(const std::string& path, size_t buffer_bytes);
  SpoolWriter() = default;
  SpoolWriter(SpoolWriter&&) noexcept = default;
  SpoolWriter& operator=(SpoolWriter&&) noexcept = default;

  Status append(const uint8_t* data, size_t n);
  Status close();  // flushes and closes
  uint64_t bytes() const { return bytes_; }
  const std::string& path() const { return file_.path(); }

 private:
  OutputFile file_;
  std::vector<uint8_t> buf_;
  size_t used_ = 0;
  uint64_t bytes_ = 0;
};

// Appends a row in the second-set layout above (without cp when !with_cp).
void encode_spool_row(const shard::Row& row, bool with_cp, std::vector<uint8_t>& out);
// Decodes the row at p, with `avail` bytes left in the spool; returns the
// bytes it took, or a Truncated error when the row runs past the end.
Result<size_t> decode_spool_row(const uint8_t* p, size_t avail, bool with_cp, shard::Row& row);
// The size of the row starting at p (at least kSpoolRowFixed bytes there).
size_t spool_row_size(const uint8_t* p, bool with_cp);

// Reads files back to back into `bytes` (sized to hold them; memory it
// already holds is reused, so a caller loading one spool after another
// faults pages in once), a chunk a read(); arrived(end), when given, runs
// after each chunk with bytes [0, end) in place, so a caller can walk what
// just came while it is still in cache.
Status read_files(std::span<const std::string> paths, MappedVector<uint8_t>& bytes,
                  const std::function<void(const MappedVector<uint8_t>&, uint64_t)>& arrived = {});

}  // namespace manaka::fold
