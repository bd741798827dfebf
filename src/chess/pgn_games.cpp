#include "chess/pgn_games.h"

#include <utility>

namespace manaka::chess {

PgnGames::PgnGames(std::vector<std::string> paths, PgnPolicy policy)
    : paths_(std::move(paths)), policy_(std::move(policy)) {
  for (const std::string& p : paths_) files_.push_back(PgnFileCount{p});
}

void PgnGames::keep(const std::string& message) {
  if (policy_.on_message) policy_.on_message(message);
  if (messages_.size() < policy_.keep_messages) messages_.push_back(message);
}

Result<bool> PgnGames::next(PgnGame& game) {
  for (;;) {
    if (!reader_) {
      if (next_file_ == paths_.size()) return false;
      file_ = next_file_++;
      bytes_before_ += offset_;
      offset_ = 0;
      auto opened = PgnReader::open(paths_[file_]);
      if (!opened.ok()) {
        files_[file_].unreadable = true;
        if (!policy_.skip_unreadable) return std::move(opened).take_status();
        keep(opened.status().message());
        continue;
      }
      reader_.emplace(std::move(*opened));
    }
    auto more = reader_->next(game);
    if (more.ok() && *more) {
      ++files_[file_].games_read;
      offset_ = game.offset;
      game.number += numbered_;
      return true;
    }
    if (more.ok()) {  // this file is done
      numbered_ += reader_->games();
      reader_.reset();
      continue;
    }
    if (more.status().kind() == ErrorKind::IO) {  // the rest of the file is lost
      files_[file_].unreadable = true;
      numbered_ += reader_->games();
      reader_.reset();
      if (!policy_.skip_unreadable) return std::move(more).take_status();
      keep(more.status().message());
      continue;
    }
    ++files_[file_].games_skipped;
    if (!policy_.skip_refused) return std::move(more).take_status();
    keep(more.status().message());
  }
}

uint64_t PgnGames::games_read() const {
  uint64_t n = 0;
  for (const auto& f : files_) n += f.games_read;
  return n;
}

uint64_t PgnGames::games_skipped() const {
  uint64_t n = 0;
  for (const auto& f : files_) n += f.games_skipped;
  return n;
}

bool PgnGames::any_unreadable() const {
  for (const auto& f : files_)
    if (f.unreadable) return true;
  return false;
}

}  // namespace manaka::chess
