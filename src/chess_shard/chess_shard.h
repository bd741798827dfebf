// One shard of the chess corpus (spec "chess-supervised-pretraining",
// docs/chess-corpus.md): an npz archive, as np.savez_compressed writes it,
// of exactly three arrays over the same N positions:
//
//   states        int8  '|i1'  (N, 20, 8, 8)  chess/encode.h's planes
//   move_indices  int32 '<i4'  (N,)           chess/move_index.h, in [0, 4672)
//   outcomes      int8  '|i1'  (N,)           -1, 0 or 1, from the mover's view
//
// named shard_NNNNNN.npz (six digits from 000000) in a corpus directory.
//
// A shard of self-play games (the refinement, issue 15) also holds the
// search's visit counts, the policy targets, as three more arrays in CSR
// form (all three or none):
//
//   visit_offsets int64 '<i8'  (N + 1,)  row r's entries are [offsets[r], offsets[r + 1]);
//                                        0 first, M last, never decreasing
//   visit_indices int32 '<i4'  (M,)      move indices in [0, 4672), none twice in a row
//   visit_counts  int32 '<i4'  (M,)      visits, each at least 1
//
// A row without entries is allowed (its policy target is all zeros).
//
// A corpus made with `--scores` also holds the engine's score of each
// position (its root score when it chose the move played), a value target
// far less noisy than the game's result:
//
//   scores        int16 '<i2'  (N,)      centipawns from the mover's view in
//                                        [-SCORE_CP_LIMIT, SCORE_CP_LIMIT];
//                                        a mate for the mover in d plies is
//                                        SCORE_MATE - d, mated in d plies
//                                        -(SCORE_MATE - d)
//
// Reading checks the archive (npz_reader.h), the arrays' names, dtypes and
// shapes, and every move index, outcome and visit entry; the planes are
// taken as they are (decode_planes checks them one position at a time).
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

namespace manaka::chess_corpus {

constexpr const char* STATES = "states";
constexpr const char* MOVE_INDICES = "move_indices";
constexpr const char* OUTCOMES = "outcomes";
constexpr const char* VISIT_OFFSETS = "visit_offsets";
constexpr const char* VISIT_INDICES = "visit_indices";
constexpr const char* VISIT_COUNTS = "visit_counts";
constexpr const char* SCORES = "scores";
// A score at or beyond SCORE_MATE_BOUND in magnitude is a mate's; centipawns
// are clamped to SCORE_CP_LIMIT, so the two never meet.
constexpr int16_t SCORE_MATE = 30000;
constexpr int16_t SCORE_MATE_BOUND = 29000;
constexpr int16_t SCORE_CP_LIMIT = 20000;
constexpr uint64_t PLANES_PER_POSITION = chess::PLANES_SIZE;  // 20 * 8 * 8 = 1280 bytes
constexpr uint64_t DEFAULT_SHARD_POSITIONS = 10000;           // the spec's shard size

// "shard_000042.npz".
std::string shard_file_name(uint64_t index);
// Whether a file name is a shard's by the spec's glob, shard_*.npz.
bool is_shard_file_name(const std::string& name);
// The shard_*.npz files of a directory, sorted by name (the spec's
// sorted(shard_dir.glob("shard_*.npz"))).
Result<std::vector<std::string>> list_shards(const std::string& dir);

// The arrays, borrowed; visit_offsets null for a shard without visits.
struct ChessShardView {
  uint64_t positions = 0;
  const int8_t* states = nullptr;        // positions * 1280
  const int32_t* move_indices = nullptr;  // positions
  const int8_t* outcomes = nullptr;       // positions
  const int64_t* visit_offsets = nullptr;  // positions + 1, or null
  const int32_t* visit_indices = nullptr;  // visit_offsets[positions]
  const int32_t* visit_counts = nullptr;   // visit_offsets[positions]
  const int16_t* scores = nullptr;         // positions, or null

  bool has_visits() const { return visit_offsets != nullptr; }
  bool has_scores() const { return scores != nullptr; }
  uint64_t visit_entries() const { return has_visits() ? uint64_t(visit_offsets[positions]) : 0; }
};

struct ChessShard {
  uint64_t positions = 0;
  UninitVector<int8_t> states;
  UninitVector<int32_t> move_indices;
  UninitVector<int8_t> outcomes;
  bool has_visits = false;
  UninitVector<int64_t> visit_offsets;  // empty unless has_visits
  UninitVector<int32_t> visit_indices;
  UninitVector<int32_t> visit_counts;
  bool has_scores = false;
  UninitVector<int16_t> scores;  // empty unless has_scores

  ChessShardView view() const {
    return {positions,
            states.data(),
            move_indices.data(),
            outcomes.data(),
            has_visits ? visit_offsets.data() : nullptr,
            visit_indices.data(),
            visit_counts.data(),
            has_scores ? scores.data() : nullptr};
  }
};

// Refuses a move index outside [0, 4672) or an outcome outside {-1, 0, 1},
// naming the array and the row: "move_indices[17] = 4672, outside [0, 4672)";
// and visits that break the CSR rules above, naming the array, the entry
// and the row: "visit_counts[12] = 0 (row 3), not at least 1"; and a score
// between the centipawn limit and the mate bound: "scores[5] = 25000, ...".
Status check_values(const ChessShardView& shard);
// The visits alone (visit_offsets must not be null), given M, the length of
// visit_indices and visit_counts: offsets are checked against it before any
// entry is read.
Status check_visits(const ChessShardView& shard, uint64_t entries);

// Writes the shard (values checked first; the visit arrays after the three
// others when the view has them, then the scores) through a temporary renamed when
// complete; compressed as np.savez_compressed unless options say otherwise.
Status write_chess_shard(const std::string& path, const ChessShardView& shard,
                         const npz::ZipWriteOptions& options = {});

// `reuse` lends its buffers (their capacity) to the shard read, sparing a
// reader of many shards an allocation, and its page faults, per shard.
Result<ChessShard> read_chess_shard(const std::string& path, const npz::ZipLimits& limits = {},
                                    ChessShard reuse = {});
Result<ChessShard> read_chess_shard(const npz::NpzReader& archive, ChessShard reuse = {});

}  // namespace manaka::chess_corpus
