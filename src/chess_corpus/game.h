// One game of the chess corpus (docs/chess-corpus.md, "Generating"): a few
// random legal plies, then the engine plays both sides until the game ends by
// python-chess's outcome(claim_draw=True). Every position the engine moved
// from is a record: its 20 planes, the index of the move played, the mover;
// z is filled in from the outcome at the end.
//
// The random opening's positions are not records: their moves are noise as
// policy targets. They are in the game's move list (and its PGN).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "chess/game.h"
#include "chess/termination.h"
#include "core/default_init.h"
#include "core/status.h"
#include "engine/engine.h"

namespace manaka::chess_corpus {

struct PlayedGame {
  uint64_t index = 0;                 // the game's number in the run, from 0
  chess::Position start = chess::Position::startpos();
  std::vector<chess::Move> moves;     // opening plies first
  int opening_plies = 0;
  chess::Outcome outcome;
  UninitVector<int8_t> states;        // records x 20 x 8 x 8
  std::vector<int32_t> move_indices;  // records
  std::vector<int8_t> outcomes;       // records: z from the mover's view
  std::vector<int16_t> scores;        // records: the engine's root score (chess_shard.h's encoding)
  double engine_seconds = 0.0;        // waiting for the engine's moves

  size_t records() const { return move_indices.size(); }
};

// The seed of game `index` of a run seeded with `run_seed`: a game's opening
// depends on nothing else, so any worker may play it.
uint64_t game_seed(uint64_t run_seed, uint64_t index);

// The engine's score as a shard's `scores` entry (chess_shard.h): from the
// mover's view, centipawns clamped, a mate as SCORE_MATE less its plies (a
// mate of unknown distance as SCORE_MATE_BOUND).
int16_t shard_score(const engine::Score& score);

// Plays game `index`. The engine gets ucinewgame first, so with a node or
// depth limit the game depends only on (run_seed, index, limit, engine).
Result<PlayedGame> play_game(engine::Engine& engine, const engine::SearchLimit& limit, int opening_plies,
                             uint64_t run_seed, uint64_t index);

}  // namespace manaka::chess_corpus
