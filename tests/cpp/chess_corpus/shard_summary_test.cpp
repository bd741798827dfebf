// chess_corpus/shard_summary: the counts of a good corpus, and a damaged and a
// foreign file named with their reasons.
#include <gtest/gtest.h>

#include <fstream>

#include "chess_corpus/shard_summary.h"
#include "corpus_fixture.h"
#include "npz/npz_writer.h"

namespace manaka::chess_corpus {
namespace {

using testing::make_corpus;
using testing::scratch;

TEST(ShardSummary, GoodAndBad) {
  const auto dir = scratch("summary");
  const auto shards = make_corpus(dir, {30, 30, 12});
  std::ofstream(dir / "notes.txt") << "hello";
  auto s = summarize_shards({dir.string()});
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->shards, 3u);
  EXPECT_EQ(s->positions, 72u);
  EXPECT_EQ(s->min_positions, 12u);
  EXPECT_EQ(s->max_positions, 30u);
  // Rows 0..71: outcome row % 3 - 1, move row % 4672.
  EXPECT_EQ(s->losses, 24u);
  EXPECT_EQ(s->draws, 24u);
  EXPECT_EQ(s->wins, 24u);
  EXPECT_EQ(s->moves_covered, 72u);
  EXPECT_TRUE(s->bad.empty());
  EXPECT_EQ(s->ignored, (std::vector<std::string>{(dir / "notes.txt").string()}));
  const std::string text = format_summary(*s);
  EXPECT_NE(text.find("shards     3 readable\n"), std::string::npos) << text;
  EXPECT_NE(text.find("positions  72 (12 to 30 a shard)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("mover lost 33.3%, drew 33.3%, won 33.3% (24 / 24 / 24)"), std::string::npos) << text;
  EXPECT_NE(text.find("72 of 4672 policy indices occur (1.5%)"), std::string::npos) << text;
  EXPECT_EQ(summary_json(*s)["move_histogram"].size(), 4672u);

  // A cut shard and a foreign npz under a shard's name.
  std::filesystem::resize_file(shards[1], std::filesystem::file_size(shards[1]) - 10);
  {
    auto w = npz::NpzWriter::create((dir / "shard_000009.npz").string());
    const float x[2] = {1, 2};
    const std::array<uint64_t, 1> two = {2};
    ASSERT_TRUE(w->add("weights", npz::DType::Float32, two, x).ok());
    ASSERT_TRUE(w->commit().ok());
  }
  s = summarize_shards({dir.string()});
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->shards, 2u);
  EXPECT_EQ(s->positions, 42u);
  ASSERT_EQ(s->bad.size(), 2u);
  EXPECT_EQ(s->bad[0].path, shards[1]);
  EXPECT_NE(s->bad[0].reason.find("no end record"), std::string::npos);
  EXPECT_EQ(s->bad[1].reason, (dir / "shard_000009.npz").string() +
                                  ": an array 'weights': not a chess corpus shard (states, move_indices, outcomes)");
  EXPECT_NE(format_summary(*s).find("damaged or foreign:\n  " + shards[1]), std::string::npos);
}

}  // namespace
}  // namespace manaka::chess_corpus
