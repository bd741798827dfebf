// publish_shard_set and recover_shard_set: a replacement stopped after any
// of its renames is finished by the recovery, to exactly the new set; one
// stopped before its journal leaves the old set alone.
#include "shard/set_publish.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "shard/format.h"

namespace manaka::shard {
namespace {

namespace fs = std::filesystem;

struct Dir {
  fs::path path = fs::temp_directory_path() / ("manaka_publish_" + std::to_string(::getpid()));
  Dir() {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~Dir() { fs::remove_all(path); }
  std::string prefix() const { return (path / "train").string(); }
};

void put(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

// Every file in the directory by name, with its text.
std::map<std::string, std::string> files(const fs::path& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::ifstream in(e.path(), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    out[e.path().filename().string()] = text.str();
  }
  return out;
}

// The old set (4 shards) and the new one (2 shards) as the publish sees them.
std::vector<std::unique_ptr<PendingFile>> old_and_pending_new(const Dir& d) {
  for (int i = 0; i < 4; ++i) put(shard_path(d.prefix(), i), "old " + std::to_string(i));
  std::vector<std::unique_ptr<PendingFile>> pending;
  for (int i = 0; i < 2; ++i) {
    pending.push_back(std::make_unique<PendingFile>(shard_path(d.prefix(), i)));
    put(pending.back()->path(), "new " + std::to_string(i));
  }
  return pending;
}

const std::map<std::string, std::string> kNew = {{"train-00000.parquet", "new 0"}, {"train-00001.parquet", "new 1"}};

TEST(SetPublish, ReplacesTheSetAndOutgrownShards) {
  Dir d;
  auto pending = old_and_pending_new(d);
  auto published = publish_shard_set(d.prefix(), 0, 2, pending);
  ASSERT_TRUE(published.ok()) << published.status().message();
  EXPECT_EQ(files(d.path), kNew);
  EXPECT_EQ(published->removed, (std::vector<std::string>{shard_path(d.prefix(), 2), shard_path(d.prefix(), 3)}));
  auto again = recover_shard_set(d.prefix());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, 0u);  // no journal: nothing to do
}

// The states a kill can leave once the journal exists, each made by hand:
// k old files set aside, then j new ones renamed in.
TEST(SetPublish, RecoveryFinishesAReplacementStoppedAtAnyRename) {
  for (int aside = 0; aside <= 4; ++aside) {
    for (int in = 0; in <= (aside == 4 ? 2 : 0); ++in) {
      Dir d;
      const long pid = 999999;  // the killed run's
      for (int i = 0; i < 4; ++i) {
        const std::string path = shard_path(d.prefix(), i);
        put(i < aside ? path + ".old-" + std::to_string(pid) : path, "old " + std::to_string(i));
      }
      for (int i = 0; i < 2; ++i) {
        const std::string path = shard_path(d.prefix(), i);
        put(i < in ? path : path + ".tmp-" + std::to_string(pid), "new " + std::to_string(i));
      }
      put(publish_journal_path(d.prefix()), "manaka shard set publish\npid 999999\nfirst 0\nend 2\ncount 2\n");
      auto renamed = recover_shard_set(d.prefix());
      ASSERT_TRUE(renamed.ok()) << renamed.status().message();
      EXPECT_EQ(*renamed, uint64_t(2 - in)) << aside << " " << in;
      EXPECT_EQ(files(d.path), kNew) << aside << " " << in;
    }
  }
}

TEST(SetPublish, AForeignJournalIsRefusedNotActedOn) {
  Dir d;
  put(shard_path(d.prefix(), 0), "old 0");
  put(publish_journal_path(d.prefix()), "something else\n");
  auto r = recover_shard_set(d.prefix());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("not a shard set journal of manaka's"), std::string::npos);
  EXPECT_EQ(files(d.path).count("train-00000.parquet"), 1u);
}

}  // namespace
}  // namespace manaka::shard
