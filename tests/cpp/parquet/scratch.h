// Files of the parquet tests: a directory of this process's, and a file's bytes.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace manaka::parquet::testing {

inline std::filesystem::path scratch(const std::string& name) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("manaka_parquet_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir / name;
}

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

}  // namespace manaka::parquet::testing
