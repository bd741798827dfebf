// PUCT Monte Carlo tree search over a game's rules (rules.h), with the
// network's evaluations batched through a BatchEvaluator.
//
// One search thread owns a tree. Each round it descends up to batch_size
// times from the root (whatever the thread count, so a game's tree does not
// depend on how many games are searched beside it), adding a virtual loss to
// every node on the way so the next descent goes elsewhere, and queues the
// new leaves' planes together; when their evaluations come back it expands
// them and backs their values up. A descent that meets a leaf already
// queued in the round ends the round's gathering (a collision). Positions
// the rules end (mate, repetition, the other draws) are scored by the rules,
// never by the network, and cost no evaluation.
//
// Selection at a node p picks the child maximising
//   Q + c_puct * P * sqrt(max(1, N_p)) / (1 + N)
// with Q the child's mean value for the side that moved into it (0 while
// unvisited) and P its prior: the softmax of the network's logits over the
// legal moves only. At the root, when asked, the priors are mixed with
// Dirichlet noise: (1 - epsilon) P + epsilon Dir(alpha).
//
// With one search thread the tree, and so the chosen moves, depend only on
// the root, the options, the seed and the network's outputs.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "search/evaluator.h"
#include "search/noise.h"
#include "search/options.h"
#include "search/rules.h"

namespace manaka::search {

template <class Move>
struct Child {
  Move move;
  float prior;         // the network's, before any noise
  float search_prior;  // the one the search used (with the root's noise)
  int visits;
  // When the move ends the game (and the search reached it): its value for
  // the side to move at the root, -1, 0 or 1.
  std::optional<float> proven;
};

template <class Move>
struct SearchResult {
  std::vector<Child<Move>> children;  // the root's legal moves, generation order
  float value = 0;                    // the root's mean value for the side to move
  float raw_value = 0;                // the network's value of the root
  int simulations = 0;

  // The most visited child (ties: the higher prior, then the first).
  int best() const {
    int b = 0;
    for (int i = 1; i < int(children.size()); ++i) {
      const auto &c = children[i], &x = children[b];
      if (c.visits > x.visits || (c.visits == x.visits && c.prior > x.prior)) b = i;
    }
    return b;
  }
};

// The child to play: drawn with probability ~ visits^(1/temperature) while
// ply < temperature_plies and temperature > 0, else best().
template <class Move>
int choose_child(const SearchResult<Move>& r, int ply, const SearchOptions& o, SearchRng& rng) {
  if (o.temperature <= 0 || ply >= o.temperature_plies) return r.best();
  std::vector<double> weight(r.children.size());
  double total = 0;
  for (size_t i = 0; i < weight.size(); ++i)
    total += weight[i] = std::pow(double(r.children[i].visits), 1.0 / o.temperature);
  if (!(total > 0) || !std::isfinite(total)) return r.best();
  double x = rng.uniform() * total;
  for (size_t i = 0; i < weight.size(); ++i) {
    if (x < weight[i]) return int(i);
    x -= weight[i];
  }
  return r.best();
}

template <Rules R>
class Mcts {
 public:
  using State = typename R::State;
  using Move = typename R::Move;

  Mcts(const SearchOptions& options, BatchEvaluator& evaluator)
      : o_(options), ev_(evaluator), k_(options.batch_size) {
    planes_.resize(size_t(k_) * R::kPlaneSize);
    policy_.resize(size_t(k_) * size_t(R::kPolicySize));
    value_.resize(size_t(k_));
    leaves_.resize(size_t(k_));
  }

  // Searches the position of `root`, which must not be over. With noise, the
  // root's priors get Dirichlet noise drawn from rng.
  Result<SearchResult<Move>> search(const State& root, bool noise, SearchRng& rng) {
    state_ = root;
    nodes_.clear();
    nodes_.push_back(Node{});
    if (R::outcome(state_)) return Status::usage("search: the game is over in the position to search");

    // The root alone first: its priors are needed before any descent.
    Leaf& first = leaves_[0];
    first.path.assign(1, 0);
    nodes_[0].visits += 1;  // as a descent would (backup takes it back)
    prepare(first, 0);
    MANAKA_RETURN_NOT_OK(evaluate(1));
    const float raw_value = first.value;
    std::vector<float> raw(first.moves.size());
    for (size_t i = 0; i < raw.size(); ++i) raw[i] = first.prior[i];
    if (noise && o_.dirichlet_epsilon > 0) {
      std::vector<float> eta(first.moves.size());
      rng.dirichlet(o_.dirichlet_alpha, eta);
      for (size_t i = 0; i < eta.size(); ++i)
        first.prior[i] = (1 - o_.dirichlet_epsilon) * first.prior[i] + o_.dirichlet_epsilon * eta[i];
    }
    expand(first);
    int done = 1;

    while (done < o_.simulations) {
      int gathered = 0;
      const int want = std::min(k_, o_.simulations - done);
      for (int i = 0; i < want; ++i) {
        Leaf& leaf = leaves_[size_t(gathered)];
        uint32_t node = descend(leaf.path);
        Node& n = nodes_[node];
        if (n.state == kTerminal) {
          backup(leaf.path, n.terminal_value);
          ++done;
        } else if (n.state == kQueued) {
          undo_virtual_loss(leaf.path);
          rewind(leaf.path);
          break;
        } else if (auto over = R::outcome(state_)) {
          n.state = kTerminal;
          n.terminal_value = R::outcome_value(state_, *over);
          backup(leaf.path, n.terminal_value);
          ++done;
        } else {
          n.state = kQueued;
          prepare(leaf, gathered);
          ++gathered;
        }
        rewind(leaf.path);
      }
      if (gathered == 0) continue;
      MANAKA_RETURN_NOT_OK(evaluate(gathered));
      for (int i = 0; i < gathered; ++i) expand(leaves_[size_t(i)]);
      done += gathered;
    }

    SearchResult<Move> r;
    const Node& root_node = nodes_[0];
    r.children.reserve(root_node.count);
    for (uint32_t i = 0; i < root_node.count; ++i) {
      const Node& c = nodes_[root_node.first + i];
      std::optional<float> proven;
      if (c.state == kTerminal) proven = -c.terminal_value;
      r.children.push_back(Child<Move>{c.move, raw[i], c.prior, c.visits, proven});
    }
    r.value = root_node.visits ? -root_node.value_sum / float(root_node.visits) : 0.0f;
    r.raw_value = raw_value;
    r.simulations = done;
    return r;
  }

  size_t tree_size() const { return nodes_.size(); }

 private:
  enum : uint8_t { kFresh, kQueued, kExpanded, kTerminal };
  struct Node {
    Move move{};
    float prior = 0;
    int32_t visits = 0;     // virtual losses included while a descent is pending
    float value_sum = 0;    // for the side that moved into this node
    uint32_t first = 0;     // children: nodes_[first, first + count)
    uint32_t count = 0;
    uint8_t state = kFresh;
    float terminal_value = 0;  // for the side to move, when kTerminal
  };
  // A leaf queued for evaluation: its path from the root, its legal moves
  // and their policy indices; prior receives the softmax.
  struct Leaf {
    std::vector<uint32_t> path;
    std::vector<Move> moves;
    std::vector<int> index;
    std::vector<float> prior;
    float value = 0;
  };

  // From the root to a node that is not expanded, playing the moves on
  // state_ and adding a virtual loss to every node passed.
  uint32_t descend(std::vector<uint32_t>& path) {
    path.assign(1, 0);
    uint32_t node = 0;
    nodes_[0].visits += 1;
    while (nodes_[node].state == kExpanded) {
      node = select(node);
      Node& c = nodes_[node];
      c.visits += 1;
      c.value_sum -= 1;
      R::push(state_, c.move);
      path.push_back(node);
    }
    return node;
  }

  uint32_t select(uint32_t parent) const {
    const Node& p = nodes_[parent];
    const float scale = o_.c_puct * std::sqrt(float(std::max(1, p.visits)));
    uint32_t best = p.first;
    float best_score = -std::numeric_limits<float>::infinity();
    for (uint32_t c = p.first; c < p.first + p.count; ++c) {
      const Node& n = nodes_[c];
      float q = n.visits > 0 ? n.value_sum / float(n.visits) : 0.0f;
      float score = q + scale * n.prior / float(1 + n.visits);
      if (score > best_score) {
        best_score = score;
        best = c;
      }
    }
    return best;
  }

  void rewind(const std::vector<uint32_t>& path) {
    for (size_t i = 1; i < path.size(); ++i) R::pop(state_);
  }

  void undo_virtual_loss(const std::vector<uint32_t>& path) {
    nodes_[path[0]].visits -= 1;
    for (size_t i = 1; i < path.size(); ++i) {
      nodes_[path[i]].visits -= 1;
      nodes_[path[i]].value_sum += 1;
    }
  }

  // value: for the side to move at the path's end. The virtual losses are
  // replaced by the real visit.
  void backup(const std::vector<uint32_t>& path, float value) {
    undo_virtual_loss(path);
    float x = -value;
    for (size_t i = path.size(); i-- > 0;) {
      Node& n = nodes_[path[i]];
      n.visits += 1;
      n.value_sum += x;
      x = -x;
    }
  }

  // The leaf at state_: its moves, indices and planes in slot `slot`.
  void prepare(Leaf& leaf, int slot) {
    Move moves[R::kMaxMoves];
    int n = R::legal_moves(state_, moves);
    leaf.moves.assign(moves, moves + n);
    leaf.index.resize(size_t(n));
    for (int i = 0; i < n; ++i) leaf.index[size_t(i)] = R::policy_index(state_, moves[i]);
    R::encode(state_, planes_.data() + size_t(slot) * R::kPlaneSize);
  }

  // Runs the first n queued leaves through the network: their priors (the
  // softmax over their legal moves) and values.
  Status evaluate(int n) {
    MANAKA_RETURN_NOT_OK(ev_.evaluate(planes_.data(), n, policy_.data(), value_.data()));
    for (int i = 0; i < n; ++i) {
      Leaf& leaf = leaves_[size_t(i)];
      const float* logits = policy_.data() + size_t(i) * size_t(R::kPolicySize);
      float v = value_[size_t(i)];
      if (!(v >= -1.0f && v <= 1.0f))
        return Status::invalid("network: value " + std::to_string(v) + " of batch row " + std::to_string(i) +
                               " is not in [-1, 1]");
      leaf.value = v;
      leaf.prior.resize(leaf.moves.size());
      float top = -std::numeric_limits<float>::infinity();
      for (size_t m = 0; m < leaf.moves.size(); ++m) {
        float x = logits[leaf.index[m]];
        if (std::isnan(x) || x == std::numeric_limits<float>::infinity())
          return Status::invalid("network: policy logit " + std::to_string(leaf.index[m]) + " of batch row " +
                                 std::to_string(i) + " is " + std::to_string(x));
        top = std::max(top, x);
      }
      float sum = 0;
      for (size_t m = 0; m < leaf.moves.size(); ++m)
        sum += leaf.prior[m] = top == -std::numeric_limits<float>::infinity() ? 1.0f : std::exp(logits[leaf.index[m]] - top);
      for (float& p : leaf.prior) p /= sum;
    }
    return Status();
  }

  void expand(const Leaf& leaf) {
    const uint32_t node = leaf.path.back();
    const uint32_t first = uint32_t(nodes_.size());
    for (size_t m = 0; m < leaf.moves.size(); ++m) {
      Node c;
      c.move = leaf.moves[m];
      c.prior = leaf.prior[m];
      nodes_.push_back(c);
    }
    Node& n = nodes_[node];
    n.first = first;
    n.count = uint32_t(leaf.moves.size());
    n.state = kExpanded;
    backup(leaf.path, leaf.value);
  }

  const SearchOptions& o_;
  BatchEvaluator& ev_;
  const int k_;
  State state_;
  std::vector<Node> nodes_;
  std::vector<Leaf> leaves_;
  std::vector<int8_t> planes_;
  std::vector<float> policy_, value_;
};

}  // namespace manaka::search
