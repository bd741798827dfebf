// Helpers shared by the engine and teacher tests: the scripted fake engine
// (tests/fixtures/engine/fake_usi.sh), the real fairy-stockfish when it is
// installed, and a scratch directory per test.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "engine/usi_engine.h"

namespace manaka::testing {

inline const std::string kFairyStockfish = "/usr/games/fairy-stockfish";

inline bool have_fairy_stockfish() { return ::access(kFairyStockfish.c_str(), X_OK) == 0; }

inline std::string fake_engine_path() {
  return std::string(MANAKA_SOURCE_DIR) + "/tests/fixtures/engine/fake_usi.sh";
}

// A fresh directory under the system's temporary directory, named after the
// running test and removed with the object.
class Scratch {
 public:
  Scratch() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           ("manaka_" + std::string(info->test_suite_name()) + "_" + info->name() + "_" +
            std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  ~Scratch() { std::filesystem::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

 private:
  std::filesystem::path dir_;
};

// The fake engine in `mode` with its arguments.
inline engine::EngineOptions fake_engine(std::vector<std::string> args) {
  engine::EngineOptions o;
  o.path = fake_engine_path();
  o.args = std::move(args);
  o.handshake_timeout_ms = 10'000;
  o.search_timeout_ms = 10'000;
  return o;
}

}  // namespace manaka::testing
