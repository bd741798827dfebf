// `manaka teacher generate`: a teacher corpus from engine games.
//
// One engine process per worker thread; the workers take game indices
// first_game, first_game + 1, ... from a shared counter and play them (teacher/game.h). Games
// reach the corpus in index order (a game that finishes early waits for the
// ones before it), so a run is deterministic given its seed as far as the
// engine is (one search thread, a depth or node limit, usinewgame before every
// game); the number of workers does not change the games. Game i's random
// choices come from game_seed(seed, i) alone, so the run of games [0, G)
// holds the same rows as runs over any partition of that range (first_game
// N, games M), concatenated in game order: how manaka.ray splits a run.
//
// Failures, each counted in the summary:
//   - an engine that crashes or stops answering (no bestmove within
//     engine.search_timeout_ms) loses the game in progress, and only that
//     game; the engine is restarted before the worker takes another. A
//     worker whose engine loses max_consecutive_failures games in a row, or
//     cannot be restarted, stops; the run fails if no worker is left before
//     every game was played.
//   - an engine move that is not legal under our rules (fairy-stockfish 11.1
//     offers pawn-drop mates, which shogi forbids) ends that game as an
//     error: it is counted, its rows are dropped, the engine keeps going.
//
// Output (teacher/corpus_writer.h): completed games are flushed as parquet
// parts under OUT.partial every flush_rows rows or flush_seconds, whichever
// comes first, and joined into OUT at the end. A killed run leaves its
// flushed games readable in OUT.partial.
//
// Timing: engine_seconds is the time the workers spent waiting for their
// engines (handshakes, isready, searches); overhead_seconds is the rest of
// their busy time (our move generation and checks, SFEN, RNG, writing). Their
// ratio is the generator's own cost per unit of engine time. On a loaded
// machine that wall-clock rest includes time spent descheduled, so the
// workers' thread CPU time is reported beside it.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "engine/engine.h"
#include "teacher/game.h"

namespace manaka::teacher {

// The ranges generate() accepts (the command and the binding check them first).
inline constexpr int kMaxWorkers = 256;
inline constexpr int kMaxMultiPv = 500;
inline constexpr int kMaxPlies = 65535;  // ply fits the corpus's uint16
inline constexpr int kMinMateScale = 1000;
inline constexpr int kMaxMateScale = 32767;
inline constexpr uint64_t kMaxFirstGame = uint64_t{1} << 48;

// The defaults live here alone: the command, the binding and manaka.teacher
// read them from GenerateOptions{} (the binding hands them to Python as
// generate_defaults()).
inline constexpr int kDefaultMultiPv = 5;

struct GenerateOptions {
  engine::EngineOptions engine = [] {
    engine::EngineOptions e;
    e.multipv = kDefaultMultiPv;
    e.fresh_threads_each_game = true;  // a game's moves not those of the games before it
    return e;
  }();  // path, multipv, options, timeouts
  engine::SearchLimit limit;
  std::string output;
  int games = 0;
  uint64_t first_game = 0;  // the run plays games [first_game, first_game + games)
  int workers = 0;  // engines at once; 0: one per hardware thread (never more than games)
  uint64_t seed = 0;
  int opening_plies = 0;
  int max_plies = 320;
  int mate_scale = 32000;
  int flush_rows = 4096;
  double flush_seconds = 10.0;
  int max_consecutive_failures = 3;
  bool overwrite = false;  // replace an existing output (core/output.h)
  bool progress = false;  // a progress line on stderr
};

struct GenerateSummary {
  std::string output;
  std::string engine_name;
  int games_requested = 0;
  uint64_t games_completed = 0;
  uint64_t games_lost = 0;     // to an engine crash or stall
  uint64_t games_illegal = 0;  // ended by an illegal engine move
  uint64_t restarts = 0;
  uint64_t positions = 0;      // rows written
  uint64_t parts = 0;          // flushes (row groups of the output)
  std::array<uint64_t, kGameEndCount> endings{};
  uint64_t black_wins = 0, white_wins = 0, draws = 0;
  // The first few messages of each kind, for the summary.
  std::vector<std::string> engine_failures, illegal_moves, worker_errors;
  double seconds = 0.0;
  double engine_seconds = 0.0;
  double overhead_seconds = 0.0;
  // CPU time of the worker threads themselves (our work and our side of the
  // engine conversation), immune to time spent descheduled on a busy machine.
  double generator_cpu_seconds = 0.0;

  double overhead_share() const { return engine_seconds > 0 ? overhead_seconds / engine_seconds : 0.0; }
};

Result<GenerateSummary> generate(const GenerateOptions& options);

}  // namespace manaka::teacher
