// libFuzzer target: arbitrary bytes through the PGN reader, from memory.
// Beyond never crashing, every game it yields must replay legally from its
// starting position (null moves, MOVE_NONE, only where not in check), each move's SAN must read back to the move, and every
// call to next() must consume input (the reader ends within as many games as
// there are bytes, refused games included).
//
//   make fuzz    (builds every fuzz/*_fuzz.cpp against the instrumented core)
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "chess/pgn.h"
#include "chess/san.h"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace manaka::chess;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  PgnReader reader = PgnReader::from_memory(bytes, "fuzz.pgn");
  PgnGame game;
  for (size_t calls = 0;; ++calls) {
    check(calls <= size + 1);
    auto more = reader.next(game);
    if (!more.ok()) continue;
    if (!*more) break;
    check(game.result == "1-0" || game.result == "0-1" || game.result == "1/2-1/2" || game.result == "*");
    check(game.moves.size() <= PGN_MAX_PLIES && game.tags.size() <= PGN_MAX_TAGS);
    Position pos = game.start;
    for (Move m : game.moves) {
      if (m == MOVE_NONE) {  // a null move: never in check (the reader refuses that game)
        check(!pos.in_check() && after_null_move(pos).ok());
        play_mainline_move(pos, m);
        continue;
      }
      check(pos.is_legal(m));
      auto back = parse_san(pos, to_san(pos, m));
      check(back.ok() && *back == m);
      pos.do_move(m);
    }
  }
  check(reader.games() <= size);
  auto after = reader.next(game);
  check(after.ok() && !*after);
  return 0;
}
