// Test helpers: MPK1 streams written byte by byte (stream::encode_header and
// encode_record, no writer), shards read back as rows, a scratch directory,
// a Python oracle. Included by fold and shard tests; not a test itself.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "shard/row.h"
#include "shard/shard_reader.h"
#include "stream/format.h"
#include "stream/header.h"
#include "stream/record.h"

namespace manaka::testing {

namespace fs = std::filesystem;

// A fresh directory per test: <tmp>/manaka_<suite>_<test>_<pid>.
inline fs::path scratch_dir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  fs::path dir = fs::temp_directory_path() /
                 (std::string("manaka_") + info->test_suite_name() + "_" + info->name() + "_" +
                  std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// Runs a Python snippet with the interpreter whose pyarrow we link.
inline int run_python(const fs::path& dir, const std::string& code) {
  fs::path script = dir / "oracle.py";
  std::ofstream(script) << code;
  std::string cmd = std::string("\"") + MANAKA_PYTHON + "\" " + script.string();
  return std::system(cmd.c_str());
}

// A distinct, valid 96-byte position for each id (the stream reader refuses
// any other): a White king on 9e and a Black king on 1e; on the 32 squares
// 7a..4e (indices 18-49) a gold-like piece (18 tokins, 4 golds, 4 promoted
// silvers, 4 promoted knights, 2 promoted lances), White's where bit i of id
// is set, Black's where it is clear; nothing in hand; side to move id & 1.
// Step pieces two files or more from either king give no check.
inline std::array<uint8_t, 96> board(uint32_t id) {
  std::array<uint8_t, 96> b{};
  std::fill(b.begin(), b.begin() + 81, 0xFF);
  b[4] = 0x10;   // a White king
  b[76] = 0x00;  // a Black king
  for (int i = 0; i < 32; ++i) {
    const uint8_t kind = i < 18 ? 0x0D : i < 22 ? 0x03 : i < 26 ? 0x0A : i < 30 ? 0x0B : 0x0C;
    b[18 + i] = static_cast<uint8_t>(kind | ((id >> i) & 1) << 4);
  }
  b[95] = static_cast<uint8_t>(id & 1);
  return b;
}

// move16 from an origin square (or 81 + hand index) and a destination.
constexpr uint16_t mv(int from, int to) { return static_cast<uint16_t>(from << 7 | to); }

inline stream::Candidate by_visits(uint16_t m, uint32_t visits) { return {m, visits, stream::kNoCp}; }
inline stream::Candidate by_cp(uint16_t m, int16_t cp) { return {m, stream::kNoVisits, cp}; }

struct TestRecord {
  uint32_t board_id = 0;
  uint16_t ply = 0;
  float value_z = 0.0f;
  float value_q = 0.0f;
  std::vector<stream::Candidate> cands;
};

inline stream::Header teacher_header() {
  stream::Header h;
  h.policy_source = stream::PolicySource::Cp;
  h.mate_scale = 32000;
  h.mate_slack = 100;
  h.fv_scale = 16;
  h.eval_coef = 600.0f;
  return h;
}

inline stream::Header selfplay_header() { return stream::selfplay_header(); }

inline void write_stream(const fs::path& path, const stream::Header& h,
                         const std::vector<TestRecord>& records) {
  std::vector<uint8_t> bytes(stream::kHeaderSize);
  stream::encode_header(h, std::span<uint8_t, stream::kHeaderSize>(bytes.data(), stream::kHeaderSize));
  for (const auto& r : records) {
    auto b = board(r.board_id);
    std::vector<uint8_t> packed(b.begin(), b.begin() + std::min<size_t>(h.packed_len, 96));
    packed.resize(h.packed_len, 0);
    stream::RecordView v{r.ply, r.value_z, r.value_q, packed, r.cands};
    stream::encode_record(v, bytes);
  }
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                              static_cast<std::streamsize>(bytes.size()));
}

// Every row of the given shards, in file order.
inline std::vector<shard::Row> read_rows(const std::vector<std::string>& files) {
  std::vector<shard::Row> rows;
  for (const auto& f : files) {
    auto reader = shard::ShardReader::open(f);
    EXPECT_TRUE(reader.ok()) << reader.status().message();
    if (!reader.ok()) return rows;
    for (int g = 0; g < reader->num_row_groups(); ++g) {
      auto batch = reader->read_row_group(g);
      EXPECT_TRUE(batch.ok()) << batch.status().message();
      if (!batch.ok()) return rows;
      for (int64_t i = 0; i < batch->rows; ++i) rows.push_back(batch->row(i));
    }
  }
  return rows;
}

// Rows in a canonical order (by board bytes), for multiset comparisons.
inline std::vector<shard::Row> sorted(std::vector<shard::Row> rows) {
  std::sort(rows.begin(), rows.end(),
            [](const shard::Row& a, const shard::Row& b) { return a.packed < b.packed; });
  return rows;
}

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// A stream of n records over about n * (1 - repeat) boards, ply rising with
// the record index (so unshuffled output would show in the block statistic).
inline std::vector<TestRecord> synthetic_records(uint32_t n, bool teacher, uint32_t seed = 7) {
  std::vector<TestRecord> out;
  uint64_t x = seed;
  auto next = [&x] {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<uint32_t>(x >> 33);
  };
  for (uint32_t i = 0; i < n; ++i) {
    TestRecord r;
    // About 7% of records repeat the board of an earlier one.
    r.board_id = (i > 0 && next() % 100 < 7) ? out[next() % i].board_id : i + 1000000;
    r.ply = static_cast<uint16_t>(i / 64);
    r.value_z = static_cast<float>(static_cast<int>(next() % 3) - 1);
    r.value_q = static_cast<float>(next() % 2001) / 1000.0f - 1.0f;
    const uint32_t k = 1 + next() % 6;
    const uint32_t first_to = next() % 81;
    for (uint32_t c = 0; c < k; ++c) {
      const uint16_t m = mv(static_cast<int>(next() % 81), static_cast<int>((first_to + c) % 81));
      if (teacher) {
        r.cands.push_back(by_cp(m, static_cast<int16_t>(static_cast<int>(next() % 2000) - 1000)));
      } else {
        r.cands.push_back(by_visits(m, 1 + next() % 50));
      }
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace manaka::testing
