// Shards for the corpus tests: position i of a test corpus carries its
// global row number in its move index (i % 4672) and in the first four
// bytes of its planes, so a batch says exactly which rows it holds.
#pragma once

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "chess_shard/chess_shard.h"

namespace manaka::chess_corpus::testing {

namespace fs = std::filesystem;

inline fs::path scratch(const std::string& name) {
  fs::path dir = fs::path(::testing::TempDir()) / ("corpus_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// The row number stored in a position's planes (bytes 0..3: 7 bits each, so
// every plane value stays in 0..127).
inline uint64_t row_of(const int8_t* planes) {
  return uint64_t(planes[0]) | uint64_t(planes[1]) << 7 | uint64_t(planes[2]) << 14 | uint64_t(planes[3]) << 21;
}

inline ChessShard make_shard(uint64_t first_row, uint64_t n) {
  ChessShard s;
  s.positions = n;
  s.states.assign(n * PLANES_PER_POSITION, 0);
  s.move_indices.resize(n);
  s.outcomes.resize(n);
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t row = first_row + i;
    int8_t* p = s.states.data() + i * PLANES_PER_POSITION;
    for (int b = 0; b < 4; ++b) p[b] = int8_t((row >> (7 * b)) & 0x7F);
    for (uint64_t k = 4; k < PLANES_PER_POSITION; k += 97) p[k] = 1;
    s.move_indices[i] = int32_t(row % 4672);
    s.outcomes[i] = int8_t(int(row % 3) - 1);
  }
  return s;
}

// The visits of global row `row`: row % 4 entries (none for every fourth
// row), move index (row * 7 + j * 13) % 4672 with j + 1 + row % 5 visits.
inline uint64_t visit_entries_of(uint64_t row) { return row % 4; }
inline int32_t visit_index_of(uint64_t row, uint64_t j) { return int32_t((row * 7 + j * 13) % 4672); }
inline int32_t visit_count_of(uint64_t row, uint64_t j) { return int32_t(j + 1 + row % 5); }

inline ChessShard make_shard_with_visits(uint64_t first_row, uint64_t n) {
  ChessShard s = make_shard(first_row, n);
  s.has_visits = true;
  s.visit_offsets.assign(1, 0);
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t row = first_row + i;
    for (uint64_t j = 0; j < visit_entries_of(row); ++j) {
      s.visit_indices.push_back(visit_index_of(row, j));
      s.visit_counts.push_back(visit_count_of(row, j));
    }
    s.visit_offsets.push_back(int64_t(s.visit_indices.size()));
  }
  return s;
}

// Shards of the given sizes in dir, named shard_000000.npz on; returns the paths.
inline std::vector<std::string> make_corpus(const fs::path& dir, const std::vector<uint64_t>& sizes,
                                            bool visits = false) {
  std::vector<std::string> paths;
  uint64_t row = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    const std::string path = (dir / shard_file_name(i)).string();
    const ChessShard s = visits ? make_shard_with_visits(row, sizes[i]) : make_shard(row, sizes[i]);
    const Status st = write_chess_shard(path, s.view());
    EXPECT_TRUE(st.ok()) << st.message();
    paths.push_back(path);
    row += sizes[i];
  }
  return paths;
}

}  // namespace manaka::chess_corpus::testing
