#include "shard/shard_sources.h"

#include <glob.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <system_error>

#include "parquet/reader.h"
#include "shard/schema.h"

namespace manaka::shard {

namespace fs = std::filesystem;

namespace {

bool hidden(const fs::path& p) {
  const std::string name = p.filename().string();
  return name.empty() || name[0] == '.' || name[0] == '_';
}

bool has_glob(const std::string& s) { return s.find_first_of("*?[") != std::string::npos; }

Result<std::vector<std::string>> expand_glob(const std::string& pattern) {
  glob_t g{};
  const int rc = ::glob(pattern.c_str(), GLOB_ERR, nullptr, &g);
  std::vector<std::string> out(g.gl_pathv, g.gl_pathv + g.gl_pathc);
  ::globfree(&g);
  if (rc == GLOB_NOMATCH || (rc == 0 && out.empty())) return Status::io(pattern + ": matches no file");
  if (rc != 0) return Status::io(pattern + ": cannot expand the pattern (a directory could not be read)");
  return out;  // glob(3) sorts its matches
}

// The shards below dir, in name order at every level.
Status walk(const fs::path& dir, ShardSources& out, size_t& parquet_seen) {
  std::error_code ec;
  std::vector<fs::directory_entry> entries;
  for (const auto& e : fs::directory_iterator(dir, ec)) entries.push_back(e);
  if (ec) return Status::io(dir.string() + ": cannot list: " + ec.message());
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.path() < b.path(); });
  for (const auto& e : entries) {
    if (hidden(e.path())) continue;
    // Symlinked directories are not followed: a link back up would loop.
    if (e.is_directory(ec) && !e.is_symlink(ec)) {
      MANAKA_RETURN_NOT_OK(walk(e.path(), out, parquet_seen));
      continue;
    }
    if (!e.is_regular_file(ec) || e.path().extension() != ".parquet") continue;
    ++parquet_seen;
    const std::string path = e.path().string();
    // A file that cannot be read is an error, not something to leave out.
    MANAKA_ASSIGN_OR_RETURN(auto reader, parquet::ParquetFileReader::open(path));
    (check_schema(reader->fields(), path).ok() ? out.files : out.left_out).push_back(path);
  }
  return Status();
}

Status add_source(const std::string& source, bool from_glob, ShardSources& out) {
  std::error_code ec;
  const auto st = fs::status(source, ec);
  if (ec && st.type() != fs::file_type::not_found) return Status::io(source + ": cannot stat: " + ec.message());
  if (!fs::exists(st)) {
    if (!from_glob && has_glob(source)) {
      MANAKA_ASSIGN_OR_RETURN(std::vector<std::string> matches, expand_glob(source));
      for (const std::string& m : matches) MANAKA_RETURN_NOT_OK(add_source(m, true, out));
      return Status();
    }
    return Status::io(source + ": no such file or directory");
  }
  if (!fs::is_directory(st)) {
    out.files.push_back(source);
    return Status();
  }
  const size_t before = out.files.size(), left_before = out.left_out.size();
  size_t parquet_seen = 0;
  MANAKA_RETURN_NOT_OK(walk(source, out, parquet_seen));
  if (out.files.size() > before) return Status();
  if (parquet_seen == 0) return Status::invalid(source + ": a directory without *.parquet files, at any depth");
  return Status::invalid(source + ": " + std::to_string(parquet_seen) +
                         " parquet file(s) below this directory, none with the shard columns (packed, ply, value_z, "
                         "value_q, weight, candidates), e.g. " + out.left_out[left_before] +
                         (parquet_seen == 1 ? "" : " (a teacher corpus? `manaka teacher convert` takes those)"));
}

}  // namespace

Result<ShardSources> find_shards(const std::vector<std::string>& sources) {
  if (sources.empty()) return Status::invalid("no shards given");
  ShardSources out;
  for (const std::string& s : sources) MANAKA_RETURN_NOT_OK(add_source(s, false, out));
  // One file by two names (a directory and a file in it, "a/x" and "a/./x").
  std::set<std::string> seen;
  for (const std::string& f : out.files) {
    std::error_code ec;
    fs::path canon = fs::weakly_canonical(f, ec);
    const std::string key = ec ? f : canon.string();
    if (!seen.insert(key).second)
      return Status::invalid(f + ": named twice among the shards given (its rows would count twice)");
  }
  return out;
}

}  // namespace manaka::shard
