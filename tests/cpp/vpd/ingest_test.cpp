// `vpd build` on several threads against the one-thread reading: the same
// file byte for byte, the same counts and messages, whatever the cuts
// (pieces of a few hundred bytes here, so that every kind of text meets a
// cut: a comment holding a blank line and a '[', a game missing its result
// before the next tags, refused games, null moves, a truncated last game, a
// zstd input, an empty one).
#include "vpd/ingest.h"

#include <gtest/gtest.h>
#include <zstd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "chess/movegen.h"
#include "chess/pgn_text.h"
#include "core/splitmix64.h"
#include "fixture.h"
#include "vpd/build.h"

namespace manaka::vpd {
namespace {

namespace fs = std::filesystem;
using testing::write_file;

std::string random_pgn(uint64_t seed, int games) {
  SplitMix64 rng(seed);
  std::string out;
  for (int g = 0; g < games; ++g) {
    chess::Position pos = chess::Position::startpos();
    std::vector<chess::Move> moves;
    const int plies = 4 + int(rng.next() % 120);
    for (int i = 0; i < plies; ++i) {
      chess::MoveList list;
      chess::generate_legal(pos, list);
      if (list.empty()) break;
      const chess::Move m = list[int(rng.next() % uint64_t(list.size))];
      moves.push_back(m);
      pos.do_move(m);
    }
    const std::string result = RESULT_TOKENS[rng.next() % 4];
    chess::PgnComments comments;
    // Now and then a comment that looks like a game boundary inside.
    if (g % 7 == 3 && moves.size() > 2) comments.push_back({2, "a note\n\n[Event \"not a tag\"]\nstill the note"});
    out += chess::game_pgn(chess::Position::startpos(), moves, {{"Event", std::string("g").append(std::to_string(g))}, {"Result", result}},
                           result, comments);
    out += "\n";
    switch (g % 11) {
      case 5: out += "[Event \"bad\"]\n\n1. e4 e5 2. Ke3 *\n\n"; break;
      case 7: out += "[Event \"no result\"]\n\n1. d4 d5\n\n"; break;  // the next game's tags refuse it
      case 9: out += "[Event \"nulls\"]\n\n1. e4 -- 2. d4 Z0 3. Nf3 e5 1-0\n\n"; break;
      default: break;
    }
  }
  return out;
}

std::string zstd(const std::string& bytes) {
  std::string out(ZSTD_compressBound(bytes.size()), '\0');
  out.resize(ZSTD_compress(out.data(), out.size(), bytes.data(), bytes.size(), 3));
  return out;
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

struct Built {
  std::string bytes;
  BuildSummary summary;
};

Built build_with(const std::vector<std::string>& inputs, const fs::path& out, int threads, size_t chunk) {
  BuildOptions o;
  o.inputs = inputs;
  o.output = out.string();
  o.target = 300;
  o.seed = 12;
  o.threads = threads;
  o.chunk_bytes = chunk;
  o.overwrite = true;
  auto s = build(o);
  EXPECT_TRUE(s.ok()) << s.status().message();
  return {read_bytes(o.output), s.ok() ? *s : BuildSummary{}};
}

TEST(Ingest, ThreadCountDoesNotChangeTheFile) {
  testing::TempDir dir("vpd_ingest");
  const fs::path a = dir.path / "train" / "a.pgn", b = dir.path / "test" / "b.pgn.zst", c = dir.path / "c.pgn",
                 empty = dir.path / "empty.pgn";
  write_file(a, random_pgn(1, 220));
  write_file(b, zstd(random_pgn(2, 150)));
  // A last game cut short: refused as truncated.
  write_file(c, random_pgn(3, 40) + "[Event \"cut\"]\n\n1. e4 {the file ends inside");
  write_file(empty, "");
  const std::vector<std::string> inputs = {a.string(), b.string(), empty.string(), c.string()};
  setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
  const Built one = build_with(inputs, dir.path / "one.vpd", 1, DEFAULT_CHUNK_BYTES);
  for (size_t chunk : {size_t{1}, size_t{300}, size_t{4096}, DEFAULT_CHUNK_BYTES}) {
    for (int threads : {2, 3}) {
      const Built many = build_with(inputs, dir.path / (std::string("t").append(std::to_string(threads)).append(".vpd")), threads, chunk);
      EXPECT_EQ(many.bytes, one.bytes) << threads << " threads, pieces of " << chunk;
      EXPECT_EQ(many.summary.first_errors, one.summary.first_errors);
      EXPECT_EQ(many.summary.info.games_read, one.summary.info.games_read);
      EXPECT_EQ(many.summary.info.games_skipped, one.summary.info.games_skipped);
      EXPECT_EQ(many.summary.rows, one.summary.rows);
      ASSERT_EQ(many.summary.info.sources.size(), one.summary.info.sources.size());
      for (size_t i = 0; i < one.summary.info.sources.size(); ++i) {
        EXPECT_EQ(many.summary.info.sources[i].games_read, one.summary.info.sources[i].games_read);
        EXPECT_EQ(many.summary.info.sources[i].games_skipped, one.summary.info.sources[i].games_skipped);
      }
    }
  }
  unsetenv("SOURCE_DATE_EPOCH");
  EXPECT_FALSE(one.bytes.empty());
  EXPECT_GT(one.summary.rows, 200u);
  // Refusals from every file, numbered within their file.
  EXPECT_GE(one.summary.info.games_skipped, 2u * (220 / 11) + 1);
  ASSERT_EQ(one.summary.first_errors.size(), FIRST_ERRORS);
  // The tenth refusal is far into a.pgn: its number there, not in its piece.
  EXPECT_EQ(one.summary.first_errors.back().find(a.string() + ": game "), 0u) << one.summary.first_errors.back();
}

TEST(Ingest, ErrorsAreTheOneThreadErrors) {
  testing::TempDir dir("vpd_ingest_err");
  const fs::path a = dir.path / "a.pgn", cut = dir.path / "cut.pgn.zst";
  write_file(a, random_pgn(4, 30));
  const std::string z = zstd(random_pgn(5, 60));
  write_file(cut, z.substr(0, z.size() / 2));
  for (const std::vector<std::string>& inputs :
       {std::vector<std::string>{a.string(), (dir.path / "missing.pgn").string()},
        std::vector<std::string>{a.string(), cut.string()}}) {
    BuildOptions o;
    o.inputs = inputs;
    o.output = (dir.path / "x.vpd").string();
    auto one = build(o);
    o.threads = 3;
    o.chunk_bytes = 512;
    auto many = build(o);
    ASSERT_FALSE(one.ok());
    ASSERT_FALSE(many.ok());
    EXPECT_EQ(many.status().message(), one.status().message());
    EXPECT_EQ(many.status().kind(), one.status().kind());
    EXPECT_FALSE(fs::exists(o.output));
  }
}

}  // namespace
}  // namespace manaka::vpd
