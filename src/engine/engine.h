// An engine client for USI (shogi) and UCI (chess): one engine process, its
// handshake, MultiPV searches, and restarting it when it crashes or stops
// answering. The two protocols differ only in the words of a Dialect
// (engine/protocol.h), chosen by EngineOptions::protocol.
//
//   MANAKA_ASSIGN_OR_RETURN(auto eng, engine::Engine::start({.path = "/usr/games/stockfish",
//                                                             .protocol = engine::Protocol::Uci,
//                                                             .multipv = 3}));
//   MANAKA_RETURN_NOT_OK(eng->new_game());
//   MANAKA_ASSIGN_OR_RETURN(auto found, eng->search("startpos moves e2e4", {.depth = 5}));
//   // found.lines[0] is multipv 1: its score and first PV move
//
// The conversation (USI words; UCI says uci, uciok, ucinewgame, fen):
//   start      usi -> (id name ..., option ...) usiok; every option to be set
//              is checked against the options the engine advertised; setoption
//              name X value Y for each (MultiPV first, then
//              UCI_LimitStrength and UCI_Elo, then the rest in order);
//              isready -> readyok
//   new_game   usinewgame; isready -> readyok
//   search     position <spec>; go [depth D] [nodes N] [movetime T] (what
//              the limit sets); collects info lines until bestmove
//   quit       quit, then kill after a grace period
//
// Every wait has a deadline (poll). An engine that closes its output has
// crashed; one that misses a deadline has stalled. Either way the call
// returns Status::engine naming the engine path, its pid, what it was asked
// and what happened, and the engine is marked dead: the next call fails until
// restart(), which kills what is left of the process, spawns it again and
// repeats the handshake.
//
// An option the engine does not advertise (apart from the few its protocol
// reserves for the GUI, Dialect::unadvertised_options), or a value outside
// the range or choices it advertised, is Status::invalid naming the engine
// and the option:
//   "engine Stockfish 15.1 (/usr/games/stockfish): UCI_Elo 100 is out of range 1350..2850"
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/status.h"
#include "engine/process.h"
#include "engine/protocol.h"

namespace manaka::engine {

// The longest timeout an EngineOptions holds: seconds whose milliseconds fit
// an int (about 24.8 days).
inline constexpr double kMaxTimeoutSeconds = 2147483.0;

struct EngineOptions {
  std::string path;
  std::vector<std::string> args;
  Protocol protocol = Protocol::Usi;
  int multipv = 1;  // sent as "setoption name MultiPV value N" when > 1
  // Playing strength: "setoption name UCI_LimitStrength value true" and
  // "setoption name UCI_Elo value N"; N must lie in the range the engine
  // advertises for UCI_Elo (Stockfish 15.1: 1350..2850).
  std::optional<int> elo;
  // Further options in order: {"Hash", "64"}, {"Threads", "1"}.
  std::vector<std::pair<std::string, std::string>> options;
  // new_game() also sets Threads again (to its value above, or the engine's
  // default): Fairy-Stockfish 11.1 keeps per-thread search state across
  // usinewgame (Clear Hash does not clear it either), so a game's moves
  // would depend on the games its engine played before, and a run's bytes
  // on how games fell to workers. Rebuilding the thread pool clears it, for
  // about 6 ms: once a game is nothing, once a position (vpd label) is not.
  bool fresh_threads_each_game = false;
  int handshake_timeout_ms = 30'000;  // usi / uci, isready
  // From sending the position to bestmove, on top of the limit's movetime.
  int search_timeout_ms = 60'000;
};

// At least one is set; every one that is set is sent (the engine stops at
// the first it reaches).
struct SearchLimit {
  int depth = 0;
  uint64_t nodes = 0;
  int movetime_ms = 0;  // go movetime
};

// One MultiPV line at the end of the search.
struct PvLine {
  int multipv = 1;
  int depth = 0;
  Score score;             // mate distances in plies, in either dialect
  std::optional<Wdl> wdl;  // when the engine reports it (UCI_ShowWDL true)
  std::string move;        // the first move of the PV, as the engine wrote it
};

struct SearchResult {
  std::vector<PvLine> lines;  // multipv 1, 2, ... as last reported; no gaps
  // The token after "bestmove": "7g7f", "e2e4", "e7e8q", or a verdict with no
  // move ("resign", "win"; UCI: "(none)" or "0000" when the side to move is
  // mated or stalemated, and then lines is empty).
  std::string bestmove;
  double seconds = 0.0;  // from sending the position to reading bestmove

  bool has_move() const { return bestmove_is_move(bestmove); }
};

class Engine {
 public:
  // Spawns and handshakes; an engine that fails either is an error, and so
  // is an option it does not advertise or a value it does not take.
  static Result<std::unique_ptr<Engine>> start(const EngineOptions& options);
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;
  ~Engine();  // quit()

  // usinewgame / ucinewgame (then Threads again, with
  // fresh_threads_each_game) and isready: clears the engine's memory of
  // earlier games.
  Status new_game();
  // "position " + position, then go with the limit; waits for bestmove.
  // position is "startpos [moves ...]" or the dialect's word and a position:
  // "sfen <sfen> [moves ...]" (USI), "fen <fen> [moves ...]" (UCI); anything
  // else is refused before it is sent.
  Result<SearchResult> search(const std::string& position, const SearchLimit& limit);
  // Kills the process (if any is left), spawns it again and handshakes.
  Status restart();
  // Asks the engine to quit and reaps it (killed after 1 s).
  void quit();

  bool alive() const { return alive_; }
  int restarts() const { return restarts_; }
  const std::string& path() const { return options_.path; }
  const std::string& name() const { return name_; }  // "id name ..." or the path
  const Dialect& dialect() const { return dialect_of(options_.protocol); }
  // The options the engine advertised in its last handshake, in its order.
  const std::vector<EngineOption>& advertised_options() const { return advertised_; }
  // One of them by name (without regard to case), or nullptr.
  const EngineOption* find_option(std::string_view option_name) const;
  // Seconds spent waiting for this engine (handshakes, isready, searches).
  double wait_seconds() const { return wait_seconds_; }

 private:
  explicit Engine(EngineOptions options) : options_(std::move(options)) {}
  Status launch();
  // The setoption lines the options ask for, each checked against the
  // advertised options.
  Result<std::vector<std::string>> option_lines() const;
  Status send(const std::string& line, const std::string& doing);
  // Reads lines until one equals `expected` (noting "id name" and the
  // options on the way). `doing` names the request for messages.
  Status wait_for(std::string_view expected, int timeout_ms, const std::string& doing);
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
  std::string threads_line_;  // "setoption name Threads value N" when fresh_threads_each_game
  std::vector<EngineOption> advertised_;
  bool alive_ = false;
  int restarts_ = 0;
  double wait_seconds_ = 0.0;
  std::string line_;  // reused by reads
};

}  // namespace manaka::engine
