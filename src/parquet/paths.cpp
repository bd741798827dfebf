#include "parquet/paths.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace manaka::parquet {

namespace fs = std::filesystem;

Result<std::vector<std::string>> expand_parquet_paths(const std::vector<std::string>& paths,
                                                      std::vector<std::string>* left_out) {
  std::vector<std::string> files;
  for (const std::string& p : paths) {
    std::error_code ec;
    auto st = fs::status(p, ec);
    // A missing file is not_found; any other error (a directory on the way
    // without search permission) is the operating system's reason.
    if (ec && st.type() != fs::file_type::not_found) return Status::io(p + ": cannot stat: " + ec.message());
    if (!fs::exists(st)) return Status::io(p + ": no such file or directory");
    if (!fs::is_directory(st)) {
      files.push_back(p);
      continue;
    }
    std::vector<std::string> found, other;
    for (const auto& entry : fs::directory_iterator(p, ec)) {
      if (!entry.is_regular_file()) continue;
      std::string name = entry.path().filename().string();
      const bool taken = !name.empty() && name[0] != '.' && name[0] != '_' && name.ends_with(".parquet");
      (taken ? found : other).push_back(entry.path().string());
    }
    if (ec) return Status::io(p + ": cannot list: " + ec.message());
    if (left_out) {
      std::sort(other.begin(), other.end());
      left_out->insert(left_out->end(), other.begin(), other.end());
    }
    if (found.empty()) return Status::invalid(p + ": a directory without *.parquet files");
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

}  // namespace manaka::parquet
