// The fold by hand (fold/fold_table.h): each expected value below is worked
// out in the comment beside it.
#include "fold/fold_table.h"

#include <gtest/gtest.h>

#include <cmath>

#include "mpk_fixture.h"

namespace manaka::fold {
namespace {

using testing::board;
using testing::by_cp;
using testing::by_visits;
using testing::mv;

constexpr uint16_t A = mv(10, 20), B = mv(11, 21), C = mv(12, 22), D = mv(13, 23);

// Adds a record to the table.
void add(FoldTable& t, uint32_t board_id, uint16_t ply, float z, float q,
         std::vector<stream::Candidate> cands) {
  auto b = board(board_id);
  stream::RecordView v{ply, z, q, std::span<const uint8_t>(b.data(), b.size()), cands};
  ASSERT_TRUE(t.add(v).ok());
  t.flush();  // tests look at groups after every add
}

PolicyRule visit_rule() { return PolicyRule{}; }
PolicyRule cp_rule(double t = 100.0) { return PolicyRule::from(testing::teacher_header(), t); }

TEST(FoldTable, VisitsSummedAndNormalised) {
  FoldTable t(stream::PolicySource::Visits);
  add(t, 1, 40, 1, 0.5f, {by_visits(A, 3), by_visits(B, 1)});
  add(t, 1, 48, -1, 0.25f, {by_visits(A, 1), by_visits(C, 4)});
  ASSERT_EQ(t.groups(), 1u);
  shard::Row row;
  t.emit(0, visit_rule(), row);
  // A: 3 + 1 = 4, B: 1, C: 4; total 9. First appearance: A, B, then C.
  EXPECT_EQ(row.mv, (std::vector<uint16_t>{A, B, C}));
  EXPECT_FLOAT_EQ(row.prob[0], 4.0f / 9);
  EXPECT_FLOAT_EQ(row.prob[1], 1.0f / 9);
  EXPECT_FLOAT_EQ(row.prob[2], 4.0f / 9);
  EXPECT_EQ(row.cp, (std::vector<int16_t>(3, shard::kNullCp)));  // cp null on self-play rows
  EXPECT_EQ(row.weight, 2u);
  EXPECT_EQ(row.ply, 40);  // the minimum
  EXPECT_FLOAT_EQ(row.value_z, 0.0f);
  EXPECT_FLOAT_EQ(row.value_q, 0.375f);
  EXPECT_EQ(row.packed, board(1));
}

TEST(FoldTable, CpAveragedOverTheRecordsThatListedTheMove) {
  FoldTable t(stream::PolicySource::Cp);
  // A B C + A B D -> the union A B C D.
  add(t, 2, 10, 1, 0.0f, {by_cp(A, 100), by_cp(B, 0), by_cp(C, -50)});
  add(t, 2, 12, 1, 0.0f, {by_cp(A, 201), by_cp(B, -11), by_cp(D, 30)});
  shard::Row row;
  t.emit(0, cp_rule(), row);
  EXPECT_EQ(row.mv, (std::vector<uint16_t>{A, B, C, D}));
  // A (100 + 201) / 2 = 150.5 -> 151; B (0 - 11) / 2 = -5.5 -> -6 (halves
  // away from zero); C and D listed once: their own scores, not halved.
  EXPECT_EQ(row.cp, (std::vector<int16_t>{151, -6, -50, 30}));
  // prob from the stored (rounded) cp: exp((cp - 151) / 100) normalised.
  double e[4], sum = 0;
  for (int i = 0; i < 4; ++i) sum += e[i] = std::exp((row.cp[i] - 151) / 100.0);
  for (int i = 0; i < 4; ++i) EXPECT_FLOAT_EQ(row.prob[i], static_cast<float>(e[i] / sum)) << i;
}

TEST(FoldTable, CpMeanDenominatorIsPerMove) {
  FoldTable t(stream::PolicySource::Cp);
  add(t, 3, 0, 0, 0.0f, {by_cp(A, 90)});
  add(t, 3, 0, 0, 0.0f, {by_cp(A, 30), by_cp(B, 400)});
  add(t, 3, 0, 0, 0.0f, {by_cp(A, 0)});
  shard::Row row;
  t.emit(0, cp_rule(), row);
  // A listed by 3 records: 120 / 3 = 40; B by 1: 400 (not 400 / 3).
  EXPECT_EQ(row.cp, (std::vector<int16_t>{40, 400}));
  EXPECT_EQ(row.weight, 3u);
}

TEST(FoldTable, MateLeaderIsOneHot) {
  FoldTable t(stream::PolicySource::Cp);  // teacher header: 32000, slack 100 -> 31900
  add(t, 4, 0, 1, 1.0f, {by_cp(A, 2500), by_cp(B, 31960), by_cp(C, 31910)});
  shard::Row row;
  t.emit(0, cp_rule(), row);
  EXPECT_EQ(row.prob, (std::vector<float>{0.0f, 1.0f, 0.0f}));
}

TEST(FoldTable, MateTestReadsTheStoredMean) {
  FoldTable t(stream::PolicySource::Cp);
  // B: (31960 + 31800) / 2 = 31880 < 31900: no longer a mate score.
  add(t, 5, 0, 1, 1.0f, {by_cp(A, 31700), by_cp(B, 31960)});
  add(t, 5, 0, 1, 1.0f, {by_cp(A, 31700), by_cp(B, 31800)});
  shard::Row row;
  t.emit(0, cp_rule(), row);
  EXPECT_EQ(row.cp, (std::vector<int16_t>{31700, 31880}));
  EXPECT_FLOAT_EQ(row.prob[1], static_cast<float>(1 / (1 + std::exp(-1.8))));
}

// A pov-1 stream's cp are Black's view: where White moves, its best move is
// the one Black's view scores lowest. The row keeps cp as written.
TEST(FoldTable, APov1StreamsPolicyIsTheSideToMoves) {
  stream::Header black_view = testing::teacher_header();
  black_view.pov = stream::Pov::Black;
  const PolicyRule rule = PolicyRule::from(black_view, 100.0);
  const float favoured = static_cast<float>(1 / (1 + std::exp(-1.8)));  // 180 cp apart at T = 100
  FoldTable t(stream::PolicySource::Cp);
  add(t, 7, 0, 1, 0.5f, {by_cp(A, 120), by_cp(B, 300)});  // board 7: White to move
  add(t, 6, 0, 1, 0.5f, {by_cp(A, 120), by_cp(B, 300)});  // board 6: Black to move
  add(t, 9, 0, 1, 0.5f, {by_cp(A, -31960), by_cp(B, 2500)});  // White mates with A
  shard::Row row;
  t.emit(0, rule, row);
  EXPECT_EQ(row.cp, (std::vector<int16_t>{120, 300}));
  EXPECT_FLOAT_EQ(row.prob[0], favoured);
  t.emit(1, rule, row);
  EXPECT_FLOAT_EQ(row.prob[1], favoured);
  t.emit(2, rule, row);
  EXPECT_EQ(row.prob, (std::vector<float>{1.0f, 0.0f}));
  // The same scores in a pov-0 stream are already White's own.
  t.emit(0, cp_rule(), row);
  EXPECT_FLOAT_EQ(row.prob[1], favoured);
}

TEST(FoldTable, ValueMeansOverWonAndLostGames) {
  FoldTable t(stream::PolicySource::Visits);
  add(t, 6, 30, 1, 0.5f, {by_visits(A, 1)});
  add(t, 6, 20, -1, -0.25f, {by_visits(A, 1)});
  add(t, 7, 5, 1, 0.0f, {by_visits(A, 1)});
  add(t, 7, 5, 1, 0.0f, {by_visits(A, 1)});
  add(t, 7, 5, -1, 0.0f, {by_visits(A, 1)});
  shard::Row row;
  t.emit(0, visit_rule(), row);
  EXPECT_FLOAT_EQ(row.value_z, 0.0f);      // a win and a loss
  EXPECT_FLOAT_EQ(row.value_q, 0.125f);    // (0.5 - 0.25) / 2
  EXPECT_EQ(row.ply, 20);
  t.emit(1, visit_rule(), row);
  EXPECT_FLOAT_EQ(row.value_z, 1.0f / 3);  // two wins, one loss
  EXPECT_EQ(row.weight, 3u);
}

TEST(FoldTable, ARowOfOneRecordIsThatRecordsOwnFields) {
  // A group of one record is emitted from the record alone (its head keeps
  // ply, value_z and value_q); a second record makes it the group's means.
  FoldTable t(stream::PolicySource::Visits);
  add(t, 4, 57, -1, -0.625f, {by_visits(B, 2), by_visits(A, 6)});
  add(t, 5, 12, 1, 0.125f, {by_visits(C, 1)});
  add(t, 5, 9, 0, 0.5f, {by_visits(C, 3)});
  shard::Row row;
  t.emit(0, visit_rule(), row);
  EXPECT_EQ(row.packed, board(4));
  EXPECT_EQ(row.ply, 57);
  EXPECT_EQ(row.weight, 1u);
  EXPECT_EQ(row.value_z, -1.0f);
  EXPECT_EQ(row.value_q, -0.625f);
  EXPECT_EQ(row.mv, (std::vector<uint16_t>{B, A}));
  EXPECT_EQ(row.prob, (std::vector<float>{0.25f, 0.75f}));
  t.emit(1, visit_rule(), row);
  EXPECT_EQ(row.packed, board(5));
  EXPECT_EQ(row.ply, 9);
  EXPECT_EQ(row.weight, 2u);
  EXPECT_EQ(row.value_z, 0.5f);
  EXPECT_EQ(row.value_q, 0.3125f);  // (0.125 + 0.5) / 2
  EXPECT_EQ(row.prob, (std::vector<float>{1.0f}));
}

TEST(FoldTable, KeyIsTheBoardNotThePly) {
  FoldTable t(stream::PolicySource::Visits);
  add(t, 8, 40, 0, 0.0f, {by_visits(A, 1)});
  add(t, 9, 40, 0, 0.0f, {by_visits(A, 1)});
  add(t, 8, 48, 0, 0.0f, {by_visits(A, 1)});
  EXPECT_EQ(t.groups(), 2u);
  EXPECT_EQ(t.weight(0), 2u);
  EXPECT_EQ(t.weight(1), 1u);
}

// 100 records on three boards, more than the lookahead ring, added without
// flushing in between, then ended by `finish` (flush or seal).
void check_lookahead_joins(void (*finish)(FoldTable&)) {
  FoldTable t(stream::PolicySource::Visits);
  for (uint32_t i = 0; i < 100; ++i) {
    auto b = board(i % 3);
    std::vector<stream::Candidate> c{by_visits(static_cast<uint16_t>(mv(i % 80, 1)), 1)};
    stream::RecordView v{static_cast<uint16_t>(100 - i), 0, 0, b, c};
    ASSERT_TRUE(t.add(v).ok());
  }
  finish(t);
  ASSERT_EQ(t.groups(), 3u);
  EXPECT_EQ(t.records(), 100u);
  shard::Row row;
  t.emit(1, visit_rule(), row);
  EXPECT_EQ(row.packed, board(1));
  EXPECT_EQ(row.weight, 33u);
  EXPECT_EQ(row.ply, 100 - 97);
  ASSERT_EQ(row.mv.size(), 33u);
  EXPECT_EQ(row.mv[0], mv(1, 1));   // record 1 first
  EXPECT_EQ(row.mv[32], mv(17, 1)); // record 97 (97 % 80 = 17) last
}

TEST(FoldTable, GroupsJoinInInputOrderAcrossTheLookahead) {
  check_lookahead_joins([](FoldTable& t) { t.flush(); });
}

TEST(FoldTable, SealJoinsThePendingRecordsAndKeepsEveryRow) {
  // seal() gives the index back; the rows are emitted from the arenas alone.
  check_lookahead_joins([](FoldTable& t) { t.seal(); });
}

TEST(FoldTable, VisitCountsPast16BitsKeepTheirShare) {
  // The table keeps counts below 65535 in 16 bits and the rest aside.
  FoldTable t(stream::PolicySource::Visits);
  add(t, 1, 0, 0, 0.0f, {by_visits(A, 70000), by_visits(B, 1), by_visits(C, 65535), by_visits(D, 65534)});
  add(t, 2, 0, 0, 0.0f, {by_visits(A, 4000000000u), by_visits(B, 65535)});
  add(t, 3, 0, 0, 0.0f, {by_visits(A, 9)});
  add(t, 2, 0, 0, 0.0f, {by_visits(B, 65535), by_visits(C, 2)});
  shard::Row row;
  t.emit(0, visit_rule(), row);  // one record: 70000 + 1 + 65535 + 65534 = 201070
  EXPECT_EQ(row.mv, (std::vector<uint16_t>{A, B, C, D}));
  EXPECT_FLOAT_EQ(row.prob[0], 70000.0f / 201070);
  EXPECT_FLOAT_EQ(row.prob[1], 1.0f / 201070);
  EXPECT_FLOAT_EQ(row.prob[2], 65535.0f / 201070);
  EXPECT_FLOAT_EQ(row.prob[3], 65534.0f / 201070);
  t.emit(1, visit_rule(), row);  // merged: A 4e9, B 65535 * 2, C 2; 4000131072 in all
  EXPECT_EQ(row.mv, (std::vector<uint16_t>{A, B, C}));
  EXPECT_FLOAT_EQ(row.prob[0], static_cast<float>(4e9 / 4000131072.0));
  EXPECT_FLOAT_EQ(row.prob[1], static_cast<float>(131070.0 / 4000131072.0));
  EXPECT_FLOAT_EQ(row.prob[2], static_cast<float>(2.0 / 4000131072.0));
  t.emit(2, visit_rule(), row);
  EXPECT_EQ(row.prob, (std::vector<float>{1.0f}));
}

TEST(FoldTable, ManyBoardsGrowTheIndex) {
  FoldTable t(stream::PolicySource::Visits);
  for (uint32_t i = 0; i < 50000; ++i) add(t, i, 0, 0, 0.0f, {by_visits(A, 1)});
  for (uint32_t i = 0; i < 50000; i += 7) add(t, i, 0, 0, 0.0f, {by_visits(B, 1)});
  EXPECT_EQ(t.groups(), 50000u);
  shard::Row row;
  t.emit(7, visit_rule(), row);
  EXPECT_EQ(row.mv, (std::vector<uint16_t>{A, B}));
  EXPECT_EQ(row.packed, board(7));
  t.emit(8, visit_rule(), row);
  EXPECT_EQ(row.weight, 1u);
}

}  // namespace
}  // namespace manaka::fold
