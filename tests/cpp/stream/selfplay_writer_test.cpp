#include "stream/selfplay_writer.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "stream/header.h"
#include "stream/quantize.h"
#include "stream/reader.h"

namespace manaka::stream {
namespace {

namespace fs = std::filesystem;

class SelfPlayTest : public ::testing::Test {
 protected:
  void SetUp() override { path_ = ::testing::TempDir() + "/mpk_sp_" + std::to_string(::getpid()); }
  void TearDown() override { fs::remove(path_); }

  // A 96-byte position whose side to move is side: the two kings on 5a and
  // 5i, and tag pawns (at most 18) in Black's hand to mark it apart.
  static std::vector<uint8_t> position(uint8_t side, uint8_t tag) {
    std::vector<uint8_t> p(96, 0);
    std::fill(p.begin(), p.begin() + 81, 0xFF);
    p[36] = 0x10;  // 5a: White's king
    p[44] = 0x00;  // 5i: Black's king
    p[81] = tag;
    p[95] = side;
    return p;
  }

  std::vector<Record> read_all() {
    std::vector<Record> out;
    auto r = Reader::open(path_);
    EXPECT_TRUE(r.ok()) << r.status().message();
    if (!r.ok()) return out;
    EXPECT_EQ(r->header(), selfplay_header());
    RecordView v;
    while (true) {
      auto more = r->next(v);
      EXPECT_TRUE(more.ok()) << more.status().message();
      if (!more.ok() || !*more) break;
      out.push_back({v.ply, v.value_z, v.value_q, {v.packed.begin(), v.packed.end()},
                     {v.candidates.begin(), v.candidates.end()}});
    }
    return out;
  }

  std::string path_;
  const std::vector<VisitedMove> moves_ = {{0x0A33, 500}, {0x2851, 0}, {0x1E33, 300}};
};

TEST_F(SelfPlayTest, ValueZFollowsEachRecordsSideToMove) {
  {
    auto w = SelfPlayWriter::create(path_);
    ASSERT_TRUE(w.ok()) << w.status().message();
    // Game 0: Black wins; positions alternate Black, White, Black, and a
    // second White one (plies need not be consecutive).
    ASSERT_TRUE(w->begin_game().ok());
    ASSERT_TRUE(w->add_position(position(0, 1), 0, 0.1f, moves_).ok());
    ASSERT_TRUE(w->add_position(position(1, 2), 1, -0.2f, moves_).ok());
    ASSERT_TRUE(w->add_position(position(0, 3), 2, 0.3f, moves_).ok());
    ASSERT_TRUE(w->add_position(position(1, 4), 9, -0.4f, moves_).ok());
    ASSERT_TRUE(w->end_game(GameResult::BlackWin).ok());
    // Game 1: White wins.
    ASSERT_TRUE(w->begin_game().ok());
    ASSERT_TRUE(w->add_position(position(1, 5), 0, 0.5f, moves_).ok());
    ASSERT_TRUE(w->add_position(position(0, 6), 1, 0.6f, moves_).ok());
    ASSERT_TRUE(w->end_game(GameResult::WhiteWin).ok());
    // Game 2: a draw.
    ASSERT_TRUE(w->begin_game().ok());
    ASSERT_TRUE(w->add_position(position(0, 7), 0, 0.0f, moves_).ok());
    ASSERT_TRUE(w->add_position(position(1, 8), 1, 0.0f, moves_).ok());
    ASSERT_TRUE(w->end_game(GameResult::Draw).ok());
    EXPECT_EQ(w->games_written(), 3u);
    ASSERT_TRUE(w->close().ok());
  }
  std::vector<Record> recs = read_all();
  ASSERT_EQ(recs.size(), 8u);
  const float want_z[] = {1, -1, 1, -1, 1, -1, 0, 0};
  const uint16_t want_ply[] = {0, 1, 2, 9, 0, 1, 0, 1};
  for (size_t i = 0; i < recs.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(recs[i].value_z, want_z[i]);
    EXPECT_EQ(recs[i].ply, want_ply[i]);
    EXPECT_EQ(recs[i].packed[81], i + 1);
    // Zero-visit moves are not stored; every candidate has NO_CP.
    ASSERT_EQ(recs[i].candidates.size(), 2u);
    EXPECT_EQ(recs[i].candidates[0], (Candidate{0x0A33, 500, kNoCp}));
    EXPECT_EQ(recs[i].candidates[1], (Candidate{0x1E33, 300, kNoCp}));
  }
  EXPECT_EQ(recs[1].value_q, -0.2f);
}

TEST_F(SelfPlayTest, AGameNeverEndedWritesNothing) {
  {
    auto w = SelfPlayWriter::create(path_);
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE(w->begin_game().ok());
    ASSERT_TRUE(w->add_position(position(0, 1), 0, 0.0f, moves_).ok());
    ASSERT_TRUE(w->end_game(GameResult::Draw).ok());
    ASSERT_TRUE(w->begin_game().ok());
    ASSERT_TRUE(w->add_position(position(1, 2), 1, 0.0f, moves_).ok());
    // destroyed with the game open
  }
  EXPECT_EQ(read_all().size(), 1u);
  {
    auto w = SelfPlayWriter::create(path_);
    ASSERT_TRUE(w->begin_game().ok());
    ASSERT_TRUE(w->add_position(position(1, 2), 1, 0.0f, moves_).ok());
    ASSERT_TRUE(w->close().ok());  // close() discards it too
  }
  EXPECT_EQ(read_all().size(), 0u);
  EXPECT_EQ(fs::file_size(path_), kHeaderSize);
}

TEST_F(SelfPlayTest, DiscardGameDropsTheOpenGame) {
  auto w = SelfPlayWriter::create(path_);
  ASSERT_TRUE(w->begin_game().ok());
  ASSERT_TRUE(w->add_position(position(0, 1), 0, 0.0f, moves_).ok());
  w->discard_game();
  ASSERT_TRUE(w->begin_game().ok());
  ASSERT_TRUE(w->add_position(position(1, 2), 3, 0.0f, moves_).ok());
  ASSERT_TRUE(w->end_game(GameResult::BlackWin).ok());
  ASSERT_TRUE(w->close().ok());
  auto recs = read_all();
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0].ply, 3);
  EXPECT_EQ(recs[0].value_z, -1.0f);
}

TEST_F(SelfPlayTest, MisuseIsRefused) {
  auto w = SelfPlayWriter::create(path_);
  ASSERT_TRUE(w.ok());
  Status st = w->add_position(position(0, 1), 0, 0.0f, moves_);
  EXPECT_EQ(st.message(), path_ + ": game 0, position 0: add_position outside a game; call begin_game() first");
  EXPECT_EQ(w->end_game(GameResult::Draw).message(),
            path_ + ": end_game outside a game; call begin_game() first");
  ASSERT_TRUE(w->begin_game().ok());
  ASSERT_TRUE(w->add_position(position(0, 1), 0, 0.0f, moves_).ok());
  st = w->begin_game();
  EXPECT_EQ(st.kind(), ErrorKind::Invalid);
  EXPECT_EQ(st.message(), path_ +
                              ": begin_game: a game of 1 positions is still open; end_game() or "
                              "discard_game() it first");
  EXPECT_TRUE(w->in_game());  // the open game is kept

  std::vector<uint8_t> short_pos(95, 0);
  EXPECT_EQ(w->add_position(short_pos, 1, 0.0f, moves_).message(),
            path_ + ": game 0, position 1: packed is 95 bytes, must be 96");
  EXPECT_EQ(w->add_position(position(2, 0), 1, 0.0f, moves_).message(),
            path_ + ": game 0, position 1: side to move (byte 95) is 2, must be 0 (Black) or 1 (White)");
  EXPECT_EQ(w->add_position(position(1, 0), 1, 1.5f, moves_).message(),
            path_ + ": game 0, position 1: value_q is 1.5, must be finite and within [-1, 1]");
  std::vector<VisitedMove> none = {{0x0A33, 0}};
  EXPECT_EQ(w->add_position(position(1, 0), 1, 0.0f, none).message(),
            path_ + ": game 0, position 1: no candidates (n_cand is 0)");
  std::vector<VisitedMove> bad_move = {{0x8A33, 4}};
  EXPECT_EQ(w->add_position(position(1, 0), 1, 0.0f, bad_move).message(),
            path_ + ": game 0, position 1: candidate 0: mv 0x8A33 has bit 15 set");
  std::vector<VisitedMove> twice = {{0x0A33, 4}, {0x1E33, 2}, {0x0A33, 1}};
  EXPECT_EQ(w->add_position(position(1, 0), 1, 0.0f, twice).message(),
            path_ + ": game 0, position 1: mv 0x0A33 is listed twice (candidates 0 and 2); a record lists each "
                    "move at most once");
  std::vector<uint8_t> unknown = position(1, 0);
  unknown[37] = 0x37;
  EXPECT_EQ(w->add_position(unknown, 1, 0.0f, moves_).message(),
            path_ + ": game 0, position 1: packed byte 37: unknown board byte 0x37");
  std::vector<uint8_t> kingless = position(1, 0);
  kingless[44] = 0xFF;
  EXPECT_EQ(w->add_position(kingless, 1, 0.0f, moves_).message(),
            path_ + ": game 0, position 1: packed position: Black has no king");
  EXPECT_EQ(w->positions_in_game(), 1u);  // refused positions are not kept
  ASSERT_TRUE(w->end_game(GameResult::WhiteWin).ok());
  ASSERT_TRUE(w->close().ok());
  auto recs = read_all();
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0].value_z, -1.0f);
}

TEST_F(SelfPlayTest, QuantizedPolicyGoesInAsVisits) {
  std::vector<uint16_t> mvs = {0x0A33, 0x1E33, 0x2851};
  std::vector<float> probs = {0.75f, 0.25f, 1e-6f};  // the last rounds to 0 and is dropped
  std::vector<VisitedMove> visits;
  ASSERT_TRUE(quantize_policy(mvs, probs, visits).ok());
  auto w = SelfPlayWriter::create(path_);
  ASSERT_TRUE(w->begin_game().ok());
  ASSERT_TRUE(w->add_position(position(0, 1), 0, 0.0f, visits).ok());
  ASSERT_TRUE(w->end_game(GameResult::Draw).ok());
  ASSERT_TRUE(w->close().ok());
  auto recs = read_all();
  ASSERT_EQ(recs.size(), 1u);
  ASSERT_EQ(recs[0].candidates.size(), 2u);
  EXPECT_EQ(recs[0].candidates[0].visits, 49152u);
  EXPECT_EQ(recs[0].candidates[1].visits, 16384u);
}

}  // namespace
}  // namespace manaka::stream
