// Reading shards back, one row group at a time, into plain column vectors:
// the C++ side of the Python `manaka.shards` reader. No Arrow type appears in
// this header; a binding can hand every vector to numpy without a copy (move
// the batch into the owning capsule).
//
//   MANAKA_ASSIGN_OR_RETURN(auto reader, shard::ShardReader::open(path));
//   for (int g = 0; g < reader.num_row_groups(); ++g) {
//     MANAKA_ASSIGN_OR_RETURN(shard::ShardBatch batch, reader.read_row_group(g));
//     ... batch.packed (rows x 96), batch.cand_offsets, batch.prob ...
//   }
//
// A file laid out as pack writes it (required columns, a required list of
// candidates) is decoded leaf by leaf by parquet's column reader straight
// into the batch's vectors; any other layout goes through Arrow's reader.
//
// Values come in the side to move's view, whatever the footer's pov: a
// shard of a pov-1 stream (Black's view, footer "pov" "1") has value_z,
// value_q and cp negated in the rows where White moves (packed is read for
// it even when not asked for). prob needs nothing: pack derived it from the
// side to move's scores (fold/policy.h). The footer still says "1": it
// states the file's bytes.
//
// A file whose columns do not have the shard types is refused at open(),
// naming the column (shard/schema.h, check_schema); nullability is not
// checked, so shards written by other tools read too.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/status.h"
#include "shard/row.h"

namespace manaka::shard {

// Which columns read_row_group fills; unread ones stay empty. `candidates`
// fills cand_offsets, mv, prob and cp together.
struct ShardColumns {
  bool packed = true, ply = true, value_z = true, value_q = true, weight = true,
       candidates = true;
};

// One row group's rows, column by column (structure of arrays).
struct ShardBatch {
  int64_t rows = 0;
  std::vector<uint8_t> packed;         // rows x 96 bytes, row-major, contiguous
  std::vector<uint16_t> ply;           // rows
  std::vector<float> value_z;          // rows
  std::vector<float> value_q;          // rows
  std::vector<uint32_t> weight;        // rows
  std::vector<int64_t> cand_offsets;   // rows + 1: row i is [off[i], off[i + 1])
  std::vector<uint16_t> mv;            // all candidates, row after row
  std::vector<float> prob;
  std::vector<int16_t> cp;             // kNullCp (-32768) where cp is null
  // Where the rows came from, set by ShardStream (the index in its list of
  // files, the row group): for messages about a row.
  size_t file = 0;
  int group = 0;

  // Row i as a Row (the columns that were read).
  Row row(int64_t i) const;
};

using FooterPairs = std::vector<std::pair<std::string, std::string>>;

// The footer's value of `key`, or "" when it has none.
std::string footer_value(const FooterPairs& footer, std::string_view key);

class ShardReader {
 public:
  static Result<ShardReader> open(const std::string& path);
  ShardReader(ShardReader&&) noexcept;
  ShardReader& operator=(ShardReader&&) noexcept;
  ~ShardReader();

  const std::string& path() const;
  int64_t num_rows() const;
  int num_row_groups() const;
  int64_t row_group_rows(int group) const;
  // The footer's key-value metadata in file order, without ARROW:schema.
  const FooterPairs& footer() const;

  // Safe to call from several threads on one reader: the parquet decode of
  // one file runs one call at a time (reading different files is parallel).
  Result<ShardBatch> read_row_group(int group, const ShardColumns& columns = {});
  // The same into `out`, whose vectors' memory is reused (a pooled batch's:
  // shard/batch_pool.h, stale values and all); columns not asked for are
  // left empty.
  Status read_row_group_into(int group, const ShardColumns& columns, ShardBatch& out);

 private:
  struct Impl;
  explicit ShardReader(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace manaka::shard
