// `manaka stream validate` (stream::validate_all) and `manaka pack`
// (fold::pack) accept exactly the same streams: the reader every consumer
// uses enforces every rule a consumer relies on (issue 11, item 4).
#include <gtest/gtest.h>

#include <cmath>
#include <deque>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "../shogi/random_positions.h"
#include "fold/board_hash.h"
#include "fold/pack.h"
#include "mpk_fixture.h"
#include "shogi/movegen.h"
#include "shogi/pack.h"
#include "stream/header.h"
#include "stream/reader.h"
#include "stream/record.h"
#include "stream/selfplay_writer.h"

namespace manaka::fold {
namespace {

namespace fs = std::filesystem;

PackOptions options_for(const fs::path& dir) {
  PackOptions o;
  o.prefix = (dir / "out").string();
  o.progress = false;
  return o;
}

Status validate(const std::string& path) {
  MANAKA_ASSIGN_OR_RETURN(auto reader, stream::Reader::open(path));
  return stream::validate_all(reader).status();
}

void write_bytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// A stream of the given header (not validated) and records (not validated).
std::vector<uint8_t> raw_stream(const stream::Header& h, const std::vector<stream::Record>& records) {
  std::vector<uint8_t> bytes(stream::kHeaderSize);
  stream::encode_header(h, std::span<uint8_t, stream::kHeaderSize>(bytes.data(), stream::kHeaderSize));
  for (const stream::Record& r : records) stream::encode_record(r.view(), bytes);
  return bytes;
}

stream::Record selfplay_record(const shogi::Packed& packed, std::vector<uint16_t> moves) {
  stream::Record r;
  r.value_z = 1.0f;
  r.packed.assign(packed.begin(), packed.end());
  for (uint16_t m : moves) r.candidates.push_back({m, 7, stream::kNoCp});
  return r;
}

TEST(ValidateAndPack, UnknownBoardByteIsRefusedByBoth) {
  auto dir = testing::scratch_dir();
  const std::string path = (dir / "byte37.mpk").string();
  const shogi::Packed start = shogi::pack(shogi::Position::startpos());
  shogi::Packed bad = start;
  bad[37] = 0x37;  // 5b, empty in the initial position
  const std::vector<uint16_t> moves = {testing::mv(60, 59), testing::mv(78, 77)};
  auto bytes = raw_stream(stream::selfplay_header(), {selfplay_record(start, moves), selfplay_record(bad, moves)});
  write_bytes(path, bytes);
  const std::string want = path + ": record 1 at byte " +
                           std::to_string(stream::kHeaderSize + stream::record_size(96, 2)) +
                           ": packed byte 37: unknown board byte 0x37";
  Status v = validate(path);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.message(), want);
  for (uint32_t buckets : {0u, 4u}) {
    auto o = options_for(dir);
    o.buckets = buckets;
    auto packed = pack({path}, o);
    ASSERT_FALSE(packed.ok());
    EXPECT_EQ(packed.status().message(), want);
  }
}

TEST(ValidateAndPack, MoveListedTwiceIsRefusedByBoth) {
  auto dir = testing::scratch_dir();
  const std::string path = (dir / "twice.mpk").string();
  const shogi::Packed start = shogi::pack(shogi::Position::startpos());
  auto bytes = raw_stream(stream::selfplay_header(),
                          {selfplay_record(start, {testing::mv(60, 59), testing::mv(78, 77), testing::mv(60, 59)})});
  write_bytes(path, bytes);
  const std::string want =
      path + ": record 0 at byte 24: mv 0x1E3B is listed twice (candidates 0 and 2); a record lists each move "
             "at most once";
  Status v = validate(path);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.message(), want);
  auto packed = pack({path}, options_for(dir));
  ASSERT_FALSE(packed.ok());
  EXPECT_EQ(packed.status().message(), want);
}

TEST(ValidateAndPack, EvalCoefAConverterCannotUseIsRefusedByBoth) {
  auto dir = testing::scratch_dir();
  const std::string path = (dir / "coef.mpk").string();
  const float inf = std::numeric_limits<float>::infinity();
  for (float coef : {inf, std::nanf(""), static_cast<float>(1e40), -600.0f}) {
    stream::Header h = testing::teacher_header();
    h.eval_coef = coef;
    ASSERT_FALSE(stream::validate_header(h).ok());
    stream::Record r = selfplay_record(shogi::pack(shogi::Position::startpos()), {testing::mv(60, 59)});
    r.candidates[0] = {testing::mv(60, 59), stream::kNoVisits, 35};
    write_bytes(path, raw_stream(h, {r}));
    Status v = validate(path);
    ASSERT_FALSE(v.ok()) << coef;
    EXPECT_EQ(v.message().rfind(path + ": header: eval_coef is ", 0), 0u) << v.message();
    auto packed = pack({path}, options_for(dir));
    ASSERT_FALSE(packed.ok()) << coef;
    EXPECT_EQ(packed.status().message(), v.message());
    // The writer will not write such a header at all.
    auto w = stream::Writer::create((dir / "w.mpk").string(), h);
    EXPECT_FALSE(w.ok());
  }
}

// A self-play stream of positions from random games, written by
// SelfPlayWriter, then 1,000 copies each with one random byte of one record's
// packed position changed to another value. Every copy whose changed
// position unpack refuses is refused by validate, at that record, naming the
// byte where unpack names one; no other copy is; and pack accepts a copy
// exactly when validate does.
TEST(ValidateAndPack, AgreeOnEveryFlippedPositionByte) {
  auto dir = testing::scratch_dir();
  const std::string clean = (dir / "selfplay.mpk").string();
  std::mt19937_64 rng(11);
  std::vector<uint64_t> record_at;  // byte offset of each record
  {
    auto w = stream::SelfPlayWriter::create(clean);
    ASSERT_TRUE(w.ok()) << w.status().message();
    uint64_t offset = stream::kHeaderSize;
    for (int game = 0; game < 4; ++game) {
      ASSERT_TRUE(w->begin_game().ok());
      shogi::Position pos = shogi::Position::startpos();
      std::deque<shogi::StateInfo> states;
      for (int ply = 0; ply < 12; ++ply) {
        shogi::MoveList list;
        shogi::generate_legal(pos, list);
        ASSERT_FALSE(list.empty());
        std::vector<stream::VisitedMove> visited;
        for (int i = 0; i < list.size && i < 6; ++i) visited.push_back({list[i].raw, static_cast<uint32_t>(1 + i)});
        shogi::Packed packed = shogi::pack(pos);
        ASSERT_TRUE(w->add_position(packed, static_cast<uint16_t>(ply), 0.0f, visited).ok());
        record_at.push_back(offset);
        offset += stream::record_size(96, visited.size());
        states.emplace_back();
        pos.do_move(list[static_cast<int>(rng() % static_cast<uint64_t>(list.size))], states.back());
      }
      ASSERT_TRUE(w->end_game(game % 2 ? stream::GameResult::WhiteWin : stream::GameResult::Draw).ok());
    }
    ASSERT_TRUE(w->close().ok());
  }
  ASSERT_TRUE(validate(clean).ok());
  ASSERT_TRUE(pack({clean}, options_for(dir)).ok());
  const std::string text = testing::slurp(clean);
  const std::vector<uint8_t> original(text.begin(), text.end());

  const std::string path = (dir / "flipped.mpk").string();
  int unpack_refused = 0, validate_refused = 0, pack_refused = 0;
  for (int flip = 0; flip < 1000; ++flip) {
    const size_t record = rng() % record_at.size();
    const size_t byte = rng() % 96;
    std::vector<uint8_t> bytes = original;
    const size_t packed_at = record_at[record] + stream::kRecordFixedSize;
    bytes[packed_at + byte] ^= static_cast<uint8_t>(1 + rng() % 255);
    write_bytes(path, bytes);

    auto unpacked = shogi::unpack(std::span<const uint8_t>(bytes.data() + packed_at, 96));
    Status v = validate(path);
    auto po = options_for(dir);
    po.overwrite = true;  // each flip replaces the last one's shards
    auto p = pack({path}, po);
    unpack_refused += !unpacked.ok();
    validate_refused += !v.ok();
    pack_refused += !p.ok();
    ASSERT_EQ(v.ok(), unpacked.ok()) << "flip " << flip << ": byte " << byte << " of record " << record << ": "
                                     << (v.ok() ? "validate accepts" : v.message());
    ASSERT_EQ(p.ok(), v.ok()) << "flip " << flip << ": " << (p.ok() ? "pack accepts" : p.status().message());
    if (!v.ok()) {
      const std::string where =
          path + ": record " + std::to_string(record) + " at byte " + std::to_string(record_at[record]) + ": packed ";
      EXPECT_EQ(v.message().rfind(where, 0), 0u) << v.message();
      const std::string why = unpacked.status().message();
      EXPECT_EQ(v.message(), where + (why.rfind("byte ", 0) == 0 ? why : "position: " + why));
      EXPECT_EQ(p.status().message(), v.message());
    }
  }
  EXPECT_EQ(validate_refused, unpack_refused);
  EXPECT_EQ(pack_refused, unpack_refused);
  // Most changes break a rule; some (a hand count, the side to move, an empty
  // square that stays unattacked) leave a valid position.
  EXPECT_GT(unpack_refused, 500);
  EXPECT_LT(unpack_refused, 1000);
}

// pack's in-memory fold splits the records between threads by board hash,
// each thread checking the rules of its own records only; with several bad
// records in different threads' shares, pack still names the first one, as
// validate does, whatever the thread count.
TEST(ValidateAndPack, FirstBadRecordIsNamedWhateverTheThreadCount) {
  auto dir = testing::scratch_dir();
  const std::string path = (dir / "bad.mpk").string();
  std::mt19937_64 rng(5);
  std::vector<stream::Record> records;
  shogi::Position pos = shogi::Position::startpos();
  std::deque<shogi::StateInfo> states;
  std::vector<uint64_t> hashes;
  for (int ply = 0; ply < 60; ++ply) {
    shogi::MoveList list;
    shogi::generate_legal(pos, list);
    ASSERT_FALSE(list.empty());
    std::vector<uint16_t> moves;
    for (int i = 0; i < list.size && i < 4; ++i) moves.push_back(list[i].raw);
    const shogi::Packed packed = shogi::pack(pos);
    hashes.push_back(hash_board(packed.data()));
    records.push_back(selfplay_record(packed, moves));
    states.emplace_back();
    pos.do_move(list[static_cast<int>(rng() % static_cast<uint64_t>(list.size))], states.back());
  }
  // Three records list their first move twice: from record 10 on, the first
  // in the second thread's share of two, the next two in the first's (in
  // memory the parts split by bucket_of(hash, threads); --buckets 2's first
  // pass by bucket_of(hash, 2) modulo the threads).
  std::vector<size_t> bad;
  for (size_t r = 10; r < records.size() && bad.size() < 3; ++r)
    if (bucket_of(hashes[r], 2) == (bad.empty() ? 1u : 0u)) bad.push_back(r);
  ASSERT_EQ(bad.size(), 3u);
  for (size_t r : bad) records[r].candidates.push_back(records[r].candidates.front());
  write_bytes(path, raw_stream(stream::selfplay_header(), records));
  Status v = validate(path);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.message().rfind(path + ": record " + std::to_string(bad[0]) + " at byte ", 0), 0u) << v.message();
  for (uint32_t buckets : {0u, 2u}) {
    for (unsigned threads : {1u, 2u, 3u, 5u}) {
      auto o = options_for(dir);
      o.threads = threads;
      o.buckets = buckets;
      auto packed = pack({path}, o);
      ASSERT_FALSE(packed.ok()) << threads;
      EXPECT_EQ(packed.status().message(), v.message()) << threads << " threads, --buckets " << buckets;
    }
  }
}

}  // namespace
}  // namespace manaka::fold
