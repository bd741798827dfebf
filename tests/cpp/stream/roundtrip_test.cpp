// Random valid records go through the writer and come back bit-exactly, from
// a file (crossing many refills of the read buffer) and from memory.
#include <gtest/gtest.h>

#include <unistd.h>

#include <bit>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "../shogi/random_positions.h"
#include "stream/reader.h"
#include "stream/record.h"
#include "stream/writer.h"

namespace manaka::stream {
namespace {

namespace fs = std::filesystem;

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "/" + name + "_" + std::to_string(::getpid());
}

std::vector<uint8_t> slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// Random valid records: a 96-byte position is one met in a random game
// (other widths are any bytes: only 96 is a shogi position); the moves of a
// record are distinct move16s.
struct Gen {
  std::mt19937_64 rng;
  std::vector<shogi::Packed> positions;
  std::vector<uint16_t> moves;  // every move16, 13,689 of them
  explicit Gen(uint64_t seed) : rng(seed), positions(testing::random_game_positions(2000, seed)) {
    for (int from = 0; from <= 87; ++from) {
      for (int to = 0; to < 81; ++to) {
        moves.push_back(static_cast<uint16_t>(to | from << 7));
        if (from < 81) moves.push_back(static_cast<uint16_t>(to | from << 7 | 1 << 14));
      }
    }
  }
  uint64_t u(uint64_t lo, uint64_t hi) { return std::uniform_int_distribution<uint64_t>(lo, hi)(rng); }

  float value_q() {
    switch (u(0, 5)) {
      case 0: return 1.0f;
      case 1: return -1.0f;
      case 2: return -0.0f;
      default: return std::uniform_real_distribution<float>(-1.0f, 1.0f)(rng);
    }
  }
  // max_cand candidates when exactly, else 1..max_cand.
  Record record(PolicySource source, size_t packed_len, size_t max_cand, bool exactly = false) {
    Record r;
    r.ply = static_cast<uint16_t>(u(0, 65535));
    static const float zs[] = {-1.0f, 0.0f, 1.0f};
    r.value_z = zs[u(0, 2)];
    r.value_q = value_q();
    if (packed_len == kShogiPackedLen) {
      const shogi::Packed& p = positions[u(0, positions.size() - 1)];
      r.packed.assign(p.begin(), p.end());
    } else {
      r.packed.resize(packed_len);
      for (auto& b : r.packed) b = static_cast<uint8_t>(u(0, 255));
    }
    size_t n = exactly ? max_cand : u(1, max_cand);
    bool visits = source == PolicySource::Visits || u(0, 1);
    bool cp = source == PolicySource::Cp || u(0, 1);
    for (size_t i = 0; i < n; ++i) {
      std::swap(moves[i], moves[u(i, moves.size() - 1)]);  // n distinct moves, in random order
      Candidate c;
      c.mv = moves[i];
      c.visits = visits ? static_cast<uint32_t>(u(1, u(0, 1) ? 0xFFFFFFFFu : 1000)) : kNoVisits;
      c.cp = cp ? static_cast<int16_t>(static_cast<int>(u(0, 65534)) - 32767) : kNoCp;
      r.candidates.push_back(c);
    }
    return r;
  }
};

void expect_same(const RecordView& got, const Record& want, size_t i) {
  ASSERT_EQ(got.ply, want.ply) << i;
  ASSERT_EQ(std::bit_cast<uint32_t>(got.value_z), std::bit_cast<uint32_t>(want.value_z)) << i;
  ASSERT_EQ(std::bit_cast<uint32_t>(got.value_q), std::bit_cast<uint32_t>(want.value_q)) << i;
  ASSERT_TRUE(std::equal(got.packed.begin(), got.packed.end(), want.packed.begin(), want.packed.end())) << i;
  ASSERT_TRUE(std::equal(got.candidates.begin(), got.candidates.end(), want.candidates.begin(),
                         want.candidates.end()))
      << i;
}

void round_trip(PolicySource source, size_t packed_len, size_t max_cand, size_t count, uint64_t seed) {
  Gen gen(seed);
  Header h;
  h.policy_source = source;
  h.packed_len = static_cast<uint16_t>(packed_len);
  h.pov = source == PolicySource::Cp ? Pov::Black : Pov::SideToMove;
  h.mate_scale = 32000;
  h.mate_slack = 100;
  h.eval_coef = 756.0865f;
  std::vector<Record> records;
  records.push_back(gen.record(source, packed_len, max_cand, true));  // one at the most
  for (size_t i = 1; i < count; ++i) records.push_back(gen.record(source, packed_len, max_cand));

  std::string path = temp_path("mpk_rt");
  {
    auto w = Writer::create(path, h);
    ASSERT_TRUE(w.ok()) << w.status().message();
    for (const Record& r : records) ASSERT_TRUE(w->write(r).ok());
    ASSERT_TRUE(w->close().ok());
  }
  std::vector<uint8_t> bytes = slurp(path);
  uint64_t expect_size = kHeaderSize;
  for (const Record& r : records) expect_size += record_size(packed_len, r.candidates.size());
  ASSERT_EQ(bytes.size(), expect_size);

  auto from_file = Reader::open(path);
  auto from_mem = Reader::from_memory(bytes);
  for (Reader* reader : {&*from_file, &*from_mem}) {
    EXPECT_EQ(reader->header(), h);
    RecordView rec;
    for (size_t i = 0; i < records.size(); ++i) {
      auto more = reader->next(rec);
      ASSERT_TRUE(more.ok()) << more.status().message();
      ASSERT_TRUE(*more);
      expect_same(rec, records[i], i);
    }
    auto end = reader->next(rec);
    ASSERT_TRUE(end.ok());
    EXPECT_FALSE(*end);
    EXPECT_EQ(reader->record_index(), records.size());
    EXPECT_EQ(reader->byte_offset(), expect_size);
  }
  // validate_all, which screens the wire bytes and never decodes, accepts
  // every record of the same stream too.
  auto again = Reader::open(path);
  ASSERT_TRUE(again.ok());
  auto validated = validate_all(*again);
  ASSERT_TRUE(validated.ok()) << validated.status().message();
  EXPECT_EQ(*validated, records.size());
  EXPECT_EQ(again->byte_offset(), expect_size);
  fs::remove(path);
}

TEST(RoundTrip, VisitStream) { round_trip(PolicySource::Visits, 96, 400, 6000, 1); }
TEST(RoundTrip, CpStream) { round_trip(PolicySource::Cp, 96, 8, 20000, 2); }
TEST(RoundTrip, OtherPackedLengths) {
  round_trip(PolicySource::Visits, 0, 5, 500, 3);
  round_trip(PolicySource::Cp, 1, 5, 500, 4);
  round_trip(PolicySource::Visits, 65535, 3, 40, 5);
}
TEST(RoundTrip, LargestRecords) {
  // packed_len at its maximum, and as many candidates as there are distinct
  // move16s (rule 9): 175,059-byte records.
  round_trip(PolicySource::Visits, 65535, 13689, 6, 6);
}

TEST(Writer, ReadableAfterEveryFlushAndOnRecordBoundaries) {
  Gen gen(7);
  std::string path = temp_path("mpk_flush");
  auto w = Writer::create(path, Header{});
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(fs::file_size(path), kHeaderSize);  // a valid empty stream at once
  uint64_t written = 0;
  for (int round = 0; round < 5; ++round) {
    for (int i = 0; i < 3000; ++i) {
      ASSERT_TRUE(w->write(gen.record(PolicySource::Visits, 96, 300)).ok());
      ++written;
      if (i % 500 == 0) {
        // Between flushes the file holds whole records only.
        auto r = Reader::open(path);
        ASSERT_TRUE(r.ok());
        auto n = validate_all(*r);
        ASSERT_TRUE(n.ok()) << n.status().message();
        EXPECT_LE(*n, written);
      }
    }
    ASSERT_TRUE(w->flush().ok());
    auto r = Reader::open(path);
    auto n = validate_all(*r);
    ASSERT_TRUE(n.ok()) << n.status().message();
    EXPECT_EQ(*n, written);
    EXPECT_EQ(fs::file_size(path), w->bytes_written());
  }
  ASSERT_TRUE(w->close().ok());
  EXPECT_FALSE(w->write(gen.record(PolicySource::Visits, 96, 3)).ok());
  fs::remove(path);
}

TEST(Writer, DestructorFlushes) {
  Gen gen(8);
  std::string path = temp_path("mpk_dtor");
  {
    auto w = Writer::create(path, Header{});
    ASSERT_TRUE(w.ok());
    for (int i = 0; i < 10; ++i) ASSERT_TRUE(w->write(gen.record(PolicySource::Visits, 96, 30)).ok());
  }
  auto r = Reader::open(path);
  auto n = validate_all(*r);
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, 10u);
  fs::remove(path);
}

TEST(Writer, CreateReportsUnwritablePath) {
  auto w = Writer::create("/nonexistent/dir/out.mpk", Header{});
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status().kind(), ErrorKind::IO);
  EXPECT_EQ(w.status().message(), "/nonexistent/dir/out.mpk: cannot open for writing: No such file or directory");
}

}  // namespace
}  // namespace manaka::stream
