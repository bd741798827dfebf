// Round trips and the golden chunk rsshogi 1.7.0 wrote.
#include <gtest/gtest.h>

#include "core/bytes.h"
#include "fixture.h"
#include "sazpack/codec.h"

namespace manaka::sazpack {
namespace {

using testing::from_hex;

TEST(SazpackCodec, WritesTheGoldenChunkByteForByte) {
  SazGame g = testing::golden_game();
  auto bytes = serialize_chunk(std::span<const SazGame>(&g, 1));
  ASSERT_TRUE(bytes.ok()) << bytes.status().message();
  EXPECT_EQ(*bytes, from_hex(testing::kGoldenChunkHex));
}

TEST(SazpackCodec, ReadsTheGoldenChunk) {
  auto games = deserialize_chunk(from_hex(testing::kGoldenChunkHex));
  ASSERT_TRUE(games.ok()) << games.status().message();
  ASSERT_EQ(games->size(), 1u);
  EXPECT_EQ((*games)[0], testing::golden_game());
  const SazPosition& b = (*games)[0].positions[1];
  EXPECT_EQ(b.played.to_usi(), "P*5e");
  EXPECT_EQ(b.mate, std::optional<int16_t>(-3));
  EXPECT_EQ(b.policy[0].visits, 0xFFFFFFFFu);
  EXPECT_EQ(b.policy[0].mv.to_usi(), "8h2b+");
}

TEST(SazpackCodec, EmptyChunkAndEmptyGame) {
  auto empty = serialize_chunk({});
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(*empty, from_hex("53415a32040000000000"));
  EXPECT_TRUE(deserialize_chunk(*empty)->empty());
  SazGame g = testing::golden_game();
  g.positions.clear();
  auto bytes = serialize_chunk(std::span<const SazGame>(&g, 1));
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(bytes->size(), kHeaderSize + kGameFixedSize + 1);
  EXPECT_EQ((*deserialize_chunk(*bytes))[0], g);
}

TEST(SazpackCodec, RandomGamesRoundTripWithRanges) {
  std::mt19937 rng(7);
  std::vector<SazGame> games;
  for (int i = 0; i < 50; ++i) games.push_back(testing::random_game(rng, 1 + int(rng() % 120)));
  auto bytes = serialize_chunk(games);
  ASSERT_TRUE(bytes.ok()) << bytes.status().message();
  auto indexed = deserialize_chunk_indexed(*bytes);
  ASSERT_TRUE(indexed.ok()) << indexed.status().message();
  ASSERT_EQ(indexed->size(), games.size());
  size_t at = kHeaderSize;
  for (size_t i = 0; i < games.size(); ++i) {
    EXPECT_EQ((*indexed)[i].game, games[i]);
    EXPECT_EQ((*indexed)[i].begin, at);
    at = (*indexed)[i].end;
    // Each range is that game alone, serialized.
    auto alone = serialize_chunk(std::span<const SazGame>(&games[i], 1));
    EXPECT_TRUE(std::equal(alone->begin() + kHeaderSize, alone->end(), bytes->begin() + (*indexed)[i].begin,
                           bytes->begin() + (*indexed)[i].end));
  }
  EXPECT_EQ(at, bytes->size());
}

TEST(SazpackCodec, ReaderReusesAGameAcrossCalls) {
  std::mt19937 rng(11);
  std::vector<SazGame> games = {testing::random_game(rng, 90), testing::random_game(rng, 3),
                                testing::random_game(rng, 40)};
  games[1].positions[0].mate = 5;
  auto bytes = serialize_chunk(games);
  auto reader = GameReader::open(*bytes);
  ASSERT_TRUE(reader.ok());
  SazGame scratch;
  for (const SazGame& want : games) {
    auto more = reader->next(scratch);
    ASSERT_TRUE(more.ok() && *more);
    EXPECT_EQ(scratch, want);
  }
  EXPECT_FALSE(*reader->next(scratch));
  EXPECT_EQ(reader->games_read(), 3u);
}

TEST(SazpackCodec, NonMinimalUleb128IsReadAsItsValue) {
  // position_count 2 written as 0x82 0x00 (rsshogi reads it too); the writer
  // emits the minimal form again.
  auto bytes = from_hex(testing::kGoldenChunkHex);
  bytes[45] = 0x82;
  bytes.insert(bytes.begin() + 46, 0x00);
  store_u32(bytes.data() + 6, uint32_t(bytes.size() - kHeaderSize));
  auto games = deserialize_chunk(bytes);
  ASSERT_TRUE(games.ok()) << games.status().message();
  EXPECT_EQ((*games)[0], testing::golden_game());
  EXPECT_EQ(*serialize_chunk(*games), from_hex(testing::kGoldenChunkHex));
}

TEST(SazpackCodec, VisitsUseEveryUleb128Length) {
  SazGame g = testing::golden_game();
  for (uint32_t v : {0u, 127u, 128u, 16383u, 16384u, 2097151u, 2097152u, 268435455u, 268435456u, 0xFFFFFFFFu}) {
    g.positions[0].policy[1].visits = v;
    auto bytes = serialize_chunk(std::span<const SazGame>(&g, 1));
    ASSERT_TRUE(bytes.ok());
    EXPECT_EQ((*deserialize_chunk(*bytes))[0].positions[0].policy[1].visits, v);
  }
}

}  // namespace
}  // namespace manaka::sazpack
