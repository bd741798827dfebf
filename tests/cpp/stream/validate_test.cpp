// Every validation rule, refused twice: by the writer before anything is
// written, and by the reader over raw bytes that bypass the writer, with the
// message naming the file, the record index and its byte offset (and, for
// the position, the byte within it).
#include <gtest/gtest.h>

#include <unistd.h>

#include <bit>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "shogi/pack.h"
#include "shogi/position.h"
#include "stream/format.h"
#include "stream/header.h"
#include "stream/reader.h"
#include "stream/writer.h"

namespace manaka::stream {
namespace {

namespace fs = std::filesystem;

uint16_t move16(int from, int to, bool promote = false) {
  return static_cast<uint16_t>(to | (from << 7) | (promote ? 1 << 14 : 0));
}

Record valid_record(PolicySource source) {
  Record r;
  r.ply = 12;
  r.value_z = 1.0f;
  r.value_q = 0.25f;
  const shogi::Packed start = shogi::pack(shogi::Position::startpos());
  r.packed.assign(start.begin(), start.end());
  bool visits = source == PolicySource::Visits;
  r.candidates = {
      {move16(60, 51), visits ? 700u : kNoVisits, visits ? kNoCp : int16_t{120}},
      {move16(81 + 0, 40), visits ? 99u : kNoVisits, visits ? kNoCp : int16_t{-35}},
      {move16(20, 11, true), visits ? 1u : kNoVisits, visits ? kNoCp : int16_t{0}},
  };
  return r;
}

Header header_for(PolicySource source) {
  Header h;
  h.policy_source = source;
  return h;
}

// The record bytes, assembled by hand (not through encode_record).
void put16(std::vector<uint8_t>& b, uint16_t v) {
  b.push_back(static_cast<uint8_t>(v));
  b.push_back(static_cast<uint8_t>(v >> 8));
}
void put32(std::vector<uint8_t>& b, uint32_t v) {
  put16(b, static_cast<uint16_t>(v));
  put16(b, static_cast<uint16_t>(v >> 16));
}
void putf(std::vector<uint8_t>& b, float v) { put32(b, std::bit_cast<uint32_t>(v)); }

void append_raw(std::vector<uint8_t>& b, const Record& r) {
  put16(b, r.ply);
  putf(b, r.value_z);
  putf(b, r.value_q);
  put16(b, static_cast<uint16_t>(r.candidates.size()));
  b.insert(b.end(), r.packed.begin(), r.packed.end());
  for (const Candidate& c : r.candidates) {
    put16(b, c.mv);
    put32(b, c.visits);
    put16(b, static_cast<uint16_t>(c.cp));
  }
}

std::vector<uint8_t> raw_header(const Header& h) {
  std::vector<uint8_t> b = {'M', 'P', 'K', '1'};
  put16(b, h.version);
  put16(b, h.packed_len);
  b.push_back(static_cast<uint8_t>(h.pov));
  b.push_back(static_cast<uint8_t>(h.policy_source));
  put16(b, h.mate_scale);
  put16(b, h.fv_scale);
  put16(b, h.mate_slack);
  putf(b, h.eval_coef);
  put32(b, h.flags);
  return b;
}

struct RuleCase {
  const char* name;
  PolicySource source;
  std::function<void(Record&)> breaks;
  std::string message;  // the rule's message, without the location prefix
};

std::vector<RuleCase> rule_cases() {
  const auto V = PolicySource::Visits, C = PolicySource::Cp;
  return {
      {"NoCandidates", V, [](Record& r) { r.candidates.clear(); }, "no candidates (n_cand is 0)"},
      {"PackedTooNarrow", V, [](Record& r) { r.packed.pop_back(); },
       "packed is 95 bytes, must be packed_len (96)"},
      {"PackedTooWide", V, [](Record& r) { r.packed.push_back(0); },
       "packed is 97 bytes, must be packed_len (96)"},
      {"ValueZHalf", V, [](Record& r) { r.value_z = 0.5f; }, "value_z is 0.5, must be exactly -1, 0 or 1"},
      {"ValueZTwo", V, [](Record& r) { r.value_z = -2.0f; }, "value_z is -2, must be exactly -1, 0 or 1"},
      {"ValueZNan", V, [](Record& r) { r.value_z = std::nanf(""); },
       "value_z is nan, must be exactly -1, 0 or 1"},
      {"ValueQNan", V, [](Record& r) { r.value_q = std::nanf(""); },
       "value_q is nan, must be finite and within [-1, 1]"},
      {"ValueQInf", V, [](Record& r) { r.value_q = -std::numeric_limits<float>::infinity(); },
       "value_q is -inf, must be finite and within [-1, 1]"},
      {"ValueQAboveOne", V, [](Record& r) { r.value_q = std::nextafter(1.0f, 2.0f); },
       "value_q is 1.0000001, must be finite and within [-1, 1]"},
      {"ValueQBelowMinusOne", V, [](Record& r) { r.value_q = -1.5f; },
       "value_q is -1.5, must be finite and within [-1, 1]"},
      {"MoveBit15", V, [](Record& r) { r.candidates[1].mv |= 0x8000; },
       "candidate 1: mv 0xA8A8 has bit 15 set"},
      {"MoveDestination81", V, [](Record& r) { r.candidates[2].mv = move16(20, 81); },
       "candidate 2: mv 0x0A51 has destination 81, must be below 81"},
      {"MoveDestination127", V, [](Record& r) { r.candidates[0].mv = move16(5, 127); },
       "candidate 0: mv 0x02FF has destination 127, must be below 81"},
      {"MoveOrigin88", V, [](Record& r) { r.candidates[1].mv = move16(88, 3); },
       "candidate 1: mv 0x2C03 has origin field 88, must be at most 87"},
      {"MoveDropPromotes", V, [](Record& r) { r.candidates[1].mv = move16(87, 3, true); },
       "candidate 1: mv 0x6B83 is a drop (origin field 87) flagged as promoting"},
      {"VisitsMixed", V, [](Record& r) { r.candidates[2].visits = kNoVisits; },
       "visits present on some candidates and absent on others (candidate 0 has 700, candidate 2 has "
       "NO_VISITS)"},
      {"CpMixed", C, [](Record& r) { r.candidates[0].cp = kNoCp; },
       "cp present on some candidates and absent on others (candidate 1 has -35, candidate 0 has NO_CP)"},
      {"VisitsTotalZero", V,
       [](Record& r) {
         for (auto& c : r.candidates) c.visits = 0, c.cp = 10;
       },
       "policy_source is 0 (visits) but no candidate has visits (all NO_VISITS, a total of zero)"},
      {"CpSourceWithoutCp", C,
       [](Record& r) {
         for (auto& c : r.candidates) c.cp = kNoCp, c.visits = 5;
       },
       "policy_source is 1 (cp) but no candidate has cp (all NO_CP)"},
      {"MoveListedTwice", V, [](Record& r) { r.candidates[2].mv = r.candidates[0].mv; },
       "mv 0x1E33 is listed twice (candidates 0 and 2); a record lists each move at most once"},
      {"MoveListedTwiceByCp", C, [](Record& r) { r.candidates[2].mv = r.candidates[1].mv; },
       "mv 0x28A8 is listed twice (candidates 1 and 2); a record lists each move at most once"},
      // Square 37 is 5b, empty in the initial position.
      {"PositionUnknownBoardByte", V, [](Record& r) { r.packed[37] = 0x37; },
       "packed byte 37: unknown board byte 0x37"},
      {"PositionHandOverfull", V, [](Record& r) { r.packed[81] = 19; },
       "packed byte 81: Black's hand holds 19 pawns, more than 18"},
      {"PositionSideByte", C, [](Record& r) { r.packed[95] = 2; },
       "packed byte 95: side to move 0x02, expected 0 or 1"},
      {"PositionSecondKing", V, [](Record& r) { r.packed[40] = 0x10; },
       "packed byte 40: White has a second king, on 5e"},
      {"PositionNoKing", V, [](Record& r) { r.packed[44] = 0xFF; }, "packed position: Black has no king"},
      {"PositionTooManyPawns", V, [](Record& r) { r.packed[88] = 1; },
       "packed position: 19 pawns on the board and in hands, more than the 18 of a set"},
      {"PositionNotToMoveInCheck", V,
       [](Record& r) {
         r.packed[shogi::make_square(2, 8)] = 0xFF;  // Black's rook from 2h ...
         r.packed[shogi::make_square(5, 2)] = 0x01;  // ... to 5b, beside White's king; Black to move
       },
       "packed byte 36: White, not to move, is in check"},
  };
}

class RuleTest : public ::testing::TestWithParam<RuleCase> {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) / ("mpk_rules_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_P(RuleTest, WriterRefusesAndWritesNothingOfIt) {
  const RuleCase& rc = GetParam();
  std::string path = (dir_ / "games.mpk").string();
  Record good = valid_record(rc.source), bad = good;
  rc.breaks(bad);
  {
    auto w = Writer::create(path, header_for(rc.source));
    ASSERT_TRUE(w.ok()) << w.status().message();
    ASSERT_TRUE(w->write(good).ok());
    Status st = w->write(bad);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.kind(), ErrorKind::Invalid);
    size_t at = kHeaderSize + record_size(96, 3);
    EXPECT_EQ(st.message(), path + ": record 1 at byte " + std::to_string(at) + ": " + rc.message);
    ASSERT_TRUE(w->write(good).ok());  // a refusal is not sticky
    ASSERT_TRUE(w->close().ok());
  }
  auto r = Reader::open(path);
  ASSERT_TRUE(r.ok()) << r.status().message();
  auto n = validate_all(*r);
  ASSERT_TRUE(n.ok()) << n.status().message();
  EXPECT_EQ(*n, 2u);
  EXPECT_EQ(r->byte_offset(), fs::file_size(path));
}

TEST_P(RuleTest, ReaderRefusesRawBytes) {
  const RuleCase& rc = GetParam();
  Record good = valid_record(rc.source), bad = good;
  rc.breaks(bad);
  std::vector<uint8_t> bytes = raw_header(header_for(rc.source));
  append_raw(bytes, good);
  append_raw(bytes, good);
  size_t at = bytes.size();
  append_raw(bytes, bad);
  append_raw(bytes, good);

  auto r = Reader::from_memory(bytes, "games.mpk");
  ASSERT_TRUE(r.ok()) << r.status().message();
  RecordView rec;
  for (int i = 0; i < 2; ++i) {
    auto more = r->next(rec);
    ASSERT_TRUE(more.ok()) << more.status().message();
    ASSERT_TRUE(*more);
  }
  auto more = r->next(rec);
  ASSERT_FALSE(more.ok());
  const std::string where = "record 2 at byte " + std::to_string(at);
  if (std::string(rc.name).rfind("Packed", 0) == 0) {
    // A position of the wrong width cannot be told from its bytes: the reader
    // takes packed_len bytes and lands at the wrong offset, and the move16
    // check (or the length) catches it there.
    EXPECT_NE(more.status().message().find(where), std::string::npos) << more.status().message();
  } else {
    EXPECT_EQ(more.status().kind(), ErrorKind::Invalid);
    EXPECT_EQ(more.status().message(), "games.mpk: " + where + ": " + rc.message);
  }
  // The error is sticky.
  auto again = r->next(rec);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().message(), more.status().message());
}

// validate_all screens records in bulk (Reader::skip_batch) and leaves the
// message to the full checks: a bad record mid-buffer, or past several
// refills of a file's read buffer, fails exactly as next() reports it.
TEST_P(RuleTest, ValidateAllReportsWhatNextReports) {
  const RuleCase& rc = GetParam();
  Record good = valid_record(rc.source), bad = good;
  rc.breaks(bad);
  for (size_t before : {size_t{0}, size_t{3}, 3 * Reader::kBufferSize / record_size(96, 3)}) {
    std::vector<uint8_t> bytes = raw_header(header_for(rc.source));
    for (size_t i = 0; i < before; ++i) append_raw(bytes, good);
    size_t at = bytes.size();
    append_raw(bytes, bad);
    append_raw(bytes, good);
    std::string path = (dir_ / "games.mpk").string();
    {
      std::ofstream out(path, std::ios::binary);
      out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    }

    auto by_next = Reader::open(path);
    ASSERT_TRUE(by_next.ok());
    RecordView rec;
    Result<bool> more = true;
    while (more.ok() && *more) more = by_next->next(rec);
    ASSERT_FALSE(more.ok());
    const std::string where = "record " + std::to_string(before) + " at byte " + std::to_string(at);
    EXPECT_NE(more.status().message().find(where), std::string::npos) << more.status().message();

    auto from_file = Reader::open(path);
    auto from_mem = Reader::from_memory(bytes, path);
    for (Reader* r : {&*from_file, &*from_mem}) {
      auto n = validate_all(*r);
      ASSERT_FALSE(n.ok()) << before;
      EXPECT_EQ(n.status().kind(), more.status().kind());
      EXPECT_EQ(n.status().message(), more.status().message()) << before;
      EXPECT_EQ(r->record_index(), before);
      EXPECT_EQ(r->byte_offset(), at);
      auto again = r->skip_batch();  // sticky
      ASSERT_FALSE(again.ok());
      EXPECT_EQ(again.status().message(), more.status().message());
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Rules, RuleTest, ::testing::ValuesIn(rule_cases()),
                         [](const ::testing::TestParamInfo<RuleCase>& info) { return info.param.name; });

TEST(Validate, AcceptsBothHalvesAndNegativeZero) {
  Record r = valid_record(PolicySource::Visits);
  for (auto& c : r.candidates) c.cp = 7;  // both halves present is allowed
  r.value_z = -0.0f;
  r.value_q = -1.0f;
  std::vector<uint8_t> bytes = raw_header(header_for(PolicySource::Visits));
  append_raw(bytes, r);
  auto reader = Reader::from_memory(bytes);
  ASSERT_TRUE(reader.ok());
  auto n = validate_all(*reader);
  ASSERT_TRUE(n.ok()) << n.status().message();
  EXPECT_EQ(*n, 1u);
}

// All 13,689 distinct move16s (81 destinations x (81 origins x promoting or
// not + 7 drops)): the longest list rule 9 allows.
std::vector<Candidate> every_move16() {
  std::vector<Candidate> out;
  for (int from = 0; from <= 87; ++from) {
    for (int to = 0; to < 81; ++to) {
      out.push_back({move16(from, to), 1, kNoCp});
      if (from < 81) out.push_back({move16(from, to, true), 1, kNoCp});
    }
  }
  return out;
}

TEST(Validate, WriterRefusesMoreThan65535CandidatesAndAnyRepeat) {
  fs::path path = fs::path(::testing::TempDir()) / ("mpk_many_" + std::to_string(::getpid()));
  auto w = Writer::create(path.string(), Header{});
  ASSERT_TRUE(w.ok());
  Record r = valid_record(PolicySource::Visits);
  r.candidates.assign(65536, r.candidates[0]);
  Status st = w->write(r);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(), path.string() + ": record 0 at byte 24: 65536 candidates, n_cand holds at most 65535");
  // 65535 fit n_cand, but no list that long can be free of repeats.
  r.candidates.resize(65535);
  st = w->write(r);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(), path.string() +
                              ": record 0 at byte 24: mv 0x1E33 is listed twice (candidates 0 and 1); a record "
                              "lists each move at most once");
  r.candidates = every_move16();
  ASSERT_EQ(r.candidates.size(), 13689u);
  EXPECT_TRUE(w->write(r).ok());
  r.candidates.push_back(r.candidates[13688]);
  EXPECT_FALSE(w->write(r).ok());
  ASSERT_TRUE(w->close().ok());
  auto reader = Reader::open(path.string());
  ASSERT_TRUE(reader.ok());
  auto n = validate_all(*reader);
  ASSERT_TRUE(n.ok()) << n.status().message();
  EXPECT_EQ(*n, 1u);
  fs::remove(path);
}

// ---- truncated is not corrupt ----

TEST(Truncation, EndInsideRecordIsTruncatedAndSaysSo) {
  Record good = valid_record(PolicySource::Visits);
  std::vector<uint8_t> bytes = raw_header(Header{});
  append_raw(bytes, good);
  size_t at = bytes.size();
  append_raw(bytes, good);
  size_t full = record_size(96, 3);  // 144
  for (size_t keep : {size_t{1}, size_t{11}, size_t{12}, size_t{37}, full - 1}) {
    std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + static_cast<long>(at + keep));
    auto r = Reader::from_memory(cut, "games.mpk");
    ASSERT_TRUE(r.ok());
    auto n = validate_all(*r);
    ASSERT_FALSE(n.ok());
    EXPECT_EQ(n.status().kind(), ErrorKind::Truncated);
    std::string needs = keep < 12 ? "needs at least 12 bytes" : "needs " + std::to_string(full) + " bytes";
    EXPECT_EQ(n.status().message(), "games.mpk: truncated: file ends inside record 1 at byte " +
                                        std::to_string(at) + " (" + needs + ", " + std::to_string(keep) +
                                        " remain)");
  }
}

TEST(Truncation, CorruptRecordIsInvalidNotTruncated) {
  Record good = valid_record(PolicySource::Visits), bad = good;
  bad.value_z = 0.5f;
  std::vector<uint8_t> bytes = raw_header(Header{});
  append_raw(bytes, good);
  append_raw(bytes, bad);
  auto r = Reader::from_memory(bytes, "games.mpk");
  ASSERT_TRUE(r.ok());
  auto n = validate_all(*r);
  ASSERT_FALSE(n.ok());
  EXPECT_EQ(n.status().kind(), ErrorKind::Invalid);
  EXPECT_EQ(n.status().message().find("truncated"), std::string::npos);
  // A corrupt prefix is reported as corrupt even when the record is also cut.
  bytes.resize(bytes.size() - 10);
  auto r2 = Reader::from_memory(bytes, "games.mpk");
  auto n2 = validate_all(*r2);
  EXPECT_EQ(n2.status().kind(), ErrorKind::Invalid);
  EXPECT_EQ(n2.status().message(), n.status().message());
}

TEST(Truncation, ShortHeaderIsTruncated) {
  std::vector<uint8_t> bytes = raw_header(Header{});
  for (size_t keep : {size_t{0}, size_t{4}, size_t{23}}) {
    std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + static_cast<long>(keep));
    auto r = Reader::from_memory(cut, "games.mpk");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().kind(), ErrorKind::Truncated);
    EXPECT_EQ(r.status().message(), "games.mpk: truncated: stream is " + std::to_string(keep) +
                                        " bytes, shorter than the 24-byte MPK1 header");
  }
  auto r = Reader::from_memory(bytes, "games.mpk");  // the header alone: an empty stream
  ASSERT_TRUE(r.ok());
  auto n = validate_all(*r);
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, 0u);
}

}  // namespace
}  // namespace manaka::stream
