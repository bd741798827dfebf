// Helpers shared by the engine and teacher tests: the scripted fake engine
// (tests/fixtures/engine/fake_engine.sh, USI or UCI), the real fairy-stockfish
// and stockfish when they are installed, and a scratch directory per test.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "engine/engine.h"

namespace manaka::testing {

inline const std::string kFairyStockfish = "/usr/games/fairy-stockfish";
inline const std::string kStockfish = "/usr/games/stockfish";

inline bool have_fairy_stockfish() { return ::access(kFairyStockfish.c_str(), X_OK) == 0; }
inline bool have_stockfish() { return ::access(kStockfish.c_str(), X_OK) == 0; }

inline std::string fake_engine_path() {
  return std::string(MANAKA_SOURCE_DIR) + "/tests/fixtures/engine/fake_engine.sh";
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

// The fake engine in `mode` with its arguments, spoken to in `protocol`.
inline engine::EngineOptions fake_engine(std::vector<std::string> args,
                                         engine::Protocol protocol = engine::Protocol::Usi) {
  engine::EngineOptions o;
  o.path = fake_engine_path();
  o.args = std::move(args);
  o.protocol = protocol;
  o.handshake_timeout_ms = 10'000;
  o.search_timeout_ms = 10'000;
  return o;
}

// Real stockfish as a UCI engine, with short deadlines.
inline engine::EngineOptions stockfish() {
  engine::EngineOptions o;
  o.path = kStockfish;
  o.protocol = engine::Protocol::Uci;
  o.handshake_timeout_ms = 10'000;
  o.search_timeout_ms = 10'000;
  return o;
}

}  // namespace manaka::testing
