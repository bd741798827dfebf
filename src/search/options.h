// The options of a PUCT search and of self-play through it, with the checks
// that refuse what no search can run with.
#pragma once

#include <cstdint>

#include "core/status.h"

namespace manaka::search {

struct SearchOptions {
  int simulations = 50;          // per searched position (the root's evaluation included)
  float c_puct = 1.5f;           // exploration: U = c_puct * P * sqrt(N_parent) / (1 + N)
  float dirichlet_alpha = 0.3f;  // root noise, AlphaZero's 0.3 for chess (0.15 for shogi)
  float dirichlet_epsilon = 0.25f;  // share of noise in the root priors; 0: no noise
  float temperature = 1.0f;      // moves drawn with probability ~ N^(1/T) ...
  int temperature_plies = 30;    // ... for the first plies; then the most visited
  int batch_size = 16;           // leaves one search gathers a round (mcts.h), whatever threads
  int threads = 1;               // self-play: games searched at once, their rounds sharing the network's
                                 // calls (up to threads x batch_size rows, kMaxBatchSize at most)
  // Each search's round its own network call instead: the games are then a
  // one-thread run's bytes with a network whose floats depend on what shares
  // its call (CPU torch does), for small calls (on a GPU, a slowdown).
  bool exact_batches = false;
  uint64_t seed = 0;
};

inline constexpr int kMaxSimulations = 1'000'000;
inline constexpr int kMaxBatchSize = 4096;
inline constexpr int kMaxThreads = 1024;

// Names the option and its range: simulations 1..kMaxSimulations, c_puct > 0,
// dirichlet_alpha > 0, dirichlet_epsilon 0..1, temperature >= 0,
// temperature_plies >= 0, batch_size 1..kMaxBatchSize, threads 1..kMaxThreads
// (every float finite). A usage error (Status::usage).
Status check_options(const SearchOptions& options);


}  // namespace manaka::search
