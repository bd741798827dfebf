// psv / hcpe / hcpe3 records -> MPK1 records (stream/import_format.h): the
// fields each lands in, and each refusal with its message. The oracle
// comparison against cshogi is tests/python/test_stream_import.py.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "core/bytes.h"
#include "sazpack/move16.h"
#include "shogi/apery_move16.h"
#include "shogi/huffman_coded_pos.h"
#include "shogi/packed_sfen.h"
#include "stream/export.h"
#include "stream/import.h"
#include "stream/import_format.h"
#include "stream/reader.h"

namespace manaka::stream {
namespace {

using shogi::Move;
using shogi::Position;

float squash600(int64_t cp) { return float(std::tanh(double(cp) / 1200.0)); }
const ScoreTable& scores() {
  static const ScoreTable t(squash600);
  return t;
}

std::vector<uint8_t> psv(const char* sfen, const char* usi, int16_t score, uint16_t ply, int8_t result) {
  std::vector<uint8_t> r(kPsvRecordSize, 0);
  const auto code = shogi::encode_packed_sfen(*Position::from_sfen(sfen));
  std::copy(code.begin(), code.end(), r.begin());
  store_i16(r.data() + 32, score);
  store_u16(r.data() + 34, sazpack::Move16::from_mpk(*Move::parse_usi(usi)).raw);
  store_u16(r.data() + 36, ply);
  r[38] = uint8_t(result);
  return r;
}

std::vector<uint8_t> hcpe(const char* sfen, const char* usi, int16_t eval, uint8_t result) {
  std::vector<uint8_t> r(kHcpeRecordSize, 0);
  const auto code = *shogi::encode_huffman_coded_pos(*Position::from_sfen(sfen));
  std::copy(code.begin(), code.end(), r.begin());
  store_i16(r.data() + 32, eval);
  store_u16(r.data() + 34, shogi::apery16_from_move(*Move::parse_usi(usi)));
  r[36] = result;
  return r;
}

constexpr const char* kStart = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
constexpr const char* kAfter76 = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2";

TEST(ImportPsv, CarriesEveryField) {
  ImportBuffer out;
  import_psv(psv(kAfter76, "3c3d", -120, 1, -1), scores(), out);
  ASSERT_EQ(out.records.size(), 1u);
  const ImportedRecord& r = out.records[0];
  ASSERT_EQ(r.why, ImportRefusal::None);
  EXPECT_EQ(r.ply, 1);
  EXPECT_EQ(r.value_z, -1.0f);
  EXPECT_FLOAT_EQ(r.value_q, squash600(-120));
  EXPECT_EQ(shogi::unpack(r.packed)->sfen(), "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 1");
  ASSERT_EQ(r.cand_count, 1u);
  EXPECT_EQ(Move{out.candidates[0].mv}.to_usi(), "3c3d");
  EXPECT_EQ(out.candidates[0].cp, -120);
  EXPECT_EQ(out.candidates[0].visits, kNoVisits);
}

TEST(ImportPsv, RefusesWithAReason) {
  std::vector<uint8_t> bytes;
  auto add = [&bytes](std::vector<uint8_t> r) { bytes.insert(bytes.end(), r.begin(), r.end()); };
  add(psv(kStart, "7g7f", 0, 0, 2));       // result out of range
  add(psv(kStart, "7g7e", 0, 0, 0));       // illegal
  add(psv(kStart, "7g7f", -32768, 0, 0));  // NO_CP
  add(psv(kStart, "7g7f", 10, 0, 0));      // fine
  add(std::vector<uint8_t>(kPsvRecordSize, 0xFF));
  ImportBuffer out;
  import_psv(bytes, scores(), out);
  ASSERT_EQ(out.records.size(), 5u);
  EXPECT_EQ(out.records[0].why, ImportRefusal::OutOfRange);
  EXPECT_EQ(out.records[1].why, ImportRefusal::IllegalMove);
  EXPECT_EQ(out.records[2].why, ImportRefusal::OutOfRange);
  EXPECT_EQ(out.records[3].why, ImportRefusal::None);
  EXPECT_EQ(out.records[4].why, ImportRefusal::BadPosition);
  ASSERT_EQ(out.details.size(), 4u);
  EXPECT_EQ(out.details[0].second, "game_result 2, must be 1, -1 or 0");
  EXPECT_EQ(out.details[1].second, "move 0x1e3a (7g7e) is illegal in " + std::string(kStart));
  EXPECT_EQ(out.details[3].first, 4u);
  EXPECT_EQ(out.details[3].second, "packed sfen bit 1: Black's king square 127 is not a square (0-80)");
}

TEST(ImportHcpe, ResultIsTheWinnersColour) {
  std::vector<uint8_t> bytes = hcpe(kAfter76, "3c3d", 50, 1);  // Black won, White to move
  auto more = hcpe(kStart, "2g2f", 70, 1);                        // Black won, Black to move
  bytes.insert(bytes.end(), more.begin(), more.end());
  more = hcpe(kStart, "2g2f", 70, 0);
  bytes.insert(bytes.end(), more.begin(), more.end());
  more = hcpe(kStart, "2g2f", 70, 3);
  bytes.insert(bytes.end(), more.begin(), more.end());
  ImportBuffer out;
  import_hcpe(bytes, scores(), out);
  ASSERT_EQ(out.records.size(), 4u);
  EXPECT_EQ(out.records[0].value_z, -1.0f);
  EXPECT_EQ(out.records[1].value_z, 1.0f);
  EXPECT_EQ(out.records[2].value_z, 0.0f);
  EXPECT_EQ(out.records[3].why, ImportRefusal::OutOfRange);
  EXPECT_EQ(out.details[0].second, "gameResult 3, must be 0, 1 or 2");
  EXPECT_EQ(Move{out.candidates[0].mv}.to_usi(), "3c3d");
  EXPECT_EQ(out.candidates[0].cp, 50);
}

// A game: start, result, then (selected, eval, [(move, visits)...]) per move.
struct MoveEntry {
  const char* selected;
  int16_t eval;
  std::vector<std::pair<const char*, uint16_t>> candidates;
};
std::vector<uint8_t> hcpe3_game(const char* sfen, uint8_t result, const std::vector<MoveEntry>& moves) {
  std::vector<uint8_t> g(kHcpe3GameHeaderSize, 0);
  const auto code = *shogi::encode_huffman_coded_pos(*Position::from_sfen(sfen));
  std::copy(code.begin(), code.end(), g.begin());
  store_u16(g.data() + 32, uint16_t(moves.size()));
  g[34] = result;
  for (const auto& m : moves) {
    uint8_t e[kHcpe3MoveSize];
    store_u16(e, shogi::apery16_from_move(*Move::parse_usi(m.selected)));
    store_i16(e + 2, m.eval);
    store_u16(e + 4, uint16_t(m.candidates.size()));
    g.insert(g.end(), e, e + kHcpe3MoveSize);
    for (const auto& [usi, visits] : m.candidates) {
      uint8_t c[kHcpe3CandidateSize];
      store_u16(c, shogi::apery16_from_move(*Move::parse_usi(usi)));
      store_u16(c + 2, visits);
      g.insert(g.end(), c, c + kHcpe3CandidateSize);
    }
  }
  return g;
}

TEST(ImportHcpe3, FollowsTheGame) {
  // White won by declaration (2 | 0x08); the second position is unsearched.
  auto g = hcpe3_game(kStart, 2 | 0x08,
                      {{"7g7f", 30, {{"7g7f", 60}, {"2g2f", 40}, {"5i5h", 0}}},
                       {"3c3d", -20, {}},
                       {"2g2f", 10, {{"2g2f", 5}}}});
  size_t needed = 0;
  ASSERT_EQ(*hcpe3_game_size(g, &needed), g.size());
  ASSERT_EQ(*hcpe3_game_size(std::span<const uint8_t>(g).first(g.size() - 1), &needed), 0u);
  EXPECT_EQ(needed, g.size());
  ImportBuffer out;
  import_hcpe3_game(g, scores(), out);
  EXPECT_EQ(out.unsearched, 1u);
  EXPECT_EQ(out.dropped_candidates, 1u);
  ASSERT_EQ(out.records.size(), 2u);
  EXPECT_EQ(out.records[0].why, ImportRefusal::None);
  EXPECT_EQ(out.records[0].ply, 0);
  EXPECT_EQ(out.records[0].value_z, -1.0f);  // Black to move, White won
  EXPECT_FLOAT_EQ(out.records[0].value_q, squash600(30));
  ASSERT_EQ(out.records[0].cand_count, 2u);
  EXPECT_EQ(Move{out.candidates[0].mv}.to_usi(), "7g7f");
  EXPECT_EQ(out.candidates[0].visits, 60u);
  EXPECT_EQ(out.candidates[1].visits, 40u);
  EXPECT_EQ(out.candidates[0].cp, kNoCp);
  EXPECT_EQ(out.records[1].ply, 2);
  EXPECT_EQ(out.records[1].value_z, -1.0f);
  EXPECT_EQ(shogi::unpack(out.records[1].packed)->sfen(),
            "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 1");
}

TEST(ImportHcpe3, AnIllegalPlayedMoveBreaksTheRest) {
  auto g = hcpe3_game(kStart, 1,
                      {{"7g7f", 30, {{"7g7f", 60}}},
                       {"7g7f", -20, {{"3c3d", 9}}},  // 7g7f again: illegal for White
                       {"2g2f", 10, {{"2g2f", 5}}},
                       {"2g2f", 10, {{"2g2f", 5}}}});
  ImportBuffer out;
  import_hcpe3_game(g, scores(), out);
  ASSERT_EQ(out.records.size(), 4u);
  EXPECT_EQ(out.records[0].why, ImportRefusal::None);
  EXPECT_EQ(out.records[1].why, ImportRefusal::None);  // the position itself is fine
  EXPECT_EQ(out.records[2].why, ImportRefusal::IllegalMove);
  EXPECT_EQ(out.records[3].why, ImportRefusal::GameBroken);
  EXPECT_EQ(out.details[0].second,
            "move 1's selectedMove16 0x1e3b (7g7f) is illegal in "
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");
}

TEST(ImportHcpe3, RefusesACandidateNumNoPositionHas) {
  auto g = hcpe3_game(kStart, 1, {{"7g7f", 30, {{"7g7f", 60}}}});
  store_u16(g.data() + kHcpe3GameHeaderSize + 4, 594);
  size_t needed = 0;
  auto size = hcpe3_game_size(g, &needed);
  ASSERT_FALSE(size.ok());
  EXPECT_EQ(size.status().message(),
            "byte 40 of the game (move 0): candidateNum 594, more than any position's 593 legal moves: not hcpe3");
}

std::string temp_name(const char* name) { return ::testing::TempDir() + "/manaka_import_" + name; }

void write_file(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

TEST(ImportStream, WritesCountsAndExportsBack) {
  std::vector<uint8_t> bytes;
  for (int i = 0; i < 1000; ++i) {
    auto r = psv(i % 2 ? kAfter76 : kStart, i % 2 ? "3c3d" : "7g7f", int16_t(i - 500), uint16_t(i % 2), int8_t(i % 3 - 1));
    bytes.insert(bytes.end(), r.begin(), r.end());
  }
  auto bad = psv(kStart, "7g7e", 0, 0, 0);
  bytes.insert(bytes.end(), bad.begin(), bad.end());
  bytes.push_back(7);  // a partial record
  const std::string in = temp_name("in.psv"), out = temp_name("out.mpk"), back = temp_name("back.psv");
  std::remove(out.c_str());
  std::remove(back.c_str());
  write_file(in, bytes);
  ImportOptions o{.from = SourceFormat::Psv, .inputs = {in}, .output = out, .eval_coef = 600, .mate_scale = 32000,
                  .value_q = squash600, .threads = 3};
  auto s = import_stream(o);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->positions, 1001u);
  EXPECT_EQ(s->records_written, 1000u);
  EXPECT_EQ(s->refused[size_t(ImportRefusal::IllegalMove)], 1u);
  EXPECT_EQ(s->refused[size_t(ImportRefusal::Truncated)], 1u);
  EXPECT_EQ(s->first_refusal[size_t(ImportRefusal::IllegalMove)]->where, "record 1000");
  EXPECT_EQ(s->first_refusal[size_t(ImportRefusal::IllegalMove)]->offset, 40000u);
  auto again = import_stream(o);
  ASSERT_FALSE(again.ok());  // the output exists
  const std::vector<uint8_t> whole = read_file(out);
  o.overwrite = true;
  o.chunk_bytes = 100;  // two records a chunk: indices and offsets run on across chunks
  auto small = import_stream(o);
  ASSERT_TRUE(small.ok()) << small.status().message();
  EXPECT_EQ(small->first_refusal[size_t(ImportRefusal::IllegalMove)]->where, "record 1000");
  EXPECT_EQ(small->first_refusal[size_t(ImportRefusal::IllegalMove)]->offset, 40000u);
  EXPECT_EQ(small->first_refusal[size_t(ImportRefusal::Truncated)]->offset, 40040u);
  EXPECT_EQ(read_file(out), whole);
  o.chunk_bytes = 0;
  o.overwrite = true;
  o.strict = true;
  auto strict = import_stream(o);
  ASSERT_FALSE(strict.ok());
  EXPECT_EQ(strict.status().message(),
            in + ": record 1000 at byte 40000: refused (illegal_move, a move is illegal in the position): move 0x1e3a "
                 "(7g7e) is illegal in " + kStart);
  auto e = export_stream({.to = SourceFormat::Psv, .inputs = {out}, .output = back});
  ASSERT_TRUE(e.ok()) << e.status().message();
  EXPECT_EQ(e->records_written, 1000u);
  bytes.resize(1000 * kPsvRecordSize);
  EXPECT_EQ(read_file(back), bytes);
}

TEST(ImportStream, ChunksOfAnySizeGiveTheSameStream) {
  std::vector<uint8_t> bytes;
  for (int g = 0; g < 40; ++g) {
    std::vector<MoveEntry> moves = {{"7g7f", int16_t(g), {{"7g7f", 60}, {"2g2f", uint16_t(1 + g)}}},
                                    {"3c3d", -20, {}},
                                    {"2g2f", 10, {{"2g2f", 5}, {"6i7h", 3}}}};
    if (g % 7 == 3) moves[1].selected = "3c3e";  // broken from move 1 on
    auto game = hcpe3_game(kStart, uint8_t(g % 3), moves);
    bytes.insert(bytes.end(), game.begin(), game.end());
  }
  // Two files with the same games: one file named twice is refused.
  const std::string in = temp_name("in.hcpe3"), again = temp_name("again.hcpe3");
  write_file(in, bytes);
  write_file(again, bytes);
  std::vector<uint8_t> first;
  for (size_t chunk : {size_t{0}, size_t{1}, size_t{50}, size_t{97}, size_t{1000}}) {
    const std::string out = temp_name("chunks.mpk");
    std::remove(out.c_str());
    auto s = import_stream({.from = SourceFormat::Hcpe3, .inputs = {in, again}, .output = out, .eval_coef = 600,
                            .mate_scale = 32000, .value_q = squash600, .threads = 2, .chunk_bytes = chunk});
    ASSERT_TRUE(s.ok()) << s.status().message();
    EXPECT_EQ(s->games, 80u) << chunk;
    EXPECT_EQ(s->unsearched, 80u) << chunk;
    EXPECT_EQ(s->refused[size_t(ImportRefusal::IllegalMove)], 12u) << chunk;
    EXPECT_EQ(s->refused[size_t(ImportRefusal::GameBroken)], 0u) << chunk;
    EXPECT_EQ(s->records_written, 80u * 2 - 12u) << chunk;
    EXPECT_EQ(s->first_refusal[size_t(ImportRefusal::IllegalMove)]->where, "game 3 move 2") << chunk;  // the first position it breaks
    auto bytes_out = read_file(out);
    if (first.empty()) first = bytes_out;
    EXPECT_EQ(bytes_out, first) << chunk;
  }
}

}  // namespace
}  // namespace manaka::stream
