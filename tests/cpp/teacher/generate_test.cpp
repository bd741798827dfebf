// The generator: a few plies against the real fairy-stockfish converted to
// MPK1; the scripted fake engine crashing, stalling and playing an illegal
// move.
#include "teacher/generate.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "../engine/engine_fixture.h"
#include "teacher/corpus_parquet_reader.h"
#include "shogi/move.h"
#include "shogi/pack.h"
#include "shogi/position.h"
#include "stream/reader.h"
#include "teacher/convert.h"

namespace manaka::teacher {

namespace {

using manaka::testing::fake_engine;
using manaka::testing::Scratch;

// Every row of a corpus file.
std::vector<teacher::CorpusRow> read_corpus(const std::string& path) {
  std::vector<teacher::CorpusRow> rows;
  auto reader = teacher::CorpusParquetReader::open(path, {});
  EXPECT_TRUE(reader.ok()) << reader.status().message();
  if (!reader.ok()) return rows;
  teacher::CorpusBatch b;
  while (true) {
    auto more = (*reader)->next(b);
    EXPECT_TRUE(more.ok());
    if (!more.ok() || !*more) break;
    for (size_t r = 0; r < b.rows; ++r) {
      teacher::CorpusRow row;
      row.sfen = std::string(b.sfen[r]);
      row.ply = int32_t(b.ply[r]);
      row.side = int8_t(b.side[r]);
      row.cp = int32_t(b.cp[r]);
      for (uint32_t i = b.moves_at[r]; i < b.moves_at[r + 1]; ++i) row.cand_moves.emplace_back(b.cand_moves[i]);
      for (uint32_t i = b.cps_at[r]; i < b.cps_at[r + 1]; ++i) row.cand_cp.push_back(int32_t(b.cand_cp[i]));
      row.move = std::string(b.move[r]);
      row.result = int8_t(b.result[r]);
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

GenerateOptions fake_run(const std::string& output, std::vector<std::string> args, int games, int max_plies) {
  GenerateOptions o;
  o.engine = fake_engine(std::move(args));
  o.limit.depth = 1;
  o.output = output;
  o.games = games;
  o.max_plies = max_plies;
  o.workers = 1;  // the fakes' crash and stall markers count one engine's goes
  return o;
}

// fairy-stockfish at depth 1 (multipv 3): short games, the same for a seed.
GenerateOptions fairy_run(const std::string& output, int games, uint64_t seed, int opening_plies, int max_plies) {
  GenerateOptions o;
  o.engine.path = manaka::testing::kFairyStockfish;
  o.engine.multipv = 3;
  o.limit.depth = 1;
  o.output = output;
  o.games = games;
  o.seed = seed;
  o.opening_plies = opening_plies;
  o.max_plies = max_plies;
  return o;
}

TEST(Generate, FairyStockfishPlaysAFewPliesAndTheyConvert) {
  ASSERT_TRUE(manaka::testing::have_fairy_stockfish()) << "fairy-stockfish is not installed (make setup installs it)";
  Scratch dir;
  GenerateOptions o;
  o.engine.path = manaka::testing::kFairyStockfish;
  o.engine.multipv = 5;
  o.limit.depth = 1;
  o.output = dir.path("corpus.parquet");
  o.games = 2;
  o.workers = 2;
  o.seed = 7;
  o.opening_plies = 2;
  o.max_plies = 10;
  auto s = generate(o);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->games_completed + s->games_illegal, 2u);
  EXPECT_EQ(s->games_lost, 0u);
  EXPECT_GT(s->engine_seconds, 0.0);
  EXPECT_FALSE(std::filesystem::exists(o.output + ".partial"));

  auto rows = read_corpus(o.output);
  ASSERT_EQ(rows.size(), s->positions);
  ASSERT_EQ(rows.size(), 8u * s->games_completed) << "plies 2..9 of each game are searched";
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    EXPECT_EQ(r.ply, int32_t(2 + i % 8));
    EXPECT_EQ(r.side, r.ply % 2) << "every game starts from the initial position";
    EXPECT_EQ(r.result, 0) << "the ply limit is a draw";
    ASSERT_FALSE(r.cand_moves.empty());
    EXPECT_LE(r.cand_moves.size(), 5u);
    EXPECT_EQ(r.cand_moves.size(), r.cand_cp.size());
    EXPECT_EQ(r.cp, r.cand_cp[0]) << "the root score is multipv 1's";
    EXPECT_NE(std::find(r.cand_moves.begin(), r.cand_moves.end(), r.move), r.cand_moves.end());
    auto pos = shogi::Position::from_sfen(r.sfen);
    ASSERT_TRUE(pos.ok());
    for (const auto& m : r.cand_moves) EXPECT_TRUE(pos->is_legal(shogi::Move::parse_usi(m).value())) << m;
    // The next row of the same game is this position after the played move.
    if (i % 8 != 7) {
      shogi::StateInfo st;
      pos->do_move(shogi::Move::parse_usi(r.move).value(), st);
      EXPECT_EQ(pos->sfen(), rows[i + 1].sfen);
    }
  }

  ConvertOptions c;
  c.inputs = {o.output};
  c.output = dir.path("teacher.mpk");
  c.eval_coef = 600;
  c.mate_scale = 32000;
  auto conv = convert(c);
  ASSERT_TRUE(conv.ok()) << conv.status().message();
  EXPECT_EQ(conv->records_written, rows.size());
  EXPECT_EQ(conv->refused_total(), 0u);
  auto reader = stream::Reader::open(c.output);
  ASSERT_TRUE(reader.ok());
  stream::RecordView v;
  size_t n = 0;
  while (true) {
    auto more = reader->next(v);
    ASSERT_TRUE(more.ok()) << more.status().message();
    if (!*more) break;
    const auto& r = rows[n++];
    EXPECT_EQ(v.ply, r.ply);
    EXPECT_EQ(v.value_z, 0.0f);
    ASSERT_EQ(v.candidates.size(), r.cand_moves.size());
    for (size_t k = 0; k < v.candidates.size(); ++k) {
      EXPECT_EQ(shogi::Move{v.candidates[k].mv}.to_usi(), r.cand_moves[k]);
      EXPECT_EQ(v.candidates[k].cp, r.cand_cp[k]);
      EXPECT_EQ(v.candidates[k].visits, stream::kNoVisits);
    }
    auto pos = shogi::unpack(v.packed);
    ASSERT_TRUE(pos.ok());
    EXPECT_EQ(pos->side_to_move(), r.side == 0 ? shogi::BLACK : shogi::WHITE);
  }
  EXPECT_EQ(n, rows.size());
}

TEST(Generate, ACrashingEngineIsRestartedAndTheLossCounted) {
  Scratch dir;
  // The fake exits mid-search at its third go, once (the marker remembers).
  auto o = fake_run(dir.path("corpus.parquet"), {"crash", "3", dir.path("crashed")}, 3, 6);
  auto s = generate(o);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->games_lost, 1u);
  EXPECT_EQ(s->games_completed, 2u);
  EXPECT_EQ(s->restarts, 1u);
  EXPECT_EQ(s->positions, 12u);
  EXPECT_EQ(s->endings[size_t(GameEnd::PlyLimit)], 2u);
  ASSERT_EQ(s->engine_failures.size(), 1u);
  EXPECT_NE(s->engine_failures[0].find("game 0: engine " + manaka::testing::fake_engine_path()), std::string::npos)
      << s->engine_failures[0];
  EXPECT_NE(s->engine_failures[0].find("exited with status 3"), std::string::npos) << s->engine_failures[0];
  auto rows = read_corpus(o.output);
  ASSERT_EQ(rows.size(), 12u);
  EXPECT_EQ(rows[0].move, "7g7f");
  EXPECT_EQ(rows[5].move, "8d8e");
}

TEST(Generate, AStalledEngineIsRestartedAndTheLossCounted) {
  Scratch dir;
  auto o = fake_run(dir.path("corpus.parquet"), {"stall", "2", dir.path("stalled")}, 2, 4);
  o.engine.search_timeout_ms = 300;
  auto s = generate(o);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->games_lost, 1u);
  EXPECT_EQ(s->games_completed, 1u);
  EXPECT_EQ(s->restarts, 1u);
  ASSERT_EQ(s->engine_failures.size(), 1u);
  EXPECT_NE(s->engine_failures[0].find("no bestmove within 300 ms (stalled)"), std::string::npos);
  EXPECT_EQ(read_corpus(o.output).size(), 4u);
}

TEST(Generate, AnIllegalEngineMoveEndsTheGameAsAnError) {
  Scratch dir;
  auto o = fake_run(dir.path("corpus.parquet"), {"illegal", "3"}, 2, 8);
  auto s = generate(o);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->games_illegal, 2u);
  EXPECT_EQ(s->games_completed, 0u);
  EXPECT_EQ(s->restarts, 0u) << "the engine itself is fine";
  ASSERT_FALSE(s->illegal_moves.empty());
  EXPECT_NE(s->illegal_moves[0].find("\"5e5d\" is illegal in sfen"), std::string::npos) << s->illegal_moves[0];
  EXPECT_TRUE(read_corpus(o.output).empty());
}

TEST(Generate, AnEngineThatAlwaysCrashesStopsTheRunKeepingTheCompletedGames) {
  Scratch dir;
  auto o = fake_run(dir.path("corpus.parquet"), {"crash-after", "4", dir.path("gos")}, 5, 4);
  o.max_consecutive_failures = 2;
  auto s = generate(o);
  // Game 0 completes (4 searches); then every go crashes: games 1 and 2 are
  // lost, and the only worker stops.
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().kind(), ErrorKind::Engine);
  EXPECT_NE(s.status().message().find("the 1 completed games are in " + o.output + ".partial"), std::string::npos)
      << s.status().message();
  EXPECT_FALSE(std::filesystem::exists(o.output));
  ConvertOptions c;
  c.inputs = {o.output + ".partial"};
  c.output = dir.path("partial.mpk");
  c.eval_coef = 600;
  c.mate_scale = 32000;
  auto conv = convert(c);
  ASSERT_TRUE(conv.ok()) << conv.status().message();
  EXPECT_EQ(conv->records_written, 4u);
}

TEST(Generate, TheSameSeedPlaysTheSameGames) {
  Scratch dir;
  ASSERT_TRUE(manaka::testing::have_fairy_stockfish()) << "fairy-stockfish is not installed (make setup installs it)";
  GenerateOptions o = fairy_run(dir.path("a.parquet"), 2, 11, 4, 14);
  ASSERT_TRUE(generate(o).ok());
  o.output = dir.path("b.parquet");
  ASSERT_TRUE(generate(o).ok());
  auto a = read_corpus(dir.path("a.parquet")), b = read_corpus(dir.path("b.parquet"));
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].sfen, b[i].sfen);
    EXPECT_EQ(a[i].move, b[i].move);
    EXPECT_EQ(a[i].cand_moves, b[i].cand_moves);
  }
  o.seed = 12;
  o.output = dir.path("c.parquet");
  ASSERT_TRUE(generate(o).ok());
  auto c = read_corpus(dir.path("c.parquet"));
  EXPECT_NE(a[0].sfen, c[0].sfen) << "another seed, another opening";
}

// The Ray jobs split a run by game index: games [0, 5) in one run must be
// the rows of runs over [0, 2) and [2, 5), concatenated, with a depth limit.
TEST(Generate, RunsOverAPartitionOfTheGamesHoldTheRunsRows) {
  Scratch dir;
  ASSERT_TRUE(manaka::testing::have_fairy_stockfish()) << "fairy-stockfish is not installed (make setup installs it)";
  GenerateOptions o = fairy_run(dir.path("whole.parquet"), 5, 5, 4, 12);
  o.workers = 2;
  auto whole = generate(o);
  ASSERT_TRUE(whole.ok()) << whole.status().message();
  o.workers = 1;
  o.games = 2;
  o.output = dir.path("a.parquet");
  ASSERT_TRUE(generate(o).ok());
  o.first_game = 2;
  o.games = 3;
  o.output = dir.path("b.parquet");
  auto b_summary = generate(o);
  ASSERT_TRUE(b_summary.ok()) << b_summary.status().message();
  EXPECT_EQ(b_summary->games_requested, 3);
  EXPECT_EQ(b_summary->games_completed + b_summary->games_illegal, 3u);

  auto rows = read_corpus(dir.path("a.parquet"));
  auto b = read_corpus(dir.path("b.parquet"));
  rows.insert(rows.end(), b.begin(), b.end());
  auto want = read_corpus(dir.path("whole.parquet"));
  ASSERT_EQ(rows.size(), want.size());
  ASSERT_GT(b.size(), 0u);
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i].sfen, want[i].sfen) << "row " << i;
    EXPECT_EQ(rows[i].move, want[i].move) << "row " << i;
    EXPECT_EQ(rows[i].cand_moves, want[i].cand_moves) << "row " << i;
    EXPECT_EQ(rows[i].cand_cp, want[i].cand_cp) << "row " << i;
    EXPECT_EQ(rows[i].result, want[i].result) << "row " << i;
  }
  // Game 2 alone is the first game of b, not game 0 again.
  o.first_game = 0;
  o.games = 1;
  o.output = dir.path("c.parquet");
  ASSERT_TRUE(generate(o).ok());
  EXPECT_NE(read_corpus(dir.path("c.parquet"))[0].sfen, b[0].sfen);
}

// With a node limit, Fairy-Stockfish 11.1's answers depend on the searches
// its process ran before, even after usinewgame: game 1 played after game 0
// on one engine differed from game 1 on a fresh one in 3 of 56 positions,
// so 1, 2 and 3 workers wrote different files, and 3 workers differed from
// run to run. new_game() now rebuilds the engine's threads
// (EngineOptions::fresh_threads_each_game).
TEST(Generate, TheWorkerCountDoesNotChangeTheBytesUnderANodeLimit) {
  ASSERT_TRUE(manaka::testing::have_fairy_stockfish()) << "fairy-stockfish is not installed (make setup installs it)";
  Scratch dir;
  GenerateOptions o = fairy_run(dir.path("w1.parquet"), 6, 7, 4, 60);
  o.limit = {.nodes = 3000};
  ASSERT_TRUE(generate(o).ok());
  o.workers = 3;
  o.output = dir.path("w3.parquet");
  ASSERT_TRUE(generate(o).ok());
  auto bytes = [](const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), {});
  };
  const std::string one = bytes(dir.path("w1.parquet"));
  ASSERT_GT(one.size(), 1000u);
  EXPECT_TRUE(one == bytes(dir.path("w3.parquet"))) << "1 and 3 workers wrote different corpora";
}

// fairy-stockfish 11.1 offers pawn-drop mates; our rules refuse them, and say
// why. White's king on 1a: P*1b checks, 1b is guarded by the silver on 2c,
// and the gold on 3b covers 2a and 2b.
TEST(Generate, AMatingPawnDropFromTheEngineIsRefusedAsUchifuzume) {
  auto pos = shogi::Position::from_sfen("8k/6G2/7S1/9/9/9/9/9/4K4 b P 1");
  ASSERT_TRUE(pos.ok()) << pos.status().message();
  auto drop = check_engine_move(*pos, "fairy", "multipv 1", "P*1b");
  ASSERT_FALSE(drop.ok());
  EXPECT_EQ(drop.status().message(),
            "engine fairy: multipv 1 \"P*1b\" is illegal (a pawn drop that mates: uchifuzume) in sfen "
            "8k/6G2/7S1/9/9/9/9/9/4K4 b P 1");
  auto other = check_engine_move(*pos, "fairy", "bestmove", "5i5h");
  ASSERT_TRUE(other.ok());
  EXPECT_EQ(other->to_usi(), "5i5h");
  EXPECT_TRUE(check_engine_move(*pos, "fairy", "bestmove", "P*1a").status().message().ends_with(
      "\"P*1a\" is illegal in sfen 8k/6G2/7S1/9/9/9/9/9/4K4 b P 1"));
  EXPECT_TRUE(check_engine_move(*pos, "fairy", "bestmove", "xyz").status().message().find(
                  "\"xyz\" is not a USI move") != std::string::npos);
}

TEST(Generate, OptionsAreChecked) {
  GenerateOptions o = fake_run("x.parquet", {"normal"}, 1, 4);
  o.limit = {};
  EXPECT_EQ(generate(o).status().message(), "teacher generate: a search limit is required (--depth D or --nodes N)");
  o = fake_run("x.parquet", {"normal"}, 0, 4);
  EXPECT_EQ(generate(o).status().message(), "teacher generate: --games must be at least 1");
  o = fake_run("x.parquet", {"normal"}, 1, 4);
  o.engine.protocol = engine::Protocol::Uci;
  EXPECT_EQ(generate(o).status().message(), "teacher generate: the engine must speak USI (the games are shogi)");
  o = fake_run("x.parquet", {"normal"}, 1, 4);
  o.first_game = kMaxFirstGame + 1;
  EXPECT_EQ(generate(o).status().message(),
            "teacher generate: --first-game must be 0.." + std::to_string(kMaxFirstGame));
}

}  // namespace
}  // namespace manaka::teacher
