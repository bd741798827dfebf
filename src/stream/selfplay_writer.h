// The self-play writer: buffers one game, then writes all its records at
// once with value_z filled in from each record's own side to move.
//
//   MANAKA_ASSIGN_OR_RETURN(auto out, stream::SelfPlayWriter::create("sp.mpk"));
//   MANAKA_RETURN_NOT_OK(out.begin_game());
//   for each searched position:
//     MANAKA_RETURN_NOT_OK(out.add_position(packed, ply, root_q, visited));
//   MANAKA_RETURN_NOT_OK(out.end_game(stream::GameResult::BlackWin));
//
// The stream's header is selfplay_header(): policy_source 0 (visits), pov 0
// (side to move), packed_len 96 and every centipawn-scale field 0. Every
// candidate carries NO_CP.
//
// Choices:
//  - begin_game() while a game is open is an error (nothing is discarded
//    silently); call discard_game() to drop the open game first.
//  - A game never ended writes nothing: close() and the destructor discard it.
//  - add_position() validates at once (with value_z still unknown), so an
//    error points at the call that caused it; moves with 0 visits are not
//    stored (a move the search never reached is not a candidate).
//  - end_game() writes the whole game and flushes, so the file on disk holds
//    whole games only (barring an I/O error).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/status.h"
#include "stream/format.h"
#include "stream/validate.h"
#include "stream/writer.h"

namespace manaka::stream {

enum class GameResult : uint8_t { BlackWin, WhiteWin, Draw };

struct VisitedMove {
  uint16_t mv;
  uint32_t visits;
};

// value_z of a position whose side to move is side (0 Black, 1 White).
float outcome_for(GameResult result, uint8_t side);

class SelfPlayWriter {
 public:
  // The side to move is the last byte of the 96-byte position.
  static constexpr size_t kSideByte = kShogiPackedLen - 1;

  static Result<SelfPlayWriter> create(const std::string& path);

  SelfPlayWriter(SelfPlayWriter&&) noexcept = default;
  SelfPlayWriter& operator=(SelfPlayWriter&&) noexcept = default;
  ~SelfPlayWriter() = default;  // an open game is discarded; the stream closed

  Status begin_game();
  // packed: the 96-byte position (side byte 0 or 1); value_q: the search's
  // root value for the side to move, in [-1, 1]; moves: the visited moves.
  Status add_position(std::span<const uint8_t> packed, uint16_t ply, float value_q,
                      std::span<const VisitedMove> moves);
  Status end_game(GameResult result);
  void discard_game();

  // Discards an open game, then closes the stream.
  Status close();

  bool in_game() const { return in_game_; }
  size_t positions_in_game() const { return game_size_; }
  uint64_t games_written() const { return games_; }
  uint64_t records_written() const { return writer_.records_written(); }
  const Writer& writer() const { return writer_; }

 private:
  explicit SelfPlayWriter(Writer writer) : writer_(std::move(writer)) {}

  Writer writer_;
  bool in_game_ = false;
  size_t game_size_ = 0;
  std::vector<Record> game_;  // reused across games: records [0, game_size_)
  MoveSeen seen_;             // add_position's rule 9 working set
  uint64_t games_ = 0;
};

}  // namespace manaka::stream
