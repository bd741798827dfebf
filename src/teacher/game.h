// One engine game of the teacher generator.
//
// The game starts from the initial position and first plays opening_plies
// random legal moves (not searched, not recorded). Then at every position:
//   - no legal move: the side to move has lost (mate, or no move at all);
//   - ply == max_plies: a draw;
//   - otherwise the engine searches it (MultiPV); each candidate (the first
//     move of each PV line) and the bestmove are checked with our move
//     generator; the row is recorded (sfen, side, ply, cp = the multipv 1
//     score, cand_moves, cand_cp, move); the move played is drawn uniformly
//     at random from the candidates, as the published generator did;
//   - after the move, a fourth occurrence of the position ends the game
//     (shogi/sennichite.h: a draw, or a loss for a perpetual checker).
// Every row gets the result, from Black's view, when the game ends.
//
// The engine is sent "position startpos moves ..." with the whole game, so it
// sees the history it would see in a real game.
//
// Determinism: every random choice comes from the game's seed, so a game is
// a function of the seed and the engine's answers.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "core/splitmix64.h"
#include "core/uniform.h"
#include "core/status.h"
#include "engine/engine.h"
#include "teacher/corpus_batch.h"
#include "shogi/move.h"
#include "shogi/position.h"

namespace manaka::teacher {

struct GameSettings {
  engine::SearchLimit limit;
  int opening_plies = 0;
  int max_plies = 320;
  int mate_scale = 32000;
  // Incremented after every search when set (a progress counter).
  std::atomic<uint64_t>* searched = nullptr;
};

enum class GameEnd : uint8_t { NoLegalMove, Repetition, PerpetualCheck, PlyLimit, Count };
inline constexpr size_t kGameEndCount = static_cast<size_t>(GameEnd::Count);
// "no_legal_move", "repetition", "perpetual_check", "ply_limit"
const char* game_end_name(GameEnd end);

struct GameRecord {
  std::vector<CorpusRow> rows;
  int8_t result = 0;  // Black's view
  GameEnd end = GameEnd::PlyLimit;
  int plies = 0;      // moves played, the opening's included
};

// Plays one game. An engine that crashes or stalls is Status::engine (the
// engine needs a restart); an engine move that is not a USI move or is
// illegal is Status::invalid naming the move, its multipv line and the SFEN.
Result<GameRecord> play_game(engine::Engine& engine, const GameSettings& settings, uint64_t seed);

// An engine's move checked with our rules: the move, or Status::invalid
// "engine E: <what> "P*1b" is illegal (a pawn drop that mates: uchifuzume)
// in sfen ..." (or "is not a USI move"). `what` names where it came from
// ("multipv 2", "bestmove").
Result<shogi::Move> check_engine_move(const shogi::Position& pos, const std::string& engine,
                                      const std::string& what, const std::string& usi);

// The seed of game `index` of a run seeded with `run_seed`.
uint64_t game_seed(uint64_t run_seed, uint64_t index);

// SplitMix64: a small, fixed generator, so a seed means the same games on
// every platform and standard library.
class GameRng {
 public:
  explicit GameRng(uint64_t seed) : mix_(seed) {}
  uint64_t next() { return mix_.next(); }
  // Uniform in [0, n), n > 0 (core/uniform.h).
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(uniform_below(*this, n)); }

 private:
  SplitMix64 mix_;
};

}  // namespace manaka::teacher
