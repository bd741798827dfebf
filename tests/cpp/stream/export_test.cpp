// The export rules of stream/export.h, one at a time: the candidate kept,
// the score from value_q, the result from value_z, and a Black's-view
// (pov 1) stream turned to the side to move. The byte-level round trip and
// the cshogi and pyarrow oracles are tests/python/test_stream_import.py.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "core/bytes.h"
#include "sazpack/move16.h"
#include "shogi/pack.h"
#include "stream/export.h"
#include "stream/writer.h"

namespace manaka::stream {
namespace {

TEST(ExportRules, BestCandidateIsTheFirstLargest) {
  const std::vector<float> prob = {0.2f, 0.4f, 0.4f, 0.0f};
  EXPECT_EQ(best_candidate(std::span<const float>(prob)), 1u);
  const std::vector<uint32_t> one = {7};
  EXPECT_EQ(best_candidate(std::span<const uint32_t>(one)), 0u);
}

TEST(ExportRules, ScoreFromValueQInvertsTheSquash) {
  for (int cp : {-3000, -250, -1, 0, 1, 77, 2999}) {
    const float q = float(std::tanh(cp / 1200.0));
    EXPECT_NEAR(score_from_value_q(q, 600.0), cp, 1 + std::abs(cp) / 1000) << cp;
  }
  EXPECT_EQ(score_from_value_q(1.0f, 600.0), 32767);
  EXPECT_EQ(score_from_value_q(-1.0f, 600.0), -32767);
  EXPECT_EQ(score_from_value_q(0.9999999f, 10000.0), 32767);  // 166k, clamped
}

TEST(ExportRules, ResultFromValueZRoundsByTheThreshold) {
  EXPECT_EQ(result_from_value_z(1.0f, 0.5), 1);
  EXPECT_EQ(result_from_value_z(0.5f, 0.5), 0);  // a win and a draw: a draw
  EXPECT_EQ(result_from_value_z(0.51f, 0.5), 1);
  EXPECT_EQ(result_from_value_z(-0.7f, 0.5), -1);
  EXPECT_EQ(result_from_value_z(0.1f, 0.0), 1);
  EXPECT_EQ(result_from_value_z(0.0f, 0.0), 0);
  EXPECT_EQ(result_from_value_z(-1.0f, 0.999), -1);
}

TEST(ExportStream, BlacksViewIsTurnedToTheSideToMove) {
  const std::string mpk = ::testing::TempDir() + "/manaka_export_pov.mpk";
  const std::string out = ::testing::TempDir() + "/manaka_export_pov.psv";
  std::remove(mpk.c_str());
  std::remove(out.c_str());
  Header h;
  h.pov = Pov::Black;
  h.policy_source = PolicySource::Cp;
  h.eval_coef = 600.0f;
  h.mate_scale = 32000;
  auto pos = shogi::Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");
  ASSERT_TRUE(pos.ok());
  const shogi::Packed packed = shogi::pack(*pos);
  const Candidate cands[2] = {{shogi::Move::parse_usi("3c3d")->raw, kNoVisits, 120},
                              {shogi::Move::parse_usi("8c8d")->raw, kNoVisits, 300}};
  {
    auto w = Writer::create(mpk, h);
    ASSERT_TRUE(w.ok()) << w.status().message();
    // Black won and stands 300 better; White, to move, lost and stands 300 worse.
    ASSERT_TRUE(w->write(RecordView{7, 1.0f, float(std::tanh(300 / 1200.0)), packed, cands}).ok());
    ASSERT_TRUE(w->close().ok());
  }
  auto s = export_stream({.to = SourceFormat::Psv, .inputs = {mpk}, .output = out});
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->records_written, 1u);
  std::ifstream f(out, std::ios::binary);
  const std::vector<uint8_t> r{std::istreambuf_iterator<char>(f), {}};
  ASSERT_EQ(r.size(), kPsvRecordSize);
  // White's best move is the one Black's view scores lowest: 3c3d (-120 for
  // White), not 8c8d (-300), which the highest raw cp would pick.
  EXPECT_EQ(load_i16(r.data() + 32), -120);
  EXPECT_EQ(load_u16(r.data() + 34), sazpack::Move16::from_mpk(*shogi::Move::parse_usi("3c3d")).raw);
  EXPECT_EQ(load_u16(r.data() + 36), 7);
  EXPECT_EQ(int8_t(r[38]), -1);
}

TEST(ExportStream, ThresholdOutOfRangeIsAUsageError) {
  auto s = export_stream({.to = SourceFormat::Psv, .inputs = {"x.mpk"}, .output = "y.psv",
                          .result_threshold = 1.0});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().message(), "stream export: result threshold 1 out of range (0 <= t < 1)");
}

}  // namespace
}  // namespace manaka::stream
