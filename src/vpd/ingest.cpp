#include "vpd/ingest.h"

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>

#include "core/byte_source.h"

namespace manaka::vpd {
namespace {

constexpr size_t READ_BYTES = size_t{1} << 20;

// One piece of an input, cut at a likely game boundary.
struct Piece {
  uint64_t seq = 0;
  uint32_t file = 0;
  std::string bytes;
  chess::PgnStart start;
  bool last = false;  // the last piece of its file
  Status error;       // the file could not be opened, or failed after these bytes
};

// A game read, or a game refused, in input order.
struct Entry {
  bool refused = false;
  uint64_t number = 0;  // the reader's, from 1 in the piece
  GameCandidates game;
  std::string message;
};

struct Parsed {
  Piece piece;
  std::vector<Entry> entries;
  uint64_t games = 0;  // started in the piece
  bool between_games = false;
};

// Reads one piece (or joined pieces) as PgnGames reads a file: refusals of
// every kind but IO are entries (a memory source has no IO).
void parse(Parsed& p, const std::string& name) {
  p.entries.clear();
  chess::PgnReader reader = chess::PgnReader::from_memory(p.piece.bytes, name, p.piece.start);
  chess::PgnGame game;
  for (;;) {
    auto more = reader.next(game);
    Entry e;
    if (more.ok()) {
      if (!*more) break;
      e.number = game.number;
      candidates_of(game, game.number, p.piece.file, e.game);
    } else {
      e.refused = true;
      e.number = reader.games();
      e.message = more.status().message();
    }
    p.entries.push_back(std::move(e));
  }
  p.games = reader.games();
  p.between_games = reader.ended_between_games();
}

// The reader's "game N, " written with the number of the game in its file.
std::string renumbered(const std::string& message, uint64_t local, uint64_t in_file) {
  if (local == in_file) return message;
  const std::string from = ": game " + std::to_string(local) + ", ";
  const size_t at = message.find(from);
  if (at == std::string::npos) return message;
  return message.substr(0, at) + ": game " + std::to_string(in_file) + ", " + message.substr(at + from.size());
}

// Where bytes may be cut, looking at positions from `from` on: just before
// the last '[' that starts a line after an empty one (spaces and '\r'
// allowed); 0 when nowhere.
size_t last_boundary(const std::string& bytes, size_t from) {
  for (size_t p = bytes.size(); p-- > std::max<size_t>(from, 1);) {
    if (bytes[p] != '[' || bytes[p - 1] != '\n') continue;
    size_t q = p - 1;  // the '\n' ending the line before
    while (q > 0 && (bytes[q - 1] == ' ' || bytes[q - 1] == '\t' || bytes[q - 1] == '\r')) --q;
    if (q > 0 && bytes[q - 1] == '\n') return p;
  }
  return 0;
}

class Pipeline {
 public:
  Pipeline(const std::vector<std::string>& inputs, const IngestOptions& o) : inputs_(inputs), o_(o) {
    limit_ = size_t(o.threads) * 2 + 2;
    reader_ = std::thread([this] { read_inputs(); });
    for (int i = 0; i < o.threads; ++i) workers_.emplace_back([this] { work(); });
  }
  ~Pipeline() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    changed_.notify_all();
    reader_.join();
    for (auto& w : workers_) w.join();
  }

  // The next piece in input order, read; false when the inputs are done.
  bool next(Parsed& out) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return results_.count(next_seq_) || (reading_done_ && next_seq_ == pieces_made_); });
    auto it = results_.find(next_seq_);
    if (it == results_.end()) return false;
    out = std::move(it->second);
    results_.erase(it);
    ++next_seq_;
    --in_flight_;
    changed_.notify_all();
    return true;
  }

 private:
  // Queues a piece, waiting while too many are in flight; false when stopping.
  bool push(Piece&& piece) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return stopping_ || in_flight_ < limit_; });
    if (stopping_) return false;
    piece.seq = pieces_made_++;
    ++in_flight_;
    queue_.push_back(std::move(piece));
    changed_.notify_all();
    return true;
  }

  void read_inputs() {
    for (uint32_t f = 0; f < inputs_.size() && read_file(f);) ++f;
    std::lock_guard lock(mutex_);
    reading_done_ = true;
    changed_.notify_all();
  }

  // Cuts one input into pieces; false when the pipeline stops or the input failed.
  bool read_file(uint32_t f) {
    Piece piece;
    piece.file = f;
    auto source = open_byte_source(inputs_[f]);
    if (!source.ok()) {
      piece.last = true;
      piece.error = std::move(source).take_status();
      push(std::move(piece));
      return false;
    }
    std::string pending;
    size_t scanned = 0;
    chess::PgnStart start;
    std::vector<char> block(READ_BYTES);
    for (;;) {
      auto got = (*source)->read(block.data(), block.size());
      if (!got.ok() || *got == 0) {
        piece.bytes = std::move(pending);
        piece.start = start;
        piece.last = true;
        // As PgnReader reports its source failing.
        if (!got.ok()) piece.error = Status::io(got.status().message());
        const bool failed = !got.ok();
        return push(std::move(piece)) && !failed;
      }
      pending.append(block.data(), *got);
      if (pending.size() < o_.chunk_bytes) continue;
      // Positions before `scanned` hold no boundary (a boundary missed only
      // makes a piece longer).
      const size_t cut = last_boundary(pending, scanned);
      scanned = pending.size();
      if (cut == 0) continue;
      Piece out;
      out.file = f;
      out.start = start;
      out.bytes = pending.substr(0, cut);
      pending.erase(0, cut);
      scanned = pending.size();
      start.offset += cut;
      start.line += uint64_t(std::count(out.bytes.begin(), out.bytes.end(), '\n'));
      if (!push(std::move(out))) return false;
    }
  }

  void work() {
    for (;;) {
      Parsed p;
      {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
        if (stopping_) return;
        p.piece = std::move(queue_.front());
        queue_.pop_front();
      }
      if (p.piece.error.ok() || !p.piece.bytes.empty()) parse(p, inputs_[p.piece.file]);
      std::lock_guard lock(mutex_);
      const uint64_t seq = p.piece.seq;
      results_.emplace(seq, std::move(p));
      changed_.notify_all();
    }
  }

  const std::vector<std::string>& inputs_;
  IngestOptions o_;
  size_t limit_ = 0;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Piece> queue_;
  std::map<uint64_t, Parsed> results_;
  uint64_t pieces_made_ = 0, next_seq_ = 0;
  size_t in_flight_ = 0;
  bool reading_done_ = false, stopping_ = false;
  std::thread reader_;
  std::vector<std::thread> workers_;
};

void keep(IngestTally& t, size_t limit, std::string message) {
  if (t.messages.size() < limit) t.messages.push_back(std::move(message));
}

Status ingest_one_thread(const std::vector<std::string>& inputs, const IngestOptions& o, Sampler& sampler,
                         IngestTally& tally, Progress& progress) {
  chess::PgnGames games(inputs, {.skip_refused = true, .skip_unreadable = false, .keep_messages = o.keep_messages});
  chess::PgnGame game;
  for (;;) {
    MANAKA_ASSIGN_OR_RETURN(bool more, games.next(game));
    if (!more) break;
    sampler.add_game(game, game.number, uint32_t(games.file()));
    progress.update(games.bytes_done(), sampler.counts().positions_considered);
  }
  tally.files = games.files();
  tally.messages = games.messages();
  tally.games_read = games.games_read();
  tally.games_skipped = games.games_skipped();
  return {};
}

Status ingest_threads(const std::vector<std::string>& inputs, const IngestOptions& o, Sampler& sampler,
                      IngestTally& tally, Progress& progress) {
  for (const std::string& path : inputs) tally.files.push_back(chess::PgnFileCount{path});
  Pipeline pipeline(inputs, o);
  uint64_t numbered = 0;       // games of the files before this one
  uint64_t in_file = 0;        // games of this file's pieces before this one
  uint32_t file = 0;
  uint64_t bytes_done = 0;
  Parsed p;
  while (pipeline.next(p)) {
    if (p.piece.file != file) {
      numbered += in_file;
      in_file = 0;
      file = p.piece.file;
    }
    // A cut inside a game or a comment: read the piece again joined to the
    // following ones until it ends between games or its file ends.
    while (!p.between_games && !p.piece.last) {
      Parsed next;
      if (!pipeline.next(next)) break;  // not reached: the file's last piece follows
      p.piece.bytes += next.piece.bytes;
      p.piece.last = next.piece.last;
      p.piece.error = std::move(next.piece.error);
      parse(p, inputs[file]);
    }
    chess::PgnFileCount& count = tally.files[file];
    for (Entry& e : p.entries) {
      if (e.refused) {
        ++count.games_skipped;
        keep(tally, o.keep_messages, renumbered(e.message, e.number, in_file + e.number));
        continue;
      }
      ++count.games_read;
      e.game.game_number = numbered + in_file + e.number;
      sampler.add(e.game);
    }
    in_file += p.games;
    bytes_done += p.piece.bytes.size();
    progress.update(bytes_done, sampler.counts().positions_considered);
    if (!p.piece.error.ok()) {
      count.unreadable = true;
      return std::move(p.piece.error);
    }
  }
  for (const auto& f : tally.files) {
    tally.games_read += f.games_read;
    tally.games_skipped += f.games_skipped;
  }
  return {};
}

}  // namespace

Status ingest(const std::vector<std::string>& inputs, const IngestOptions& options, Sampler& sampler,
              IngestTally& tally, Progress& progress) {
  tally = IngestTally{};
  if (options.threads <= 1) return ingest_one_thread(inputs, options, sampler, tally, progress);
  return ingest_threads(inputs, options, sampler, tally, progress);
}

}  // namespace manaka::vpd
