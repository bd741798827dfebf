// The games of several PGN files, read in turn under one policy for the
// games that cannot be read: what `manaka chess pgn`, `manaka vpd build` and
// manaka.chess.read_pgn share.
//
//   a refused game    (a rule broken: bad SAN, an illegal move, a bad tag)
//                     skipped and counted with its file, its message kept
//                     among the first keep_messages; or, with skip_refused
//                     false, returned as the error (reading may go on)
//   an unreadable file (cannot be opened; its zstd stream corrupt or cut
//                     short): the error, which stops the reading; or, with
//                     skip_unreadable, counted and kept like a refusal and
//                     the next file read
// Games are numbered from 1 across the files in order, refused games
// counted, so a number names one game of the whole input.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "chess/pgn.h"
#include "core/status.h"

namespace manaka::chess {

struct PgnPolicy {
  bool skip_refused = true;
  bool skip_unreadable = false;
  size_t keep_messages = 10;
  // Called with every message kept or not (a command printing them as they come).
  std::function<void(const std::string&)> on_message;
};

struct PgnFileCount {
  std::string path;
  uint64_t games_read = 0;
  uint64_t games_skipped = 0;
  bool unreadable = false;
};

class PgnGames {
 public:
  PgnGames(std::vector<std::string> paths, PgnPolicy policy = {});

  // The next game that reads; false at the end of the last file. game.number
  // is the number across files.
  Result<bool> next(PgnGame& game);

  // The file the last game came from (an index into files()).
  size_t file() const { return file_; }
  // Bytes of the input behind the last game: whole files done, then the
  // current file up to the game's first byte.
  uint64_t bytes_done() const { return bytes_before_ + offset_; }
  const std::vector<PgnFileCount>& files() const { return files_; }
  const std::vector<std::string>& messages() const { return messages_; }
  uint64_t games_read() const;
  uint64_t games_skipped() const;
  bool any_unreadable() const;
  // Plies of the games read, and their result tokens: 1-0, 0-1, 1/2-1/2, *.
  uint64_t plies() const { return plies_; }
  const std::array<uint64_t, 4>& results() const { return results_; }

  // What `manaka chess pgn` prints when done: games, plies, skipped games,
  // the results, and the messages kept.
  std::string summary() const;

 private:
  void keep(const std::string& message);

  std::vector<std::string> paths_;
  PgnPolicy policy_;
  std::vector<PgnFileCount> files_;
  std::vector<std::string> messages_;
  std::optional<PgnReader> reader_;
  size_t file_ = 0;
  size_t next_file_ = 0;
  uint64_t numbered_ = 0, bytes_before_ = 0, offset_ = 0;
  uint64_t plies_ = 0;
  std::array<uint64_t, 4> results_{};
};

// "game<TAB>ply<TAB>fen<TAB>result" for the position before each ply of
// game, appended to out (`manaka chess pgn --positions`).
void append_position_lines(const PgnGame& game, std::string& out);

}  // namespace manaka::chess
