#include "shard/set_publish.h"

#include <utility>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "core/fault.h"
#include "core/file.h"
#include "shard/shard_set.h"
#include "shard/format.h"

namespace manaka::shard {

namespace fs = std::filesystem;

namespace {

constexpr const char* kFault = "shard-set-rename";  // core/fault.h: before each rename of a publish

struct Journal {
  long pid = 0;
  uint64_t first = 0, end = 0, count = 0;
};

std::string aside_path(const std::string& shard, long pid) { return shard + ".old-" + std::to_string(pid); }

std::string temp_of(const std::string& shard, long pid) { return shard + ".tmp-" + std::to_string(pid); }

bool exists(const std::string& path) {
  std::error_code ec;
  return fs::symlink_status(path, ec).type() != fs::file_type::not_found;
}

Status rename_step(const std::string& from, const std::string& to) {
  fault_point(kFault);
  if (::rename(from.c_str(), to.c_str()) != 0) return io_error(from, ("cannot rename it to " + to).c_str(), errno);
  return Status();
}

Status write_journal(const std::string& path, const Journal& j) {
  char text[160];
  std::snprintf(text, sizeof text, "manaka shard set publish\npid %ld\nfirst %llu\nend %llu\ncount %llu\n", j.pid,
                static_cast<unsigned long long>(j.first), static_cast<unsigned long long>(j.end),
                static_cast<unsigned long long>(j.count));
  MANAKA_ASSIGN_OR_RETURN(AtomicFile file, AtomicFile::create(path));
  MANAKA_RETURN_NOT_OK(file.write_all(text, std::char_traits<char>::length(text)));
  fault_point(kFault);
  return file.commit();
}

Result<Journal> read_journal(const std::string& path) {
  MANAKA_ASSIGN_OR_RETURN(InputFile file, InputFile::open(path));
  char text[256] = {};
  MANAKA_ASSIGN_OR_RETURN(size_t n, file.read(text, sizeof text - 1));
  Journal j;
  unsigned long long first = 0, end = 0, count = 0;
  if (n == sizeof text - 1 ||
      std::sscanf(text, "manaka shard set publish\npid %ld\nfirst %llu\nend %llu\ncount %llu\n", &j.pid, &first, &end,
                  &count) != 4 ||
      j.pid <= 0 || first > end || end > count)
    return Status::invalid(path + ": not a shard set journal of manaka's; move it away to read the shards as they are");
  j.first = first, j.end = end, j.count = count;
  return j;
}

// The earlier files the set [first, end) of count replaces or outgrows.
Result<std::vector<std::string>> replaced_files(const std::string& prefix, const Journal& j) {
  MANAKA_ASSIGN_OR_RETURN(auto existing, existing_shards(prefix));
  std::vector<std::string> out;
  for (const auto& [index, path] : existing)
    if ((index >= j.first && index < j.end) || index >= j.count) out.push_back(path);
  return out;
}

// Step 4: the set-aside files (on several threads: see the header), then the journal.
Status remove_aside(const std::string& prefix, const std::string& journal, long pid, std::vector<std::string>* removed) {
  const fs::path p(prefix);
  const fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  const std::string suffix = ".old-" + std::to_string(pid), base = p.filename().string();
  std::vector<std::string> aside;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0 &&
        shard_file_index(std::string_view(name).substr(0, name.size() - suffix.size()), base) >= 0)
      aside.push_back(entry.path().string());
  }
  if (ec) return Status::io(dir.string() + ": cannot list: " + ec.message());
  std::sort(aside.begin(), aside.end());
  std::vector<std::error_code> errors(aside.size());
  {
    std::atomic<size_t> next{0};
    auto work = [&] {
      for (size_t i; (i = next.fetch_add(1)) < aside.size();) fs::remove(aside[i], errors[i]);
    };
    const size_t threads = std::min<size_t>(aside.size(), std::max(1u, std::thread::hardware_concurrency()));
    std::vector<std::jthread> pool;
    for (size_t t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
  }
  for (size_t i = 0; i < aside.size(); ++i) {
    if (errors[i]) return Status::io("cannot remove the earlier shard " + aside[i] + ": " + errors[i].message());
    if (removed) removed->push_back(aside[i].substr(0, aside[i].size() - suffix.size()));
  }
  fault_point(kFault);
  if (::unlink(journal.c_str()) != 0 && errno != ENOENT) return io_error(journal, "cannot remove the journal", errno);
  return Status();
}

}  // namespace

std::string publish_journal_path(const std::string& prefix) {
  const fs::path p(prefix);
  const fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  return (dir / ("." + p.filename().string() + ".publish")).string();
}

Result<Published> publish_shard_set(const std::string& prefix, uint64_t first, uint64_t count,
                                    std::vector<std::unique_ptr<PendingFile>>& pending) {
  const Journal j{static_cast<long>(::getpid()), first, first + pending.size(), count};
  const std::string journal = publish_journal_path(prefix);
  MANAKA_RETURN_NOT_OK(write_journal(journal, j));
  // From here on the temporaries belong to the journal: neither their
  // owners nor the signal cleanup may remove them (recover_shard_set renames them in).
  Published out;
  for (auto& file : pending) {
    file->keep();
    out.shards.push_back(file->final_path());
  }
  pending.clear();
  auto completed_later = [&](Status st) {
    return std::move(st).with_context(prefix + ": the new shard set is complete but not yet in place; the next pack on this "
                                    "prefix puts it in place: ");
  };
  MANAKA_ASSIGN_OR_RETURN(auto replaced, replaced_files(prefix, j));
  for (const std::string& path : replaced) {
    Status st = rename_step(path, aside_path(path, j.pid));
    if (!st.ok()) return completed_later(std::move(st));
  }
  for (const std::string& path : out.shards) {
    Status st = rename_step(temp_of(path, j.pid), path);
    if (!st.ok()) return completed_later(std::move(st));
  }
  Status st = remove_aside(prefix, journal, j.pid, &out.removed);
  if (!st.ok()) return completed_later(std::move(st));
  // The removed files that the new set names again were replaced, not removed.
  std::erase_if(out.removed, [&](const std::string& p) {
    return std::find(out.shards.begin(), out.shards.end(), p) != out.shards.end();
  });
  return out;
}

Result<uint64_t> recover_shard_set(const std::string& prefix) {
  const std::string journal = publish_journal_path(prefix);
  if (!exists(journal)) return uint64_t{0};
  MANAKA_ASSIGN_OR_RETURN(Journal j, read_journal(journal));
  auto context = [&](Status st) {
    return std::move(st).with_context(prefix + ": finishing the replacement of the shard set that process " +
                           std::to_string(j.pid) + " left half done: ");
  };
  // Step 2 for the indices whose new shard is still a temporary: an earlier
  // file under that name has not been set aside yet. Past the count, every
  // file is the earlier set's.
  MANAKA_ASSIGN_OR_RETURN(auto existing, existing_shards(prefix));
  for (const auto& [index, path] : existing) {
    const bool outgrown = index >= j.count;
    const bool replaced = index >= j.first && index < j.end && exists(temp_of(path, j.pid));
    if (!outgrown && !replaced) continue;
    Status st = rename_step(path, aside_path(path, j.pid));
    if (!st.ok()) return context(std::move(st));
  }
  uint64_t renamed = 0;
  for (uint64_t i = j.first; i < j.end; ++i) {
    const std::string path = shard_path(prefix, i);
    if (!exists(temp_of(path, j.pid))) continue;  // renamed in before the kill
    Status st = rename_step(temp_of(path, j.pid), path);
    if (!st.ok()) return context(std::move(st));
    ++renamed;
  }
  Status st = remove_aside(prefix, journal, j.pid, nullptr);
  if (!st.ok()) return context(std::move(st));
  return renamed;
}

}  // namespace manaka::shard
