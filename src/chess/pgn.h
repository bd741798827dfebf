// PGN: a streaming reader of chess game archives, one game at a time.
//
// The reader pulls blocks of PGN_BLOCK_BYTES from a ByteSource (a file, a
// zstd-compressed file, or memory) and keeps only the game it is reading,
// so memory stays constant whatever the archive's size. For each game it
// yields the tags in file order, the starting position, the mainline moves
// and the result token. It skips comments ({...} and ; to the end of the
// line), recursive variations ((...), nested), NAGs ($n), annotation glyphs
// (!, ?, !!, ?!), move numbers (12. and 12...) and escape lines (% in
// column 1). A UTF-8 byte-order mark at the start is skipped.
//
// The starting position is the FEN tag's unless SetUp is "0" (the FEN tag
// is taken with SetUp "1", and also without SetUp, as python-chess does);
// otherwise the initial position. A Variant tag other than "Standard",
// "Chess" or "From Position" is refused (the rules here are standard
// chess only).
//
// A null move (python-chess's tokens: "--", "Z0" as ChessBase writes it,
// "0000", "@@@@") is read as python-chess reads it: MOVE_NONE in moves,
// the side to move passed, the en-passant square cleared, the counters
// advanced, castling rights kept. A null move while in check is refused
// (python-chess reads it, but the position after it has the king of the
// side not to move attacked, which a Position cannot hold). A position
// after a null move has no legal history: a consumer that needs one stops
// at the first null move (vpd/sampler.h does).
//
// A game ends at its result token (1-0, 0-1, 1/2-1/2, *). A game that
// cannot be read (a move that is not SAN or not legal, a malformed tag, a
// bad FEN, a "[" before the result token, a cap below exceeded, the input
// ending inside it) is returned by next() as an error and skipped whole:
// the reader reads on to the game's end first, so the following call reads
// the next game. The message names the source, the game number, the line
// and byte offset of the offending text, the ply, and the text:
//
//   games.pgn: game 3, line 17, byte 1234, ply 22: illegal san: 'Nf4' in
//   <fen>: no legal knight move to f4
//
// Byte offsets and lines count the decompressed bytes, from 0 and 1.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "chess/move.h"
#include "chess/position.h"
#include "core/byte_source.h"
#include "core/status.h"

namespace manaka::chess {

// Caps that bound a game's memory; a game beyond one is refused. The
// longest game the 75-move rule allows is under 9,000 moves.
constexpr size_t PGN_BLOCK_BYTES = 1 << 16;
constexpr size_t PGN_MAX_PLIES = 1 << 16;
constexpr size_t PGN_MAX_TAGS = 1024;
constexpr size_t PGN_MAX_TAG_NAME_BYTES = 255;
constexpr size_t PGN_MAX_TAG_VALUE_BYTES = 1 << 16;
constexpr size_t PGN_MAX_TOKEN_BYTES = 64;  // a move text longer than this is not SAN

struct PgnGame {
  uint64_t number = 0;  // 1-based in the source, refused games counted too
  uint64_t line = 0;    // where the game's first byte is
  uint64_t offset = 0;
  std::vector<std::pair<std::string, std::string>> tags;  // in file order
  Position start = Position::startpos();
  std::vector<Move> moves;  // the mainline, each legal in turn or MOVE_NONE (a null move)
  std::string result;       // the result token: "1-0", "0-1", "1/2-1/2" or "*"

  // The value of the first tag with this name, or nullptr.
  const std::string* tag(std::string_view name) const;
};

// The position after a null move (see the top of this file); refused in check.
Result<Position> after_null_move(const Position& pos);
// Plays one move of a PgnGame's mainline: do_move, or the null move for
// MOVE_NONE.
void play_mainline_move(Position& pos, Move m);

// Where a reader starts in its source's numbering: a piece of a larger file
// cut at a game boundary (vpd/ingest.h), so that its messages name lines
// and bytes of the whole file. The defaults are a whole source.
struct PgnStart {
  uint64_t line = 1;
  uint64_t offset = 0;  // a byte-order mark is looked for only at offset 0
};

class PgnReader {
 public:
  // Opens a file; one that starts with the zstd magic number (28 B5 2F FD,
  // whatever its name, as Lichess's .pgn.zst) is decompressed as it is read,
  // frame after frame.
  static Result<PgnReader> open(const std::string& path);
  // Reads bytes that outlive the reader; name is what messages call them.
  static PgnReader from_memory(std::string_view bytes, std::string name = "<memory>", PgnStart start = {});
  PgnReader(std::unique_ptr<ByteSource> source, std::string name);

  PgnReader(PgnReader&&) noexcept;
  PgnReader& operator=(PgnReader&&) noexcept;
  ~PgnReader();

  // Reads the next game into game: true when one was read, false at the end
  // of the input. An error is a game that was refused (see the top of this
  // file) and skipped; call next() again for the following one. An error of
  // kind IO is the source failing (the file, or its zstd stream: corrupt or
  // cut short), with the game it was in lost; after it, and after a game the
  // input ends inside (kind Truncated), next() returns false.
  Result<bool> next(PgnGame& game);

  // Games started so far, read or refused.
  uint64_t games() const;
  // Whether next() returned false at the end of the input between two games
  // (not inside one, not on a source error): where the next piece of a cut
  // file can start.
  bool ended_between_games() const;
  const std::string& name() const;

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace manaka::chess
