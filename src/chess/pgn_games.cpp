#include "chess/pgn_games.h"

#include <utility>

namespace manaka::chess {

namespace {
constexpr std::array<const char*, 4> kResultTokens = {"1-0", "0-1", "1/2-1/2", "*"};
}  // namespace

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
      plies_ += game.moves.size();
      for (size_t r = 0; r < kResultTokens.size(); ++r) results_[r] += game.result == kResultTokens[r];
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

std::string PgnGames::summary() const {
  std::string out = "games   " + std::to_string(games_read()) + "\nplies   " + std::to_string(plies_) +
                    "\nskipped " + std::to_string(games_skipped()) + "\nresults";
  for (size_t r = 0; r < kResultTokens.size(); ++r)
    out += std::string(" ") + kResultTokens[r] + ": " + std::to_string(results_[r]) + (r + 1 < kResultTokens.size() ? "," : "");
  out += '\n';
  if (!messages_.empty()) {
    out += "errors (first " + std::to_string(messages_.size()) + "):\n";
    for (const auto& e : messages_) out += "  " + e + '\n';
  }
  return out;
}

void append_position_lines(const PgnGame& game, std::string& out) {
  const std::string prefix = std::to_string(game.number) + '\t';
  Position pos = game.start;
  for (size_t ply = 0; ply < game.moves.size(); ++ply) {
    out += prefix;
    out += std::to_string(ply);
    out += '\t';
    out += pos.fen();
    out += '\t';
    out += game.result;
    out += '\n';
    play_mainline_move(pos, game.moves[ply]);
  }
}

}  // namespace manaka::chess
