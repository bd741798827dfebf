#include "stream/selfplay_writer.h"

#include "stream/header.h"
#include "stream/validate.h"

namespace manaka::stream {

float outcome_for(GameResult result, uint8_t side) {
  switch (result) {
    case GameResult::BlackWin: return side == 0 ? 1.0f : -1.0f;
    case GameResult::WhiteWin: return side == 0 ? -1.0f : 1.0f;
    case GameResult::Draw: return 0.0f;
  }
  return 0.0f;
}

Result<SelfPlayWriter> SelfPlayWriter::create(const std::string& path) {
  MANAKA_ASSIGN_OR_RETURN(Writer writer, Writer::create(path, selfplay_header()));
  return SelfPlayWriter(std::move(writer));
}

Status SelfPlayWriter::begin_game() {
  if (in_game_) {
    return Status::invalid(writer_.path() + ": begin_game: a game of " + std::to_string(game_size_) +
                           " positions is still open; end_game() or discard_game() it first");
  }
  if (!writer_.is_open()) return Status::io(writer_.path() + ": begin_game after close");
  in_game_ = true;
  game_size_ = 0;
  return Status();
}

Status SelfPlayWriter::add_position(std::span<const uint8_t> packed, uint16_t ply, float value_q,
                                    std::span<const VisitedMove> moves) {
  const std::string where =
      writer_.path() + ": game " + std::to_string(games_) + ", position " + std::to_string(game_size_) + ": ";
  if (!in_game_) return Status::invalid(where + "add_position outside a game; call begin_game() first");
  if (packed.size() != kShogiPackedLen) {
    return Status::invalid(where + "packed is " + std::to_string(packed.size()) + " bytes, must be 96");
  }
  if (packed[kSideByte] > 1) {
    return Status::invalid(where + "side to move (byte 95) is " + std::to_string(packed[kSideByte]) +
                           ", must be 0 (Black) or 1 (White)");
  }
  if (game_.size() <= game_size_) game_.emplace_back();
  Record& rec = game_[game_size_];
  rec.ply = ply;
  rec.value_z = 0.0f;  // filled in by end_game
  rec.value_q = value_q;
  rec.packed.assign(packed.begin(), packed.end());
  rec.candidates.clear();
  for (const VisitedMove& m : moves) {
    if (m.visits != kNoVisits) rec.candidates.push_back(Candidate{m.mv, m.visits, kNoCp});
  }
  MANAKA_RETURN_NOT_OK(validate_record(writer_.header(), rec.view(), seen_).with_context(where));
  ++game_size_;
  return Status();
}

Status SelfPlayWriter::end_game(GameResult result) {
  if (!in_game_) {
    return Status::invalid(writer_.path() + ": end_game outside a game; call begin_game() first");
  }
  in_game_ = false;
  for (size_t i = 0; i < game_size_; ++i) {
    Record& rec = game_[i];
    rec.value_z = outcome_for(result, rec.packed[kSideByte]);
    MANAKA_RETURN_NOT_OK(writer_.write(rec));
  }
  game_size_ = 0;
  ++games_;
  return writer_.flush();
}

void SelfPlayWriter::discard_game() {
  in_game_ = false;
  game_size_ = 0;
}

Status SelfPlayWriter::close() {
  discard_game();
  return writer_.close();
}

}  // namespace manaka::stream
