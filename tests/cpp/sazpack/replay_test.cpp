// Replaying games: the columnar decode and the conversion into MPK1.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>

#include "fixture.h"
#include "sazpack/codec.h"
#include "sazpack/columns.h"
#include "sazpack/to_mpk.h"
#include "shogi/pack.h"
#include "stream/reader.h"

namespace manaka::sazpack {
namespace {

std::vector<uint8_t> chunk_of(const std::vector<SazGame>& games) { return *serialize_chunk(games); }

TEST(SazpackColumns, RowsFollowTheGame) {
  std::mt19937 rng(5);
  std::vector<SazGame> games = {testing::random_game(rng, 30), testing::random_game(rng, 1),
                                testing::random_game(rng, 77)};
  games[0].game_result = GameResult::WhiteWinByDeclaration;
  games[2].game_result = GameResult::Paused;
  auto cols = decode_columns(chunk_of(games));
  ASSERT_TRUE(cols.ok()) << cols.status().message();
  ASSERT_EQ(cols->games(), 3u);
  ASSERT_EQ(cols->positions(), 108u);
  EXPECT_EQ(cols->game_offsets, (UninitVector<int64_t>{0, 30, 31, 108}));
  // Replay independently and compare every row.
  size_t row = 0, entry = 0;
  for (size_t g = 0; g < games.size(); ++g) {
    shogi::Position pos = shogi::Position::startpos();
    std::vector<shogi::StateInfo> states(games[g].positions.size());
    for (size_t i = 0; i < games[g].positions.size(); ++i, ++row) {
      const SazPosition& p = games[g].positions[i];
      shogi::Packed packed = shogi::pack(pos);
      ASSERT_TRUE(std::equal(packed.begin(), packed.end(), cols->packed.begin() + row * 96)) << row;
      EXPECT_EQ(cols->game[row], g);
      EXPECT_EQ(cols->ply[row], i);
      EXPECT_EQ(cols->root_wdl[row * 3 + 2], p.root_wdl.loss);
      EXPECT_EQ(cols->has_mate[row], p.mate.has_value());
      EXPECT_FLOAT_EQ(cols->value_q[row], (float(p.root_wdl.win) - float(p.root_wdl.loss)) / 65535.0f);
      if (g == 0) {
        EXPECT_EQ(cols->value_z[row], pos.side_to_move() == shogi::WHITE ? 1.0f : -1.0f);
      }
      if (g == 2) {
        EXPECT_TRUE(std::isnan(cols->value_z[row]));
      }
      ASSERT_EQ(cols->policy_offsets[row], int64_t(entry));
      for (const SazPolicyEntry& e : p.policy) {
        EXPECT_EQ(cols->mv[entry], e.mv.to_mpk()->raw);
        EXPECT_EQ(cols->visits[entry], e.visits);
        ++entry;
      }
      if (i + 1 < games[g].positions.size()) {
        EXPECT_EQ(cols->played[row], p.played.to_mpk()->raw);
        pos.do_move(*p.played.to_mpk(), states[i]);
      } else {
        EXPECT_EQ(cols->played[row], 0);  // "resign"
        EXPECT_EQ(cols->played_move16[row], Move16::kResign);
      }
    }
  }
  EXPECT_EQ(cols->policy_offsets.back(), int64_t(entry));
}

TEST(SazpackColumns, IllegalMovesAreRefusedNamingThePosition) {
  std::mt19937 rng(9);
  std::vector<SazGame> games = {testing::random_game(rng, 5), testing::random_game(rng, 5)};
  games[1].positions[2].played = testing::usi("5e5d");
  auto cols = decode_columns(chunk_of(games));
  ASSERT_FALSE(cols.ok());
  EXPECT_EQ(cols.status().message().substr(0, 87),
            "game 1 (byte 589), position 2: played move 5e5d (move16 0x1427) is not a legal move in ");
  games[1] = testing::random_game(rng, 5);
  games[1].positions[3].policy[0].mv = Move16{Move16::kWin};
  cols = decode_columns(chunk_of(games));
  ASSERT_FALSE(cols.ok());
  EXPECT_EQ(cols.status().message().substr(0, 95),
            "game 1 (byte 589), position 3, policy entry 0: move win (move16 0x0183) is not a legal move in ");
  // A stem that is no position.
  games[1] = testing::random_game(rng, 5);
  games[1].stem.fill(0);
  cols = decode_columns(chunk_of(games));
  EXPECT_EQ(cols.status().message(), "game 1 (byte 589), stem: packed sfen bit 8: both kings on square 0");
}

// Columns written by several threads, each into its own rows, equal the
// single-threaded ones element for element (and run clean under TSan).
TEST(SazpackColumns, ThreadsWriteTheSameColumns) {
  std::mt19937 rng(13);
  std::vector<SazGame> games;
  for (int i = 0; i < 24; ++i) games.push_back(testing::random_game(rng, 1 + int(rng() % 60)));
  const auto chunk = chunk_of(games);
  auto one = decode_columns(chunk, ColumnOptions{true, 1});
  ASSERT_TRUE(one.ok()) << one.status().message();
  for (int threads : {2, 3, 24, 100}) {
    auto many = decode_columns(chunk, ColumnOptions{true, threads});
    ASSERT_TRUE(many.ok()) << many.status().message();
    EXPECT_EQ(many->packed, one->packed) << threads;
    EXPECT_EQ(many->game_offsets, one->game_offsets) << threads;
    EXPECT_EQ(many->policy_offsets, one->policy_offsets) << threads;
    EXPECT_EQ(many->mv, one->mv) << threads;
    EXPECT_EQ(many->visits, one->visits) << threads;
    EXPECT_EQ(many->root_wdl, one->root_wdl) << threads;
    EXPECT_EQ(many->stem, one->stem) << threads;
    EXPECT_EQ(many->game, one->game) << threads;
    EXPECT_EQ(many->ply, one->ply) << threads;
  }
  // Two refused games: the lower is named whatever the thread count.
  games[7].positions[0].policy[0].mv = Move16{Move16::kWin};
  games[19].positions[0].policy[0].mv = Move16{Move16::kWin};
  const auto bad = chunk_of(games);
  const std::string want = decode_columns(bad, ColumnOptions{true, 1}).status().message();
  EXPECT_EQ(want.rfind("game 7 (byte ", 0), 0u) << want;
  for (int threads : {2, 5, 24})
    EXPECT_EQ(decode_columns(bad, ColumnOptions{true, threads}).status().message(), want) << threads;
}

TEST(SazpackToMpk, WritesOneRecordPerPositionAndCountsRefusals) {
  std::mt19937 rng(21);
  std::vector<SazGame> games;
  for (int i = 0; i < 12; ++i) games.push_back(testing::random_game(rng, 20 + i));
  games[3].game_result = GameResult::Error;
  games[4].game_result = GameResult::Paused;
  games[5].game_result = GameResult::DrawByAdjudication;
  for (auto& e : games[6].positions[4].policy) e.visits = 0;
  const std::string path = ::testing::TempDir() + "saz_to_mpk_" + std::to_string(::getpid()) + ".mpk";
  auto writer = stream::SelfPlayWriter::create(path);
  ASSERT_TRUE(writer.ok());
  MpkConversion stats;
  ASSERT_TRUE(chunk_to_mpk(chunk_of(games), *writer, stats).ok());
  ASSERT_TRUE(writer->close().ok());
  EXPECT_EQ(stats.games, 12u);
  EXPECT_EQ(stats.games_written, 10u);
  EXPECT_EQ(stats.games_refused(), 2u);
  EXPECT_EQ(stats.refused_by_result[uint8_t(GameResult::Error)], 1u);
  EXPECT_EQ(stats.refused_by_result[uint8_t(GameResult::Paused)], 1u);
  uint64_t want = 0;
  for (size_t g = 0; g < games.size(); ++g) {
    if (g == 3 || g == 4) continue;
    for (const auto& p : games[g].positions) {
      bool visited = false;
      for (const auto& e : p.policy) visited |= e.visits != 0;
      want += visited;
    }
  }
  EXPECT_EQ(stats.records, want);
  EXPECT_GE(stats.positions_without_visits, 1u);

  auto reader = stream::Reader::open(path);
  ASSERT_TRUE(reader.ok());
  stream::RecordView rec;
  uint64_t n = 0;
  // Game 0, position 0: startpos, Black to move.
  const SazPosition& first = games[0].positions[0];
  while (*reader->next(rec)) {
    if (n == 0) {
      EXPECT_EQ(rec.ply, 0);
      EXPECT_FLOAT_EQ(rec.value_q, (float(first.root_wdl.win) - float(first.root_wdl.loss)) / 65535.0f);
      const float z = games[0].game_result == GameResult::BlackWin   ? 1.0f
                      : games[0].game_result == GameResult::WhiteWin ? -1.0f
                                                                     : 0.0f;
      EXPECT_EQ(rec.value_z, z);
      auto startpos = shogi::pack(shogi::Position::startpos());
      EXPECT_TRUE(std::equal(startpos.begin(), startpos.end(), rec.packed.begin()));
      size_t visited = 0;
      for (const auto& e : first.policy) visited += e.visits != 0;
      EXPECT_EQ(rec.candidates.size(), visited);
    }
    ++n;
  }
  EXPECT_EQ(n, want);
  ::unlink(path.c_str());
}

}  // namespace
}  // namespace manaka::sazpack
