// One shard of the chess corpus (spec "chess-supervised-pretraining",
// docs/chess-corpus.md): an npz archive, as np.savez_compressed writes it,
// of exactly three arrays over the same N positions:
//
//   states        int8  '|i1'  (N, 20, 8, 8)  chess/encode.h's planes
//   move_indices  int32 '<i4'  (N,)           chess/move_index.h, in [0, 4672)
//   outcomes      int8  '|i1'  (N,)           -1, 0 or 1, from the mover's view
//
// named shard_NNNNNN.npz (six digits from 000000) in a corpus directory.
// Reading checks the archive (npz_reader.h), the three arrays' names,
// dtypes and shapes, and every move index and outcome; the planes are taken
// as they are (decode_planes checks them one position at a time).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "chess/encode.h"
#include "core/default_init.h"
#include "core/status.h"
#include "npz/npz_reader.h"
#include "npz/zip_writer.h"

namespace manaka::corpus {

constexpr const char* STATES = "states";
constexpr const char* MOVE_INDICES = "move_indices";
constexpr const char* OUTCOMES = "outcomes";
constexpr uint64_t PLANES_PER_POSITION = chess::PLANES_SIZE;  // 20 * 8 * 8 = 1280 bytes
constexpr uint64_t DEFAULT_SHARD_POSITIONS = 10000;           // the spec's shard size

// "shard_000042.npz".
std::string shard_file_name(uint64_t index);
// Whether a file name is a shard's by the spec's glob, shard_*.npz.
bool is_shard_file_name(const std::string& name);
// The shard_*.npz files of a directory, sorted by name (the spec's
// sorted(shard_dir.glob("shard_*.npz"))).
Result<std::vector<std::string>> list_shards(const std::string& dir);

// The three arrays, borrowed.
struct ChessShardView {
  uint64_t positions = 0;
  const int8_t* states = nullptr;        // positions * 1280
  const int32_t* move_indices = nullptr;  // positions
  const int8_t* outcomes = nullptr;       // positions
};

struct ChessShard {
  uint64_t positions = 0;
  UninitVector<int8_t> states;
  UninitVector<int32_t> move_indices;
  UninitVector<int8_t> outcomes;

  ChessShardView view() const { return {positions, states.data(), move_indices.data(), outcomes.data()}; }
};

// Refuses a move index outside [0, 4672) or an outcome outside {-1, 0, 1},
// naming the array and the row: "move_indices[17] = 4672, outside [0, 4672)".
Status check_values(const ChessShardView& shard);

// Writes the shard (values checked first) through a temporary renamed when
// complete; compressed as np.savez_compressed unless options say otherwise.
Status write_chess_shard(const std::string& path, const ChessShardView& shard,
                         const npz::ZipWriteOptions& options = {});

// `reuse` lends its buffers (their capacity) to the shard read, sparing a
// reader of many shards an allocation, and its page faults, per shard.
Result<ChessShard> read_chess_shard(const std::string& path, const npz::ZipLimits& limits = {},
                                    ChessShard reuse = {});
Result<ChessShard> read_chess_shard(const npz::NpzReader& archive, ChessShard reuse = {});

}  // namespace manaka::corpus
