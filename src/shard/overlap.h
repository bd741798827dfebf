// `manaka shards overlap TRAIN VALID`: how many validation rows hold a board
// that also occurs in training, the leak that makes a validation loss look
// better than the network is.
//
// Boards are compared by fold::hash_board, the 64-bit hash the fold already
// keys its table with: training's hashes are collected (with where each board
// sits), sorted, and every validation row is looked up. Two different boards
// share a hash with probability about N^2 / 2^65 (5e-6 for 10 M boards), so a
// count is exact for any practical purpose.
//
// A side is a list of shard files, directories and globs (shard/shard_sources.h);
// only the packed, ply and weight columns are read.
//
// Boards every game passes through (the starting position, the first plies of
// the common openings) are shared by any two sets of games, however
// independent: shared rows at a ply below opening_plies are counted apart, as
// `opening`, and the share a caller judges (beyond_opening_share) leaves them out.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "shard/row.h"

namespace manaka::shard {

inline constexpr size_t kDefaultOverlapExamples = 5;
// Plies 0..15: eight moves each side, past which two independent sets rarely meet.
inline constexpr int kDefaultOpeningPlies = 16;

// One shared board: where validation holds it and where training does.
struct OverlapExample {
  std::array<uint8_t, kPackedLen> packed{};
  std::string sfen;
  std::string valid_path;
  int64_t valid_row = 0;  // row index within the file
  std::string train_path;
  int64_t train_row = 0;
};

struct OverlapReport {
  std::vector<std::string> train_files, valid_files;
  int64_t train_rows = 0, train_boards = 0;  // rows, distinct boards
  int64_t valid_rows = 0, valid_boards = 0;
  int64_t shared_rows = 0;     // validation rows whose board is in training
  int64_t shared_boards = 0;   // distinct boards among them
  int64_t opening_rows = 0;    // shared rows at a ply below opening_plies
  int opening_plies = kDefaultOpeningPlies;
  uint64_t valid_weight = 0;   // records folded into validation rows
  uint64_t shared_weight = 0;  // ... into the shared ones
  std::vector<OverlapExample> examples;  // the first shared rows, file order

  // shared_rows / valid_rows (0 for an empty validation set).
  double share() const;
  // (shared_rows - opening_rows) / valid_rows: the leak that matters.
  double beyond_opening_share() const;
};

Result<OverlapReport> shard_overlap(const std::vector<std::string>& train, const std::vector<std::string>& valid,
                                    size_t max_examples = kDefaultOverlapExamples,
                                    int opening_plies = kDefaultOpeningPlies);

std::string format_overlap(const OverlapReport& report);
std::string overlap_json(const OverlapReport& report);

}  // namespace manaka::shard
