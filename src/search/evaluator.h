// The batched evaluator: search threads queue leaf positions and wait; one
// thread (the caller of serve(), in Python the thread that holds the model)
// runs them through the network in batches and hands the results back.
//
//   BatchEvaluator ev(PLANES_SIZE, POLICY_SIZE, options.batch_size);
//   threads: ev.worker_started(); ... ev.evaluate(planes, n, policy, value) ...; ev.worker_finished();
//   caller:  Status st = ev.serve(network);   // returns when every worker finished
//
// A batch goes to the network when it is full or when every live worker is
// waiting (no further request can come), so one search thread that gathers
// k leaves per round gets batches of k, deterministically.
//
// The network's first error ends the serving: every waiting and later
// request gets that error, so the workers stop; serve() returns it once they
// have all finished.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <vector>

#include "core/status.h"

namespace manaka::search {

// n positions' planes (n * plane_size int8, contiguous) in; n * policy_size
// logits and n values (for the side to move, in [-1, 1]) out.
struct EvalBatch {
  const int8_t* planes;
  int size;
  float* policy;
  float* value;
};
using Network = std::function<Status(const EvalBatch&)>;
// Called by serve() about every 50 ms (Python: signals, progress); its error
// ends the serving as the network's would.
using Poll = std::function<Status()>;

struct EvaluatorStats {
  uint64_t batches = 0;
  uint64_t positions = 0;
  double network_seconds = 0;  // inside the network
  int capacity = 0;            // rows a call could hold
  double mean_fill() const { return batches ? double(positions) / double(batches) / capacity : 0.0; }
};

class BatchEvaluator {
 public:
  // one_request_per_call: every request is a network call of its own (the
  // rows a call gets never depend on timing).
  BatchEvaluator(size_t plane_size, size_t policy_size, int batch_size, bool one_request_per_call = false);

  void worker_started();
  void worker_finished();
  // Blocks until the n positions (n <= batch_size, the rows a call holds) are evaluated; outputs as
  // EvalBatch's. Returns the network's error if it failed.
  Status evaluate(const int8_t* planes, int n, float* policy, float* value);

  // Serves until every started worker has finished. Call worker_started for
  // the first workers before serve(), so it does not return at once.
  Status serve(const Network& network, const Poll& poll = {});

  const EvaluatorStats& stats() const { return stats_; }
  int batch_size() const { return batch_size_; }

 private:
  struct Request {
    const int8_t* planes;
    int n;
    float* policy;
    float* value;
    bool done = false;
    Status status;
  };

  size_t plane_size_, policy_size_;
  int batch_size_;
  bool one_request_per_call_;
  std::mutex mu_;
  std::condition_variable work_;   // serve() waits on it
  std::condition_variable done_;   // workers wait on it
  std::vector<Request*> pending_;
  int pending_positions_ = 0;
  int workers_ = 0;
  Status failed_;                  // the network's error, once it failed
  std::vector<int8_t> planes_;     // the batch's input
  std::vector<float> policy_, value_;
  EvaluatorStats stats_;
};

}  // namespace manaka::search
