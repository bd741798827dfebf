#include "shard/shard_set.h"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <map>

#include "core/file.h"
#include "parquet/reader.h"
#include "shard/set_publish.h"
#include "shard/shard_reader.h"

namespace manaka::shard {

namespace fs = std::filesystem;

namespace {

constexpr const char* kExt = ".parquet";

struct Member {
  std::string path, id;
  uint64_t index = 0, count = 0;
};

}  // namespace

int64_t shard_file_index(std::string_view name, std::string_view base) {
  const std::string_view ext = kExt;
  if (name.size() < base.size() + 1 + 5 + ext.size()) return -1;
  if (name.substr(0, base.size()) != base || name[base.size()] != '-') return -1;
  if (name.substr(name.size() - ext.size()) != ext) return -1;
  const std::string digits(name.substr(base.size() + 1, name.size() - base.size() - 1 - ext.size()));
  if (digits.size() > 18 || digits.find_first_not_of("0123456789") != std::string::npos) return -1;
  return std::stoll(digits);
}

std::vector<std::pair<std::string, std::string>> set_footer(uint64_t set_id, uint64_t index, uint64_t count,
                                                            uint64_t rows) {
  char id[24];
  std::snprintf(id, sizeof id, "%016" PRIx64, set_id);
  return {{kSetIdKey, id},
          {kSetShardKey, std::to_string(index)},
          {kSetShardsKey, std::to_string(count)},
          {kSetRowsKey, std::to_string(rows)}};
}

std::string shard_prefix(const std::string& path) {
  const fs::path p(path);
  const std::string name = p.filename().string();
  const size_t dash = name.rfind('-');
  if (dash == std::string::npos || dash == 0) return "";
  if (shard_file_index(name, name.substr(0, dash)) < 0) return "";
  return (p.parent_path() / name.substr(0, dash)).string();
}

Result<std::vector<std::pair<uint64_t, std::string>>> existing_shards(const std::string& prefix) {
  const fs::path p(prefix);
  const fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  const std::string base = p.filename().string();
  std::vector<std::pair<uint64_t, std::string>> out;
  std::error_code ec;
  if (!fs::exists(dir, ec)) return out;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const int64_t index = shard_file_index(entry.path().filename().string(), base);
    if (index >= 0) out.emplace_back(uint64_t(index), entry.path().string());
  }
  if (ec) return Status::io(dir.string() + ": cannot list: " + ec.message());
  std::sort(out.begin(), out.end());
  return out;
}

Status check_shard_sets(const std::vector<std::string>& paths, bool require_complete) {
  std::map<std::string, std::vector<Member>> by_prefix;
  for (const std::string& path : paths) {
    MANAKA_ASSIGN_OR_RETURN(FooterPairs footer, parquet::read_parquet_footer(path));
    Member m{path, footer_value(footer, kSetIdKey)};
    if (m.id.empty()) continue;  // no set recorded: nothing to check
    const std::string shard = footer_value(footer, kSetShardKey), count = footer_value(footer, kSetShardsKey);
    if (shard.empty() || count.empty() || shard.find_first_not_of("0123456789") != std::string::npos ||
        count.find_first_not_of("0123456789") != std::string::npos || shard.size() > 18 || count.size() > 18)
      return Status::invalid(path + ": footer names set " + m.id + " without a valid shard index and count");
    m.index = std::stoull(shard);
    m.count = std::stoull(count);
    by_prefix[shard_prefix(path)].push_back(std::move(m));
  }
  for (auto& [prefix, members] : by_prefix) {
    const std::string name = prefix.empty() ? std::string("files") : prefix + "-*.parquet";
    std::error_code ec;
    const bool interrupted = !prefix.empty() && fs::exists(publish_journal_path(prefix), ec);
    const std::string repair = interrupted ? " (a pack killed while it put its set in place: run `manaka pack` on "
                                             "this prefix again and it finishes the replacement first)"
                                           : "";
    for (const Member& m : members) {
      if (m.id != members[0].id) {
        return Status::invalid(name + ": a mixed shard set: " + members[0].path + " is of set " + members[0].id +
                               ", " + m.path + " of set " + m.id +
                               (interrupted ? repair : " (an interrupted or concurrent pack); pack again with --overwrite"));
      }
    }
    const Member& first = members[0];
    std::vector<bool> seen(std::min<uint64_t>(first.count, 1u << 20), false);
    for (const Member& m : members) {
      if (m.count != first.count || m.index >= first.count) {
        return Status::invalid(m.path + ": shard " + std::to_string(m.index) + " of " + std::to_string(m.count) +
                               " does not fit set " + first.id + " of " + std::to_string(first.count) + " shards");
      }
      if (m.index < seen.size()) {
        if (seen[m.index]) return Status::invalid(m.path + ": shard " + std::to_string(m.index) + " given twice");
        seen[m.index] = true;
      }
    }
    if (require_complete && members.size() != first.count) {
      std::string missing;
      int listed = 0;
      for (uint64_t i = 0; i < seen.size() && listed < 5; ++i) {
        if (seen[i]) continue;
        missing += (listed++ ? ", " : "") + std::to_string(i);
      }
      return Status::invalid(name + ": an incomplete shard set: " + std::to_string(members.size()) + " of its " +
                             std::to_string(first.count) + " shards (set " + first.id + "; missing " + missing +
                             (members.size() + 5 < first.count ? ", ..." : "") + ")" + repair);
    }
  }
  return Status();
}

Result<FileLock> lock_shard_set(const std::string& prefix) {
  const fs::path p(prefix);
  const fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  return FileLock::acquire((dir / ("." + p.filename().string() + ".lock")).string(),
                           prefix + ": another run is writing shards of this prefix");
}

}  // namespace manaka::shard
