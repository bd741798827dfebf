// The --buckets spool files (fold/spool.h).
#include "fold/spool.h"

#include <gtest/gtest.h>

#include "mpk_fixture.h"

namespace manaka::fold {
namespace {

namespace fs = std::filesystem;

shard::Row sample_row(bool with_cp) {
  shard::Row r;
  r.packed = testing::board(42);
  r.ply = 77;
  r.value_z = -1.0f / 3;
  r.value_q = 0.25f;
  r.weight = 3;
  r.mv = {testing::mv(1, 2), testing::mv(85, 40), testing::mv(3, 4)};
  r.prob = {0.5f, 0.25f, 0.25f};
  r.cp = with_cp ? std::vector<int16_t>{120, -7, 0} : std::vector<int16_t>(3, shard::kNullCp);
  return r;
}

TEST(Spool, RowsRoundTripInBothLayouts) {
  for (bool with_cp : {true, false}) {
    std::vector<uint8_t> bytes;
    encode_spool_row(sample_row(with_cp), with_cp, bytes);
    encode_spool_row(shard::Row{}, with_cp, bytes);  // no candidates
    EXPECT_EQ(spool_row_size(bytes.data(), with_cp), kSpoolRowFixed + 3 * spool_cand_size(with_cp));
    shard::Row back;
    auto used = decode_spool_row(bytes.data(), bytes.size(), with_cp, back);
    ASSERT_TRUE(used.ok());
    EXPECT_EQ(back, sample_row(with_cp));
    auto second = decode_spool_row(bytes.data() + *used, bytes.size() - *used, with_cp, back);
    ASSERT_TRUE(second.ok());
    EXPECT_EQ(*used + *second, bytes.size());
    EXPECT_EQ(back, shard::Row{});
    // Cut inside a row: refused, not read past the end.
    auto cut = decode_spool_row(bytes.data(), *used - 1, with_cp, back);
    ASSERT_FALSE(cut.ok());
    EXPECT_EQ(cut.status().kind(), ErrorKind::Truncated);
  }
}

TEST(Spool, TempDirGoesWithItsContents) {
  auto dir = testing::scratch_dir();
  std::string path;
  {
    auto tmp = TempDir::scratch(dir.string(), kSpoolDirLabel);
    ASSERT_TRUE(tmp.ok()) << tmp.status().message();
    path = tmp->path();
    EXPECT_EQ(fs::path(path).filename().string().rfind(".manaka-pack-" + std::to_string(::getpid()) + "-", 0), 0u);
    auto w = SpoolWriter::create(path + "/spool-a-0000.mpk", 64);
    ASSERT_TRUE(w.ok());
    std::vector<uint8_t> data(1000, 7);  // larger than the buffer
    ASSERT_TRUE(w->append(data.data(), 10).ok());
    ASSERT_TRUE(w->append(data.data(), data.size()).ok());
    ASSERT_TRUE(w->close().ok());
    EXPECT_EQ(w->bytes(), 1010u);
    EXPECT_EQ(fs::file_size(path + "/spool-a-0000.mpk"), 1010u);
    const std::string written = path + "/spool-a-0000.mpk";
    MappedVector<uint8_t> back;
    ASSERT_TRUE(read_files({&written, 1}, back).ok());
    ASSERT_EQ(back.size(), 1010u);
    EXPECT_EQ(back[0], 7);
    EXPECT_EQ(back[1009], 7);
  }
  EXPECT_FALSE(fs::exists(path));
}

TEST(Spool, SetsThatFitTheDescriptorLimit) {
  // pack --buckets folds on as many threads as sets of spools fit, 64 spare.
  EXPECT_EQ(sets_that_fit(1024, 16, 2), 2u);
  EXPECT_EQ(sets_that_fit(64 + 80, 40, 3), 2u);
  EXPECT_EQ(sets_that_fit(64 + 79, 40, 3), 1u);
  EXPECT_EQ(sets_that_fit(100, 40, 3), 1u);  // not even one: one, and opening says why
  EXPECT_EQ(sets_that_fit(10, 40, 3), 1u);
  EXPECT_EQ(sets_that_fit(1 << 20, 4096, 16), 16u);
  EXPECT_EQ(sets_that_fit(1024, 16, 0), 1u);
}

TEST(Spool, MissingParentIsAnIoErrorNamingIt) {
  auto tmp = TempDir::scratch("/nonexistent/spools", kSpoolDirLabel);
  ASSERT_FALSE(tmp.ok());
  EXPECT_EQ(tmp.status().kind(), ErrorKind::IO);
  EXPECT_NE(tmp.status().message().find("/nonexistent/spools"), std::string::npos);
}

}  // namespace
}  // namespace manaka::fold
