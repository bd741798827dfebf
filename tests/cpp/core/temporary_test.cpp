// core/temporary: temporaries go with their owner, with a signal, or with the
// next run after a kill -9; a live process's are never touched.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/temporary.h"
#include "dead_pid.h"

namespace manaka {
namespace {

namespace fs = std::filesystem;
using testing::dead_pid;

fs::path scratch(const std::string& name) {
  fs::path dir = fs::path(::testing::TempDir()) / (name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

TEST(Temporary, PendingFileCommitsOrGoes) {
  const fs::path dir = scratch("pending");
  const std::string final_path = (dir / "out.bin").string();
  {
    PendingFile f(final_path);
    EXPECT_EQ(f.path(), final_path + ".tmp-" + std::to_string(::getpid()));
    std::ofstream(f.path()) << "data";
  }
  EXPECT_TRUE(fs::is_empty(dir));
  PendingFile f(final_path);
  std::ofstream(f.path()) << "data";
  ASSERT_TRUE(f.commit().ok());
  EXPECT_TRUE(fs::exists(final_path));
  EXPECT_FALSE(fs::exists(f.path()));
}

TEST(Temporary, StaleOnesOfDeadProcessesOnly) {
  const fs::path dir = scratch("stale");
  const std::string final_path = (dir / "out.bin").string();
  const fs::path dead = final_path + ".tmp-" + std::to_string(dead_pid());
  const fs::path live = final_path + ".tmp-" + std::to_string(::getppid());
  const fs::path other = (dir / "other.bin.tmp-").string() + std::to_string(dead_pid());
  const fs::path not_pid = final_path + ".tmp-12x";
  fs::create_directories(dead);  // a directory of a killed run goes too
  std::ofstream(dead / "part") << "x";
  for (const fs::path& p : {live, other, not_pid}) std::ofstream(p) << "x";
  EXPECT_EQ(remove_stale_temporaries(final_path), 1);
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_TRUE(fs::exists(live));
  EXPECT_TRUE(fs::exists(other));
  EXPECT_TRUE(fs::exists(not_pid));
}

TEST(Temporary, TempDirForOutputReplacesOnlyWhenAsked) {
  const fs::path dir = scratch("tempdir");
  const std::string final_path = (dir / "set").string();
  {
    auto t = TempDir::for_output(final_path);
    ASSERT_TRUE(t.ok()) << t.status().message();
    std::ofstream(t->path() + "/a") << "first";
    ASSERT_TRUE(t->commit().ok());
  }
  auto t = TempDir::for_output(final_path);
  ASSERT_TRUE(t.ok());
  std::ofstream(t->path() + "/b") << "second";
  auto refused = t->commit();
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(fs::exists(dir / "set" / "a"));
  ASSERT_TRUE(t->commit(true).ok()) ;
  EXPECT_FALSE(fs::exists(dir / "set" / "a"));
  EXPECT_TRUE(fs::exists(dir / "set" / "b"));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);  // nothing aside
}

TEST(Temporary, ScratchDirGoesWithItsContents) {
  const fs::path dir = scratch("scratchdir");
  const fs::path stale = dir / (".lbl-" + std::to_string(dead_pid()) + "-AbCdEf");
  fs::create_directories(stale);
  std::string path;
  {
    auto t = TempDir::scratch(dir.string(), ".lbl-");
    ASSERT_TRUE(t.ok());
    path = t->path();
    EXPECT_EQ(fs::path(path).filename().string().rfind(".lbl-" + std::to_string(::getpid()) + "-", 0), 0u);
    std::ofstream(path + "/x") << "x";
    EXPECT_FALSE(fs::exists(stale));
  }
  EXPECT_FALSE(fs::exists(path));
}

// A stopped process leaves none of its registered temporaries: SIGTERM to a
// child that installed the cleanup and then waits.
TEST(Temporary, SignalRemovesRegisteredTemporaries) {
  const fs::path dir = scratch("signal");
  const std::string final_path = (dir / "out.bin").string();
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  pid_t pid = ::fork();
  if (pid == 0) {
    install_signal_cleanup();
    PendingFile f(final_path);
    std::ofstream(f.path()) << "half";
    auto t = TempDir::scratch(dir.string(), ".spool-");
    (void)::write(ready[1], "x", 1);
    for (;;) ::pause();
  }
  char c;
  ASSERT_EQ(::read(ready[0], &c, 1), 1);
  EXPECT_FALSE(fs::is_empty(dir));
  ::kill(pid, SIGTERM);
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
  EXPECT_TRUE(fs::is_empty(dir));
}

}  // namespace
}  // namespace manaka
