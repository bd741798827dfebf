// The VPD1 SQLite file: writing a sample, and reading it back by random key.
//
// Schema (the spec's columns, in its order):
//
//   metadata(key TEXT PRIMARY KEY, value TEXT)
//   positions(id INTEGER PRIMARY KEY, random_key INTEGER NOT NULL,
//             fen TEXT NOT NULL UNIQUE, source_split TEXT, source_member TEXT,
//             game_number INTEGER, ply INTEGER, result TEXT,
//             side_to_move INTEGER, phase INTEGER, piece_count INTEGER,
//             non_pawn_material INTEGER, material_balance INTEGER,
//             legal_moves INTEGER, in_check INTEGER, castling_mask INTEGER,
//             halfmove_clock INTEGER)
//   CREATE INDEX positions_random_key ON positions(random_key)
//
// Rows are numbered from 1 in (game_number, ply) order. random_key is the
// top 63 bits of successive outputs of SplitMix64(seed ^ RANDOM_KEY_STREAM),
// one per row in id order. The file is written under temporary_path() in
// one transaction and renamed onto its name only when complete.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/status.h"
#include "vpd/features.h"
#include "vpd/sampler.h"
#include "vpd/variance.h"

struct sqlite3;

namespace manaka::vpd {

constexpr const char* FORMAT_NAME = "VPD1";
constexpr int FORMAT_VERSION = 1;
// Separates the random-key stream from the sampling stream of the same seed.
constexpr uint64_t RANDOM_KEY_STREAM = 0x5650443152414e44ull;  // "VPD1RAND"

// One PGN input.
struct SourceInfo {
  std::string path;    // as given
  std::string member;  // the file's name: source_member
  std::string split;   // "train" or "test" when under such a directory, else "" (NULL)
  uint64_t games_read = 0;
  uint64_t games_skipped = 0;
};

// The nearest enclosing directory of path named "train" or "test", else "".
std::string source_split(const std::string& path);
// The file name of path.
std::string source_member(const std::string& path);

// What the metadata table records besides the rows.
struct BuildInfo {
  uint64_t seed = 0;
  uint64_t target = 0;
  std::array<uint64_t, PHASE_NB> quotas{};
  std::vector<SourceInfo> sources;
  uint64_t games_read = 0;
  uint64_t games_skipped = 0;
  SamplerCounts counts;
  std::string completed_at;  // ISO 8601 UTC, "2024-05-01T12:00:00Z"
};

// Writes the database at path, a temporary of the caller's (core/temporary.h)
// that it commits once complete; a file already there is replaced. The
// metadata includes the variance report (variance.h). The rows' features
// are computed here from their FENs, on `threads` threads; the report's
// thresholds are `thresholds`. Errors name path and SQLite's message.
Status write_database(const std::string& path, const BuildInfo& info, const std::vector<SampledPosition>& rows,
                      int threads = 1, const VarianceThresholds& thresholds = {});

// Rows of the positions table as columns (the spec's, in its order), what
// the Python module hands numpy. source_split is "" for NULL.
struct PositionColumns {
  std::vector<int64_t> id, random_key, game_number;
  std::vector<std::string> fen, source_split, source_member, result;
  std::vector<int32_t> ply, side_to_move, phase, piece_count, non_pawn_material, material_balance, legal_moves,
      in_check, castling_mask, halfmove_clock;

  size_t size() const { return id.size(); }
  void clear();
  void reserve(size_t n);
};

// A complete VPD1 file opened read-only.
class VpdFile {
 public:
  // Refuses a file that is not SQLite, lacks the tables, names another
  // format or version, or is not marked complete.
  static Result<VpdFile> open(const std::string& path);

  VpdFile(VpdFile&&) noexcept;
  VpdFile& operator=(VpdFile&&) noexcept;
  ~VpdFile();

  // The metadata value for key, "" when absent.
  Result<std::string> metadata(const std::string& key);
  Result<uint64_t> rows();
  // The FEN of the row with the smallest random_key >= key, wrapping around
  // to the smallest key when key is above the largest, with the fullmove
  // number of its ply (fen_at_ply). key < 2^63.
  Result<std::string> fen_at_key(uint64_t key);
  // The id of that same row.
  Result<uint64_t> id_at_key(uint64_t key);
  // Appends the rows with first_id <= id < first_id + count, in id order
  // (ids run from 1 to rows() in a file this project wrote).
  Status read_range(uint64_t first_id, uint64_t count, PositionColumns& out);
  // Appends the rows of ids in the order given; an id with no row is an
  // error naming it.
  Status read_ids(const std::vector<int64_t>& ids, PositionColumns& out);

 private:
  struct Handle;
  // The row of fen_at_key: its FEN (fen_at_ply) and id into whichever is not null.
  Status at_key(uint64_t key, std::string* fen, uint64_t* id);
  explicit VpdFile(std::unique_ptr<Handle> h);
  std::unique_ptr<Handle> h_;
};

}  // namespace manaka::vpd
