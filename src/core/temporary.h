// Temporaries: where an output lives until it is complete, and who removes
// it when the run does not complete (docs/reliability.md).
//
//   "<final>.tmp-<pid>"           a file or directory that becomes <final> by
//                                 rename (temporary_path, PendingFile, TempDir)
//   "<parent>/<label><pid>-XXXXXX" a scratch directory that never becomes an
//                                 output (TempDir::scratch: pack's spools)
//
// Three ways a temporary goes away:
//   1. its owner is destroyed or discards it (an error, an exception);
//   2. SIGINT, SIGTERM or SIGHUP: the command's signal thread removes every
//      registered temporary before the process dies (install_signal_cleanup);
//   3. after kill -9: the next run that writes the same output, or scratches
//      in the same parent, removes the ones whose process no longer exists
//      (remove_stale_temporaries). The pid in the name is what proves a
//      temporary is ours and dead; a live pid's temporary is never touched.
//
// The registry behind (2) is process-wide by necessity: a signal names no
// owner. It is a mutex-guarded list, touched only when a temporary is made or
// goes, never per byte.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace manaka {

// "<final>.tmp-<pid>".
std::string temporary_path(const std::string& final_path);

// rename(2) of a completed temporary onto its final name.
Status rename_into_place(const std::string& temp, const std::string& final_path);

// The directory `from` takes the existing directory `onto`'s name in one
// step (renameat2 exchange; where the filesystem lacks it, `onto` is moved
// aside first), and the old tree is then removed.
Status replace_directory(const std::string& from, const std::string& onto);

// The "<final>.tmp-<pid>" files and directories in dir whose process no
// longer exists, for every final name ours(final) accepts.
std::vector<std::string> stale_temporaries(const std::string& dir,
                                           const std::function<bool(std::string_view final_name)>& ours);

// Removes the stale temporaries of final_path. Returns how many it removed.
int remove_stale_temporaries(const std::string& final_path);

// Blocks SIGINT, SIGTERM and SIGHUP in the calling thread and in every thread
// it starts afterwards, and starts a thread that waits for them: on one, it
// removes the registered temporaries and ends the process by that signal
// (exit status 128 + signal, as a shell reports it). SIGXFSZ and SIGPIPE are
// ignored, so a write past the file size limit or into a closed pipe is an
// error of the write (EFBIG, EPIPE) that names the file. Call it first in main(),
// before any thread exists. Not for the Python module: Python owns its
// signals there.
void install_signal_cleanup();

// A path the signal thread removes (remove_all) if the process is stopped
// while it is registered. Registration moves with the object.
class TemporaryRegistration {
 public:
  TemporaryRegistration() = default;
  explicit TemporaryRegistration(const std::string& path);
  TemporaryRegistration(TemporaryRegistration&& other) noexcept;
  TemporaryRegistration& operator=(TemporaryRegistration&& other) noexcept;
  TemporaryRegistration(const TemporaryRegistration&) = delete;
  TemporaryRegistration& operator=(const TemporaryRegistration&) = delete;
  ~TemporaryRegistration() { release(); }
  void release();

 private:
  uint64_t id_ = 0;
};

// The missing directories above an output, made for it, and removed again
// (those still empty, deepest first) when it is not completed: a failed run
// leaves no empty directory behind. keep() once the output is in place.
class MadeDirectories {
 public:
  MadeDirectories() = default;
  // Makes dir and its missing parents; a failure shows when the output is
  // created there, naming it.
  explicit MadeDirectories(const std::string& dir);
  MadeDirectories(MadeDirectories&& other) noexcept : made_(std::move(other.made_)) { other.made_.clear(); }
  MadeDirectories& operator=(MadeDirectories&& other) noexcept;
  MadeDirectories(const MadeDirectories&) = delete;
  MadeDirectories& operator=(const MadeDirectories&) = delete;
  ~MadeDirectories() { undo(); }

  void keep() { made_.clear(); }
  void undo();

 private:
  std::vector<std::string> made_;  // outermost first
};

// A temporary for a writer that opens files by name itself (the MPK1 writer,
// Arrow's file sink, SQLite): write to path(), then commit() renames it onto
// the final name; destroyed uncommitted, it removes the temporary. Creating
// one removes the stale temporaries of the same output first, and makes the
// output's missing parent directories.
class PendingFile {
 public:
  explicit PendingFile(std::string final_path);
  PendingFile(const PendingFile&) = delete;
  PendingFile& operator=(const PendingFile&) = delete;
  ~PendingFile() { discard(); }

  const std::string& path() const { return temp_; }
  const std::string& final_path() const { return final_; }
  Status commit();
  // Removes the temporary (a no-op once committed).
  void discard();
  // Hands the complete temporary to the caller, who renames it (a shard
  // set's journal, shard/set_publish.h): this object and the signal cleanup
  // no longer remove it.
  void keep();

 private:
  std::string final_, temp_;
  TemporaryRegistration registration_;
  MadeDirectories parents_;
  bool done_ = false;
};

// A directory removed with everything in it on destruction, unless it was
// committed (renamed onto its final name).
class TempDir {
 public:
  // "<final>.tmp-<pid>", created empty (a leftover of this pid is removed),
  // final_path's missing parents made and its trailing "/" dropped ("games/"
  // is the directory games); commit() renames it onto final_path.
  static Result<TempDir> for_output(const std::string& final_path);
  // "<parent>/<label><pid>-XXXXXX" (mkdtemp), after removing the directories
  // of that pattern whose process no longer exists. Never committed.
  static Result<TempDir> scratch(const std::string& parent, const std::string& label);

  TempDir() = default;
  TempDir(TempDir&& other) noexcept;
  TempDir& operator=(TempDir&& other) noexcept;
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() { remove(); }

  const std::string& path() const { return path_; }
  // Renames the directory onto its final path. An existing directory there
  // is refused, or with replace swapped out atomically (renameat2 exchange;
  // where the filesystem lacks it, moved aside first) and then removed.
  Status commit(bool replace = false);
  void remove();

 private:
  std::string path_, final_;
  TemporaryRegistration registration_;
  MadeDirectories parents_;
};

}  // namespace manaka
