// libFuzzer target: arbitrary text through the shogi SFEN and chess FEN
// readers. Each has a fast path that decides and an explaining path that
// names the refusal, so beyond never crashing the target checks that they
// agree with what was accepted: an accepted position prints a text that
// reads back to the same position, printing it again gives the same text,
// and a refusal never ends in the internal "a rule of the setup is broken".
//
//   make fuzz    (builds every fuzz/*_fuzz.cpp against the instrumented core)
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "chess/position.h"
#include "shogi/pack.h"
#include "shogi/position.h"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

void shogi_text(std::string_view text) {
  auto pos = manaka::shogi::Position::from_sfen(text);
  if (!pos.ok()) {
    // The message quotes the input, so only its end can be the fallback.
    check(!pos.status().message().ends_with("\": a rule of the setup is broken"));
    return;
  }
  const std::string sfen = pos->sfen();
  auto again = manaka::shogi::Position::from_sfen(sfen);
  check(again.ok());
  check(again->sfen() == sfen);
  check(manaka::shogi::pack(*again) == manaka::shogi::pack(*pos));
  check(again->key() == pos->key());
}

void chess_text(std::string_view text) {
  auto pos = manaka::chess::Position::from_fen(text);
  if (!pos.ok()) return;
  const std::string fen = pos->fen();
  auto again = manaka::chess::Position::from_fen(fen);
  check(again.ok());
  check(again->fen() == fen);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  shogi_text(text);
  chess_text(text);
  return 0;
}
