// A USI engine client: one engine process, its handshake, MultiPV searches,
// and restarting it when it crashes or stops answering.
//
//   MANAKA_ASSIGN_OR_RETURN(auto eng, engine::UsiEngine::start({.path = "/usr/games/fairy-stockfish",
//                                                                 .multipv = 5}));
//   MANAKA_RETURN_NOT_OK(eng->new_game());
//   MANAKA_ASSIGN_OR_RETURN(auto found, eng->search("startpos moves 7g7f", {.depth = 2}));
//   // found.lines[0] is multipv 1: its score and first PV move
//
// The conversation:
//   start      usi -> (id name ..., option ...) usiok; setoption name X value Y
//              for each option (MultiPV first); isready -> readyok
//   new_game   usinewgame; isready -> readyok
//   search     position <spec>; go depth D | go nodes N | both; collects info
//              lines until bestmove
//   quit       quit, then kill after a grace period
//
// Every wait has a deadline (poll). An engine that closes its output has
// crashed; one that misses a deadline has stalled. Either way the call
// returns Status::engine naming the engine path, its pid, what it was asked
// and what happened, and the engine is marked dead: the next call fails until
// restart(), which kills what is left of the process, spawns it again and
// repeats the handshake.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/status.h"
#include "engine/process.h"
#include "engine/usi_protocol.h"

namespace manaka::engine {

// The longest timeout an EngineOptions holds: seconds whose milliseconds fit
// an int (about 24.8 days).
inline constexpr double kMaxTimeoutSeconds = 2147483.0;

struct EngineOptions {
  std::string path;
  std::vector<std::string> args;
  int multipv = 1;  // sent as "setoption name MultiPV value N" when > 1
  // Further options in order: {"Hash", "64"}, {"Threads", "1"}.
  std::vector<std::pair<std::string, std::string>> options;
  int handshake_timeout_ms = 30'000;  // usi, isready
  int search_timeout_ms = 60'000;     // go until bestmove
};

// At least one of the two is set; both are sent when both are.
struct SearchLimit {
  int depth = 0;
  uint64_t nodes = 0;
};

// One MultiPV line at the end of the search.
struct PvLine {
  int multipv = 1;
  int depth = 0;
  Score score;
  std::string move;  // the first move of the PV, as the engine wrote it
};

struct SearchResult {
  std::vector<PvLine> lines;  // multipv 1, 2, ... as last reported; no gaps
  std::string bestmove;       // the token after "bestmove"
  double seconds = 0.0;       // from sending the position to reading bestmove
};

class UsiEngine {
 public:
  // Spawns and handshakes; an engine that fails either is an error.
  static Result<std::unique_ptr<UsiEngine>> start(const EngineOptions& options);
  UsiEngine(const UsiEngine&) = delete;
  UsiEngine& operator=(const UsiEngine&) = delete;
  ~UsiEngine();  // quit()

  // usinewgame and isready: clears the engine's memory of earlier games.
  Status new_game();
  // "position " + position (e.g. "startpos moves 7g7f" or "sfen ... moves
  // ..."), then go with the limit; waits for bestmove.
  Result<SearchResult> search(const std::string& position, const SearchLimit& limit);
  // Kills the process (if any is left), spawns it again and handshakes.
  Status restart();
  // Asks the engine to quit and reaps it (killed after 1 s).
  void quit();

  bool alive() const { return alive_; }
  int restarts() const { return restarts_; }
  const std::string& path() const { return options_.path; }
  const std::string& name() const { return name_; }  // "id name ..." or the path
  // Seconds spent waiting for this engine (handshakes, isready, searches).
  double wait_seconds() const { return wait_seconds_; }

 private:
  explicit UsiEngine(EngineOptions options) : options_(std::move(options)) {}
  Status launch();
  Status send(const std::string& line, const std::string& doing);
  // Reads lines until one equals `expected` (noting "id name" on the way).
  // `doing` names the request for messages.
  Status wait_for(const std::string& expected, int timeout_ms, const std::string& doing);
  // Reads the next line into line_ by `deadline`. A read error, the end of
  // the engine's output or the deadline adds the time since `start` to
  // wait_seconds_ and fails, naming `awaited` (what the caller waits for)
  // and `timeout_ms`.
  using Clock = std::chrono::steady_clock;
  Status next_line(Clock::time_point start, Clock::time_point deadline, int timeout_ms, const std::string& doing,
                   const std::string& awaited);
  // Marks the engine dead and builds the error. An engine that closed its
  // output is given exit_wait_ms to exit, so the message can say how it ended.
  Status fail(const std::string& doing, const std::string& what, int exit_wait_ms = 0);

  EngineOptions options_;
  Process process_;
  std::string name_;
  bool alive_ = false;
  int restarts_ = 0;
  double wait_seconds_ = 0.0;
  std::string line_;  // reused by reads
};

}  // namespace manaka::engine
