// VPD1 sampling: at most one position per game and phase, reservoir-sampled
// under fixed phase quotas of a target size, without repeating a FEN.
//
// For each game, the candidates are the positions before each mainline move
// (the starting position is ply 0 of a game from the initial position; the
// position after the last move is not a candidate, so every candidate has a
// legal move). A null move (chess/pgn.h) ends the candidates: neither the
// position it is played in nor any after it is one (those have no legal
// history). Each candidate is classified (phase_of) and, unless its
// normalized FEN is among those selected at that moment (then it is counted
// as a duplicate and skipped), takes part in its phase's reservoir of one
// inside the game: the k-th eligible candidate replaces the held one with
// probability 1/k. At the end of the game each phase's survivor is offered
// to that phase's reservoir across games (Vitter's algorithm R with the
// phase's quota as capacity): the n-th offer is kept while the reservoir is
// not full, else it replaces slot j for j uniform in [0, n) when j < quota.
//
// Every draw comes from one SplitMix64 stream seeded with the seed, consumed
// in input order, so the sample is a function of the games (in order) and
// the seed only.
//
// Duplicates are recognized by a 64-bit hash of what the normalized FEN
// says (position_hash: the Zobrist key, which is python-chess's
// transposition key, and the halfmove clock), so that a FEN is written only
// for the positions held at the end of a game. Two distinct FENs with the
// same hash (probability about 1e-13 per candidate at 1.5 million selected)
// would only make one of them skipped, never store a FEN twice.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "chess/pgn.h"
#include "core/splitmix64.h"
#include "vpd/features.h"
#include "vpd/hash_set.h"

namespace manaka::vpd {

constexpr uint64_t DEFAULT_TARGET = 1'500'000;
constexpr uint64_t MAX_TARGET = uint64_t{1} << 40;  // keeps target * 100 within 64 bits
// Phase shares of the target, in percent.
constexpr std::array<uint64_t, PHASE_NB> QUOTA_PERCENT = {15, 60, 25};

// Opening floor(target * 15 / 100), endgame floor(target * 25 / 100), the
// middlegame the rest, so the quotas add up to the target exactly
// (1,500,000: 225,000 / 900,000 / 375,000).
std::array<uint64_t, PHASE_NB> phase_quotas(uint64_t target);

// The result tokens a PgnGame ends with; a row stores the index.
constexpr std::array<const char*, 4> RESULT_TOKENS = {"1-0", "0-1", "1/2-1/2", "*"};
uint8_t result_index(std::string_view token);

// SplitMix64's finalizer of the Zobrist key mixed with the halfmove clock:
// equal for two positions exactly when their normalized FENs are (up to
// 64-bit collisions).
uint64_t position_hash(const chess::Position& pos);

// One selected position, before its features are computed.
struct SampledPosition {
  std::string fen;           // normalized
  uint64_t fen_hash = 0;     // position_hash
  uint64_t game_number = 0;  // sequential over all inputs, from 1
  int ply = 0;               // game_ply()
  Phase phase = OPENING;
  uint32_t source = 0;       // index of the input it came from
  uint8_t result = 0;        // index into RESULT_TOKENS
};

// A game's candidate positions, in ply order: the pure half of add_game,
// computed apart from the sampling (on worker threads by the build, see
// ingest.h), so that only the draws run in input order.
struct Candidate {
  uint64_t fen_hash = 0;  // position_hash
  int ply = 0;
  Phase phase = OPENING;
};
struct GameCandidates {
  uint64_t game_number = 0;
  uint32_t source = 0;
  uint8_t result = 0;
  std::vector<Candidate> positions;
  std::vector<chess::Position> boards;  // boards[i] is positions[i]'s: its FEN is written only if held
};

// The candidates of game (see the top of this file), into out.
void candidates_of(const chess::PgnGame& game, uint64_t game_number, uint32_t source, GameCandidates& out);

struct SamplerCounts {
  uint64_t games = 0;                   // games offered
  uint64_t positions_considered = 0;    // candidates seen
  uint64_t duplicates = 0;              // candidates skipped: FEN already selected
  std::array<uint64_t, PHASE_NB> candidates{};  // candidates per phase
  std::array<uint64_t, PHASE_NB> offered{};     // games offering the phase
};

class Sampler {
 public:
  Sampler(uint64_t target, uint64_t seed);

  // Offers one game. game_number must grow from call to call.
  void add_game(const chess::PgnGame& game, uint64_t game_number, uint32_t source);
  // The same from the game's candidates (candidates_of), which it consumes.
  void add(GameCandidates& game);

  const SamplerCounts& counts() const { return counts_; }
  const std::array<uint64_t, PHASE_NB>& quotas() const { return quotas_; }
  uint64_t selected() const;

  // The sample, ordered by game number and ply (the row order of VPD1).
  std::vector<SampledPosition> take();

 private:
  // Uniform in [0, n), n >= 1 (Lemire's multiply-shift; bias below 2^-40
  // for any n this sees).
  uint64_t uniform(uint64_t n);
  void offer(SampledPosition&& pos);

  std::array<uint64_t, PHASE_NB> quotas_;
  SplitMix64 rng_;
  SamplerCounts counts_;
  std::array<std::vector<SampledPosition>, PHASE_NB> reservoir_;
  HashSet64 selected_;  // fen_hash of every held position
};

}  // namespace manaka::vpd
