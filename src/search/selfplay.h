// Self-play and single searches, for any game's rules (rules.h): search
// threads play while the calling thread serves the network (evaluator.h).
//
// self_play: `threads` search threads take games by index from a shared
// counter; game i (numbered from first_game, so a run cut into index ranges
// plays the games of one whole run) starts from start(i) and draws its noise
// and moves from derived_seed(seed, i) alone, so with one search thread a seed gives the
// same games (and with several, the same games wherever the network's
// answers do not depend on the batch). A game ends when the rules end it or
// after max_plies searched plies (a draw, with no outcome). Games come back
// in index order.
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <thread>
#include <vector>

#include "core/splitmix64.h"
#include "core/status.h"
#include "search/evaluator.h"
#include "search/mcts.h"
#include "search/noise.h"
#include "search/options.h"
#include "search/rules.h"

namespace manaka::search {

template <class R>
struct SearchedPly {
  typename R::Move move;                       // the move played
  float value;                                 // the root's mean value, side to move
  float raw_value;                             // the network's value of the root
  std::vector<Child<typename R::Move>> children;
};

template <class R>
struct PlayedGame {
  typename R::State start;                     // with the moves before it (an opening)
  std::vector<SearchedPly<R>> plies;
  std::optional<typename R::Outcome> outcome;  // none: stopped at max_plies (a draw)
};

// A run's first game index stays below 2^48 - 10^6: game indices fit a JSON
// number (a double) exactly.
inline constexpr uint64_t kMaxFirstGame = (uint64_t(1) << 48) - 1'000'000;

struct SelfPlayCounters {
  std::atomic<uint64_t> games{0}, positions{0};
};

// Runs `threads` workers (each work(thread index) -> Status, called with the
// evaluator's worker count raised) while the calling thread serves the
// network; the first error (the workers' before the network's) is returned.
Status run_workers(BatchEvaluator& evaluator, int threads, const std::function<Status(int)>& work,
                   const Network& network, const Poll& poll);

template <Rules R>
Result<std::vector<PlayedGame<R>>> self_play(int games, int max_plies, const SearchOptions& options,
                                             const std::function<Result<typename R::State>(uint64_t)>& start,
                                             const Network& network, const Poll& poll,
                                             SelfPlayCounters* counters = nullptr,
                                             EvaluatorStats* stats = nullptr, uint64_t first_game = 0) {
  MANAKA_RETURN_NOT_OK(check_options(options));
  std::vector<PlayedGame<R>> played(static_cast<size_t>(games));
  std::vector<Status> errors(static_cast<size_t>(games));
  std::atomic<int> next{0};
  std::atomic<bool> stop{false};
  // Each game's search gathers batch_size leaves a round; the threads' rounds
  // share the network's calls, so the games do not depend on the thread count.
  const int threads = std::min(options.threads, games);
  // A call holds kMaxBatchSize rows at most (a shogi call of 4096 holds 184 MB
  // of logits), never fewer than one round (batch_size <= kMaxBatchSize).
  const int rows = int(std::min<int64_t>(int64_t(options.batch_size) * threads, kMaxBatchSize));
  BatchEvaluator evaluator(R::kPlaneSize, size_t(R::kPolicySize), rows, options.exact_batches);
  auto work = [&](int) -> Status {
    Mcts<R> mcts(options, evaluator);
    for (int i; !stop && (i = next++) < games;) {
      auto one = [&]() -> Status {
        PlayedGame<R>& g = played[size_t(i)];
        const uint64_t index = first_game + uint64_t(i);
        MANAKA_ASSIGN_OR_RETURN(g.start, start(index));
        SearchRng rng(derived_seed(options.seed, index));
        typename R::State s = g.start;
        for (;;) {
          if ((g.outcome = R::outcome(s))) break;
          if (int(g.plies.size()) >= max_plies) break;
          MANAKA_ASSIGN_OR_RETURN(auto r, mcts.search(s, options.dirichlet_epsilon > 0, rng));
          const int c = choose_child(r, int(g.plies.size()), options, rng);
          const auto move = r.children[size_t(c)].move;
          g.plies.push_back(SearchedPly<R>{move, r.value, r.raw_value, std::move(r.children)});
          R::push(s, move);
          if (counters) counters->positions++;
        }
        if (counters) counters->games++;
        return Status();
      };
      if (Status st = one(); !st.ok()) {
        errors[size_t(i)] = std::move(st).with_context("game " + std::to_string(first_game + uint64_t(i)) + ": ");
        stop = true;
      }
    }
    return Status();
  };
  Status served = run_workers(evaluator, threads, work, network, poll);
  for (Status& e : errors)
    if (!e.ok()) return std::move(e);
  MANAKA_RETURN_NOT_OK(served);
  if (stats) *stats = evaluator.stats();
  return played;
}

// One search of the game's current position (not over) on one search
// thread, its leaves batched by virtual loss; no noise.
template <Rules R>
Result<SearchResult<typename R::Move>> search_once(const typename R::State& state, const SearchOptions& options,
                                                   const Network& network, const Poll& poll,
                                                   EvaluatorStats* stats = nullptr) {
  MANAKA_RETURN_NOT_OK(check_options(options));
  SearchOptions one = options;
  one.threads = 1;
  BatchEvaluator evaluator(R::kPlaneSize, size_t(R::kPolicySize), one.batch_size);
  std::optional<Result<SearchResult<typename R::Move>>> result;
  auto work = [&](int) -> Status {
    Mcts<R> mcts(one, evaluator);
    SearchRng rng(options.seed);
    result.emplace(mcts.search(state, false, rng));
    return result->status();
  };
  MANAKA_RETURN_NOT_OK(run_workers(evaluator, 1, work, network, poll));
  if (stats) *stats = evaluator.stats();
  return std::move(*result);
}

}  // namespace manaka::search
