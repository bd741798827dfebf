// corpus/chess_shard: names, the round trip (with and without visits), and
// shards that are damaged or foreign (another npz, wrong dtypes or shapes,
// values or visits out of range), each refused naming the file and the rule.
#include <gtest/gtest.h>

#include <array>
#include <fstream>

#include "chess_shard/chess_shard.h"
#include "corpus_fixture.h"
#include "npz/npz_writer.h"

namespace manaka::chess_corpus {
namespace {

using testing::make_shard;
using testing::make_shard_with_visits;
using testing::scratch;

TEST(ChessShard, Names) {
  EXPECT_EQ(shard_file_name(0), "shard_000000.npz");
  EXPECT_EQ(shard_file_name(42), "shard_000042.npz");
  EXPECT_EQ(shard_file_name(1234567), "shard_1234567.npz");
  EXPECT_TRUE(is_shard_file_name("shard_000001.npz"));
  EXPECT_TRUE(is_shard_file_name("shard_x.npz"));
  EXPECT_FALSE(is_shard_file_name("shard_000001.npz.tmp-123"));
  EXPECT_FALSE(is_shard_file_name("other.npz"));
  const auto dir = scratch("names");
  for (const char* name : {"shard_000002.npz", "shard_000000.npz", "notes.txt", "shard_000001.npz"})
    std::ofstream(dir / name) << "x";
  auto listed = list_shards(dir.string());
  ASSERT_TRUE(listed.ok());
  EXPECT_EQ(*listed, (std::vector<std::string>{(dir / "shard_000000.npz").string(), (dir / "shard_000001.npz").string(),
                                               (dir / "shard_000002.npz").string()}));
  EXPECT_EQ(list_shards((dir / "missing").string()).status().kind(), ErrorKind::IO);
}

TEST(ChessShard, RoundTrip) {
  const auto dir = scratch("roundtrip");
  for (uint64_t n : {0, 1, 257}) {
    const ChessShard s = make_shard(1000, n);
    const std::string path = (dir / shard_file_name(n)).string();
    ASSERT_TRUE(write_chess_shard(path, s.view()).ok());
    auto back = read_chess_shard(path);
    ASSERT_TRUE(back.ok()) << back.status().message();
    EXPECT_EQ(back->positions, n);
    EXPECT_TRUE(back->states == s.states);
    EXPECT_TRUE(back->move_indices == s.move_indices);
    EXPECT_TRUE(back->outcomes == s.outcomes);
  }
}

TEST(ChessShard, RoundTripWithVisits) {
  const auto dir = scratch("visits");
  for (uint64_t n : {0, 1, 257}) {
    const ChessShard s = make_shard_with_visits(1000, n);
    const std::string path = (dir / shard_file_name(n)).string();
    ASSERT_TRUE(write_chess_shard(path, s.view()).ok());
    auto archive = npz::NpzReader::open(path);
    ASSERT_TRUE(archive.ok());
    EXPECT_EQ(archive->names(), (std::vector<std::string>{"states", "move_indices", "outcomes", "visit_offsets",
                                                          "visit_indices", "visit_counts"}));
    auto back = read_chess_shard(path);
    ASSERT_TRUE(back.ok()) << back.status().message();
    EXPECT_TRUE(back->has_visits);
    EXPECT_TRUE(back->states == s.states);
    EXPECT_TRUE(back->visit_offsets == s.visit_offsets);
    EXPECT_TRUE(back->visit_indices == s.visit_indices);
    EXPECT_TRUE(back->visit_counts == s.visit_counts);
    EXPECT_EQ(back->view().visit_entries(), s.visit_indices.size());
  }
  // A shard without visits read into a reused shard that had them has none.
  const ChessShard plain = make_shard(0, 5);
  const std::string path = (dir / "plain.npz").string();
  ASSERT_TRUE(write_chess_shard(path, plain.view()).ok());
  auto back = read_chess_shard(path, {}, make_shard_with_visits(0, 9));
  ASSERT_TRUE(back.ok());
  EXPECT_FALSE(back->has_visits);
  EXPECT_FALSE(back->view().has_visits());
  EXPECT_TRUE(back->visit_offsets.empty());
}

TEST(ChessShard, VisitsBreakingTheRulesAreNamed) {
  const auto dir = scratch("badvisits");
  const std::string path = (dir / "shard_000000.npz").string();
  auto refused = [&](ChessShard s) {
    const Status st = write_chess_shard(path, s.view());
    EXPECT_FALSE(std::filesystem::exists(path));
    return st.message();
  };
  // Rows 0..7 hold 0, 1, 2, 3, 0, 1, 2, 3 entries: offsets 0 0 1 3 6 6 7 9 12.
  ChessShard s = make_shard_with_visits(0, 8);
  s.visit_offsets[0] = 1;
  EXPECT_EQ(refused(s), path + ": visit_offsets[0] = 1, not 0");
  s = make_shard_with_visits(0, 8);
  s.visit_offsets[4] = 2;
  EXPECT_EQ(refused(s), path + ": visit_offsets[4] = 2, below visit_offsets[3] = 3 (offsets never decrease)");
  s = make_shard_with_visits(0, 8);
  s.visit_indices[4] = 4672;
  EXPECT_EQ(refused(s), path + ": visit_indices[4] = 4672 (row 3), outside [0, 4672)");
  s = make_shard_with_visits(0, 8);
  s.visit_indices[5] = s.visit_indices[3];
  EXPECT_EQ(refused(s), path + ": visit_indices[5] = " + std::to_string(s.visit_indices[3]) +
                            " (row 3), a move index already in that row");
  s = make_shard_with_visits(0, 8);
  s.visit_counts[11] = 0;
  EXPECT_EQ(refused(s), path + ": visit_counts[11] = 0 (row 7), not at least 1");
  // The same index in two rows is fine.
  s = make_shard_with_visits(0, 8);
  s.visit_indices[6] = s.visit_indices[1];
  EXPECT_TRUE(write_chess_shard(path, s.view()).ok());
  // Offsets that end past the entries, checked against the arrays' length.
  s = make_shard_with_visits(0, 8);
  EXPECT_EQ(check_visits(s.view(), 11).message(),
            "visit_offsets[8] = 12, but visit_indices and visit_counts hold 11 entries");
}

TEST(ChessShard, ValuesOutOfRange) {
  const auto dir = scratch("values");
  ChessShard s = make_shard(0, 20);
  s.move_indices[17] = 4672;
  const std::string path = (dir / "shard_000000.npz").string();
  EXPECT_EQ(write_chess_shard(path, s.view()).message(), path + ": move_indices[17] = 4672, outside [0, 4672)");
  s.move_indices[17] = 0;
  s.outcomes[3] = 2;
  EXPECT_EQ(write_chess_shard(path, s.view()).message(), path + ": outcomes[3] = 2, not -1, 0 or 1");
  EXPECT_FALSE(std::filesystem::exists(path));

  // Written anyway by a generic writer, refused by the reader.
  auto w = npz::NpzWriter::create(path);
  const std::array<uint64_t, 4> states = {20, 20, 8, 8};
  const std::array<uint64_t, 1> rows = {20};
  ASSERT_TRUE(w->add("states", npz::DType::Int8, states, s.states.data()).ok());
  ASSERT_TRUE(w->add("move_indices", npz::DType::Int32, rows, s.move_indices.data()).ok());
  ASSERT_TRUE(w->add("outcomes", npz::DType::Int8, rows, s.outcomes.data()).ok());
  ASSERT_TRUE(w->commit().ok());
  EXPECT_EQ(read_chess_shard(path).status().message(), path + ": outcomes[3] = 2, not -1, 0 or 1");
}

TEST(ChessShard, ScoresRoundTripAndOutOfRangeNamed) {
  const auto dir = scratch("scores");
  ChessShard s = make_shard(0, 5);
  s.has_scores = true;
  s.scores = {-SCORE_CP_LIMIT, 0, 35, SCORE_MATE - 1, int16_t(-(SCORE_MATE - 8))};
  const std::string path = (dir / "shard_000000.npz").string();
  ASSERT_TRUE(write_chess_shard(path, s.view()).ok());
  auto back = read_chess_shard(path);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_TRUE(back->has_scores);
  EXPECT_TRUE(back->scores == s.scores);
  EXPECT_TRUE(back->states == s.states);
  s.scores[2] = SCORE_CP_LIMIT + 1;
  EXPECT_EQ(write_chess_shard(path, s.view()).message(),
            path + ": scores[2] = 20001, neither centipawns (at most 20000 either way) nor a mate (at least 29000)");
  s.scores[2] = -SCORE_MATE - 1;
  EXPECT_EQ(write_chess_shard(path, s.view()).message(), path + ": scores[2] = -30001, beyond the mate score 30000");
  // A shard without scores reads back without them.
  s.has_scores = false;
  ASSERT_TRUE(write_chess_shard(path, s.view()).ok());
  back = read_chess_shard(path);
  ASSERT_TRUE(back.ok());
  EXPECT_FALSE(back->has_scores);
}

// A shard written with these arrays (states, move_indices, outcomes as
// given), to check the foreign-shard refusals.
struct Array {
  std::string name;
  npz::DType dtype;
  std::vector<uint64_t> shape;
};

std::string write_arrays(const std::string& path, const std::vector<Array>& arrays) {
  auto w = npz::NpzWriter::create(path);
  std::vector<uint8_t> zeros(1 << 20, 0);
  for (const Array& a : arrays) EXPECT_TRUE(w->add(a.name, a.dtype, a.shape, zeros.data()).ok());
  EXPECT_TRUE(w->commit().ok());
  auto r = read_chess_shard(path);
  return r.ok() ? "" : r.status().message();
}

TEST(ChessShard, ForeignShardsNamed) {
  const auto dir = scratch("foreign");
  const std::string p = (dir / "shard_000000.npz").string();
  using npz::DType;
  const Array states{"states", DType::Int8, {4, 20, 8, 8}};
  const Array moves{"move_indices", DType::Int32, {4}};
  const Array outcomes{"outcomes", DType::Int8, {4}};
  EXPECT_EQ(write_arrays(p, {states, moves, outcomes}), "");
  EXPECT_EQ(write_arrays(p, {states, moves}),
            p + ": no array 'outcomes': not a chess corpus shard (states, move_indices, outcomes)");
  EXPECT_EQ(write_arrays(p, {states, moves, outcomes, {"extra", DType::Int8, {1}}}),
            p + ": an array 'extra': not a chess corpus shard (states, move_indices, outcomes)");
  EXPECT_EQ(write_arrays(p, {states, {"move_indices", DType::Int64, {4}}, outcomes}),
            p + ": array 'move_indices' has dtype '<i8', a chess shard's is int32 '<i4'");
  EXPECT_EQ(write_arrays(p, {{"states", DType::Float32, {4, 20, 8, 8}}, moves, outcomes}),
            p + ": array 'states' has dtype '<f4', a chess shard's is int8 '|i1'");
  EXPECT_EQ(write_arrays(p, {{"states", DType::Int8, {4, 8, 8, 20}}, moves, outcomes}),
            p + ": array 'states' has shape (4, 8, 8, 20), a chess shard's is (N, 20, 8, 8)");
  EXPECT_EQ(write_arrays(p, {states, {"move_indices", DType::Int32, {5}}, outcomes}),
            p + ": array 'move_indices' has shape (5,), but 'states' holds 4 positions (expected (4,))");
  EXPECT_EQ(write_arrays(p, {states, moves, {"outcomes", DType::Int8, {4, 1}}}),
            p + ": array 'outcomes' has shape (4, 1), but 'states' holds 4 positions (expected (4,))");
  // Visits: all three arrays or none, their dtypes and lengths.
  const Array offsets{"visit_offsets", DType::Int64, {5}};
  const Array indices{"visit_indices", DType::Int32, {0}};
  const Array counts{"visit_counts", DType::Int32, {0}};
  EXPECT_EQ(write_arrays(p, {states, moves, outcomes, offsets, indices, counts}), "");
  EXPECT_EQ(write_arrays(p, {states, moves, outcomes, offsets, indices}),
            p + ": no array 'visit_counts': a shard's visits are three arrays (visit_offsets, visit_indices, "
                "visit_counts)");
  EXPECT_EQ(write_arrays(p, {states, moves, outcomes, {"visit_offsets", DType::Int32, {5}}, indices, counts}),
            p + ": array 'visit_offsets' has dtype '<i4', a chess shard's is int64 '<i8'");
  EXPECT_EQ(write_arrays(p, {states, moves, outcomes, {"visit_offsets", DType::Int64, {4}}, indices, counts}),
            p + ": array 'visit_offsets' has shape (4,), but 'states' holds 4 positions (expected (5,))");
  EXPECT_EQ(write_arrays(p, {states, moves, outcomes, offsets, indices, {"visit_counts", DType::Int32, {1}}}),
            p + ": array 'visit_counts' has shape (1,), but 'visit_indices' has (0,)");
  EXPECT_EQ(write_arrays(p, {states, moves, outcomes, offsets, {"visit_indices", DType::Int32, {2}},
                             {"visit_counts", DType::Int32, {2}}}),
            p + ": visit_offsets[4] = 0, but visit_indices and visit_counts hold 2 entries");
  std::ofstream(p, std::ios::trunc) << "not a zip at all, just text that is long enough";
  EXPECT_NE(read_chess_shard(p).status().message().find(p + ": no end record"), std::string::npos);
}

}  // namespace
}  // namespace manaka::chess_corpus
