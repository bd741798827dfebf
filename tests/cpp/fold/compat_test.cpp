// Streams that must not fold together are refused by pack(), the message
// naming both files, the field and both values (fold/compat.h).
#include "fold/compat.h"

#include <gtest/gtest.h>

#include <functional>

#include "fold/pack.h"
#include "mpk_fixture.h"

namespace manaka::fold {
namespace {

using testing::by_cp;
using testing::mv;
using testing::TestRecord;

struct Case {
  const char* field;
  std::function<void(stream::Header&)> change;
  const char* first_value;
  const char* second_value;
};

class Incompatible : public ::testing::TestWithParam<Case> {};

TEST_P(Incompatible, RefusedNamingFilesFieldAndValues) {
  const Case& c = GetParam();
  auto dir = testing::scratch_dir();
  const std::string a = (dir / "first.mpk").string(), b = (dir / "second.mpk").string();
  stream::Header ha = testing::teacher_header(), hb = ha;
  c.change(hb);
  std::vector<TestRecord> recs{{1, 0, 0.0f, 0.0f, {by_cp(mv(1, 2), 10)}}};
  testing::write_stream(a, ha, recs);
  if (hb.policy_source == stream::PolicySource::Visits) {
    recs[0].cands = {testing::by_visits(mv(1, 2), 3)};
  }
  testing::write_stream(b, hb, recs);
  PackOptions opts;
  opts.prefix = (dir / "out").string();
  opts.progress = false;
  auto res = pack({a, b}, opts);
  ASSERT_FALSE(res.ok());
  const std::string& msg = res.status().message();
  EXPECT_NE(msg.find(a), std::string::npos) << msg;
  EXPECT_NE(msg.find(b), std::string::npos) << msg;
  EXPECT_NE(msg.find(std::string(c.field) + " differs"), std::string::npos) << msg;
  EXPECT_NE(msg.find(a + " has " + c.first_value), std::string::npos) << msg;
  EXPECT_NE(msg.find(b + " has " + c.second_value), std::string::npos) << msg;
  EXPECT_FALSE(testing::fs::exists(dir / "out-00000.parquet"));
}

INSTANTIATE_TEST_SUITE_P(
    EachField, Incompatible,
    ::testing::Values(
        Case{"policy_source", [](stream::Header& h) { h.policy_source = stream::PolicySource::Visits; },
             "1 (cp)", "0 (visits)"},
        Case{"pov", [](stream::Header& h) { h.pov = stream::Pov::Black; }, "0 (side to move)",
             "1 (Black)"},
        Case{"mate_scale", [](stream::Header& h) { h.mate_scale = 30000; }, "32000", "30000"},
        Case{"mate_slack", [](stream::Header& h) { h.mate_slack = 0; }, "100",
             "0 (320 effective)"},
        Case{"fv_scale", [](stream::Header& h) { h.fv_scale = 20; }, "16", "20"},
        Case{"eval_coef", [](stream::Header& h) { h.eval_coef = 756.0865f; }, "600", "756.0865"},
        Case{"packed_len", [](stream::Header& h) { h.packed_len = 95; }, "96", "95"}),
    [](const ::testing::TestParamInfo<Case>& info) { return std::string(info.param.field); });

TEST(Compat, SlackZeroAgreesWithTheDefault) {
  stream::Header a = testing::teacher_header(), b = a;
  a.mate_slack = 0;
  b.mate_slack = 320;
  EXPECT_TRUE(check_foldable("a", a, "b", b).ok());
}

TEST(Compat, SelfPlayGenerationsFold) {
  // Two self-play runs: same header, different networks; they fold, and a
  // board both reached becomes one row.
  auto dir = testing::scratch_dir();
  const std::string a = (dir / "gen1.mpk").string(), b = (dir / "gen2.mpk").string();
  testing::write_stream(a, testing::selfplay_header(),
                        {{1, 0, 1.0f, 0.5f, {testing::by_visits(mv(1, 2), 700)}}});
  testing::write_stream(b, testing::selfplay_header(),
                        {{1, 2, -1.0f, -0.5f, {testing::by_visits(mv(1, 2), 100)}},
                         {2, 2, -1.0f, -0.5f, {testing::by_visits(mv(1, 3), 100)}}});
  PackOptions opts;
  opts.prefix = (dir / "out").string();
  opts.progress = false;
  auto res = pack({a, b}, opts);
  ASSERT_TRUE(res.ok()) << res.status().message();
  EXPECT_EQ(res->records_in, 3u);
  EXPECT_EQ(res->rows_out, 2u);
  EXPECT_EQ(res->folded_rows, 1u);
}

TEST(Compat, SameStreamTwiceIsRefused) {
  auto dir = testing::scratch_dir();
  const std::string a = (dir / "a.mpk").string();
  testing::write_stream(a, testing::selfplay_header(),
                        {{1, 0, 1.0f, 0.5f, {testing::by_visits(mv(1, 2), 7)}}});
  PackOptions opts;
  opts.prefix = (dir / "out").string();
  opts.progress = false;
  auto res = pack({a, (dir / "." / "a.mpk").string()}, opts);
  ASSERT_FALSE(res.ok());
  EXPECT_NE(res.status().message().find("given twice"), std::string::npos);
}

}  // namespace
}  // namespace manaka::fold
