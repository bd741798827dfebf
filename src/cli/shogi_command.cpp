// `manaka shogi perft|pack|unpack`: the position core from the shell
// (`selfplay`: shogi_selfplay_command.cpp).
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>

#include "cli/checks.h"
#include "cli/commands.h"
#include "shogi/pack.h"
#include "shogi/perft.h"
#include "shogi/position.h"

namespace manaka::cli {
namespace {

std::string to_hex(std::span<const uint8_t> bytes) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (uint8_t b : bytes) {
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

Result<std::vector<uint8_t>> from_hex(const std::string& text) {
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  if (text.size() % 2) return Status::invalid("hex has an odd number of digits (" + std::to_string(text.size()) + ")");
  std::vector<uint8_t> out(text.size() / 2);
  for (size_t i = 0; i < out.size(); ++i) {
    int hi = nibble(text[2 * i]), lo = nibble(text[2 * i + 1]);
    if (hi < 0 || lo < 0)
      return Status::invalid("hex offset " + std::to_string(hi < 0 ? 2 * i : 2 * i + 1) +
                             ": expected a hex digit, got '" + text[hi < 0 ? 2 * i : 2 * i + 1] + "'");
    out[i] = static_cast<uint8_t>(hi << 4 | lo);
  }
  return out;
}

void add_perft(CLI::App* parent) {
  auto* cmd = parent->add_subcommand("perft", "count the leaf nodes of the legal move tree");
  struct Options {
    std::string sfen;
    int depth = 1;
    bool divide = false;
  };
  auto opt = std::make_shared<Options>();
  cmd->add_option("sfen", opt->sfen, "a SFEN or 'startpos'")->required();
  cmd->add_option("depth", opt->depth, "plies")->required()->transform(checks::integer(1, 12));
  cmd->add_flag("--divide", opt->divide, "print the count below each legal move");
  cmd->callback([opt] {
    const int depth = opt->depth;
    auto pos = shogi::Position::from_sfen(opt->sfen);
    exit_on_error(pos.status());
    auto start = std::chrono::steady_clock::now();
    uint64_t nodes = 0;
    if (opt->divide) {
      for (auto& [move, n] : shogi::perft_divide(*pos, depth)) {
        std::printf("%s: %llu\n", move.to_usi().c_str(), static_cast<unsigned long long>(n));
        nodes += n;
      }
    } else {
      nodes = shogi::perft(*pos, depth);
    }
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%llu\n", static_cast<unsigned long long>(nodes));
    std::fprintf(stderr, "perft %d: %llu nodes in %.3f s (%.1f M nodes/s)\n", depth,
                 static_cast<unsigned long long>(nodes), secs, secs > 0 ? nodes / secs / 1e6 : 0.0);
  });
}

void add_pack(CLI::App* parent) {
  auto* cmd = parent->add_subcommand("pack", "print a position's 96 packed bytes as hex");
  auto sfen = std::make_shared<std::string>();
  cmd->add_option("sfen", *sfen, "a SFEN or 'startpos'")->required();
  cmd->callback([sfen] {
    auto pos = shogi::Position::from_sfen(*sfen);
    exit_on_error(pos.status());
    std::printf("%s\n", to_hex(shogi::pack(*pos)).c_str());
  });
}

// The packed bytes hold no move number, so it comes from --ply (MPK1's
// 0-based ply: the SFEN's move number is ply + 1).
void add_unpack(CLI::App* parent) {
  auto* cmd = parent->add_subcommand("unpack", "print the SFEN of 96 packed bytes given as hex");
  struct Options {
    std::string hex;
    int ply = 0;
  };
  auto opt = std::make_shared<Options>();
  cmd->add_option("hex", opt->hex, "192 hex digits")->required();
  cmd->add_option("--ply", opt->ply, "the position's 0-based ply, as an MPK1 record's; the SFEN's move number is ply + 1")
      ->capture_default_str()
      ->transform(checks::integer(0, 65535));
  cmd->footer("The packed bytes hold no move number: without --ply the SFEN says move 1.");
  cmd->callback([opt] {
    auto bytes = from_hex(opt->hex);
    exit_on_error(bytes.status());
    auto pos = shogi::unpack(*bytes);
    exit_on_error(pos.status());
    const std::string sfen = pos->sfen();
    std::printf("%s%d\n", sfen.substr(0, sfen.rfind(' ') + 1).c_str(), opt->ply + 1);
  });
}

}  // namespace

void add_shogi_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("shogi", "shogi positions and self-play: perft, pack, unpack, selfplay");
  cmd->require_subcommand(1);
  add_perft(cmd);
  add_pack(cmd);
  add_unpack(cmd);
  add_shogi_selfplay(cmd);
}

}  // namespace manaka::cli
