// One shard row in memory: what the fold hands the shard writer and what the
// shard reader's batches hold per row. No Arrow type appears here.
//
// The parquet columns (shard/schema.h):
//   packed      fixed_size_binary(96)  the position (manaka shogi pack)
//   ply         uint16                 lowest move number the board was seen at
//   value_z     float32                mean game outcome, side to move
//   value_q     float32                mean search value, side to move
//   weight      uint32                 records folded into the row
//   candidates  list<struct<mv uint16, prob float32, cp int16>>
//               cp null on rows of visit-sourced (self-play) streams
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "stream/format.h"

namespace manaka::shard {

inline constexpr size_t kPackedLen = stream::kShogiPackedLen;  // 96
// packed's byte that names the side to move: 0 Black, 1 White.
inline constexpr size_t kSideToMoveByte = 95;
// A null cp in memory: the stream's own absent marker, a value no score takes.
inline constexpr int16_t kNullCp = stream::kNoCp;

struct Row {
  std::array<uint8_t, kPackedLen> packed{};
  uint16_t ply = 0;
  float value_z = 0.0f;
  float value_q = 0.0f;
  uint32_t weight = 0;
  // The candidates, one entry per move in each vector (equal lengths).
  std::vector<uint16_t> mv;
  std::vector<float> prob;
  std::vector<int16_t> cp;  // kNullCp for null

  size_t size() const { return mv.size(); }
  void clear_candidates() {
    mv.clear();
    prob.clear();
    cp.clear();
  }
  bool operator==(const Row&) const = default;
};

// A row's candidates written in place, straight into a row group's columns
// (RowGroupBuffer::open_row): n slots of each, valid until the next row.
struct CandidateSlots {
  std::span<uint16_t> mv;
  std::span<float> prob;
};

}  // namespace manaka::shard
