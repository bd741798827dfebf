// chess/pgn_games: one policy for refused games and unreadable files.
#include "chess/pgn_games.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace manaka::chess {
namespace {

namespace fs = std::filesystem;

constexpr const char* kGood = "[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n";
constexpr const char* kBad = "[Result \"*\"]\n\n1. e4 e4 *\n\n";

struct Files {
  fs::path dir = fs::path(::testing::TempDir()) / ("pgn_games_" + std::to_string(::getpid()));
  Files() {
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::ofstream(dir / "a.pgn") << kGood << kBad << kGood;
    std::ofstream(dir / "b.pgn") << kBad << kGood;
  }
  std::string path(const char* name) const { return (dir / name).string(); }
};

TEST(PgnGames, SkipsRefusedGamesNumberingAcrossFiles) {
  Files f;
  std::vector<std::string> seen;
  PgnPolicy policy{.keep_messages = 1, .on_message = [&](const std::string& m) { seen.push_back(m); }};
  PgnGames games({f.path("a.pgn"), f.path("b.pgn")}, policy);
  PgnGame g;
  std::vector<uint64_t> numbers;
  std::vector<size_t> files;
  for (;;) {
    auto more = games.next(g);
    ASSERT_TRUE(more.ok()) << more.status().message();
    if (!*more) break;
    numbers.push_back(g.number);
    files.push_back(games.file());
  }
  EXPECT_EQ(numbers, (std::vector<uint64_t>{1, 3, 5}));
  EXPECT_EQ(files, (std::vector<size_t>{0, 0, 1}));
  EXPECT_EQ(games.games_read(), 3u);
  EXPECT_EQ(games.games_skipped(), 2u);
  EXPECT_EQ(games.files()[0].games_skipped, 1u);
  EXPECT_EQ(games.files()[1].games_read, 1u);
  ASSERT_EQ(games.messages().size(), 1u);  // kept: the first one
  EXPECT_EQ(seen.size(), 2u);               // told: every one
  EXPECT_NE(games.messages()[0].find("a.pgn: game 2"), std::string::npos) << games.messages()[0];
  EXPECT_FALSE(games.any_unreadable());
  EXPECT_EQ(games.plies(), 21u);  // three games of seven plies
  EXPECT_EQ(games.results(), (std::array<uint64_t, 4>{3, 0, 0, 0}));
  const std::string summary = games.summary();
  EXPECT_EQ(summary.rfind("games   3\nplies   21\nskipped 2\nresults 1-0: 3, 0-1: 0, 1/2-1/2: 0, *: 0\n"
                          "errors (first 1):\n  ", 0), 0u) << summary;
}

TEST(PgnGames, PositionLines) {
  PgnGame g;
  g.number = 4;
  g.result = "1-0";
  g.moves = {*Move::parse_uci("e2e4")};
  std::string out;
  append_position_lines(g, out);
  EXPECT_EQ(out, "4\t0\trnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\t1-0\n");
}

TEST(PgnGames, RefusalsReturnedWhenNotSkipped) {
  Files f;
  PgnGames games({f.path("a.pgn")}, {.skip_refused = false});
  PgnGame g;
  ASSERT_TRUE(*games.next(g));
  auto refused = games.next(g);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().kind(), ErrorKind::Invalid);
  ASSERT_TRUE(*games.next(g));  // reading goes on after it
  EXPECT_EQ(g.number, 3u);
}

TEST(PgnGames, AnUnreadableFileStopsOrIsSkipped) {
  Files f;
  PgnGame g;
  PgnGames stop({f.path("missing.pgn"), f.path("b.pgn")});
  auto first = stop.next(g);
  ASSERT_FALSE(first.ok());
  EXPECT_EQ(first.status().kind(), ErrorKind::IO);

  PgnGames skip({f.path("missing.pgn"), f.path("b.pgn")}, {.skip_unreadable = true});
  ASSERT_TRUE(*skip.next(g));
  EXPECT_EQ(skip.file(), 1u);
  EXPECT_TRUE(skip.any_unreadable());
  EXPECT_TRUE(skip.files()[0].unreadable);
  ASSERT_FALSE(skip.messages().empty());
  EXPECT_NE(skip.messages()[0].find("missing.pgn"), std::string::npos);
}

}  // namespace
}  // namespace manaka::chess
