#include "search/selfplay.h"

namespace manaka::search {

Status run_workers(BatchEvaluator& evaluator, int threads, const std::function<Status(int)>& work,
                   const Network& network, const Poll& poll) {
  std::vector<Status> errors(static_cast<size_t>(threads));
  std::vector<std::thread> pool;
  pool.reserve(size_t(threads));
  for (int t = 0; t < threads; ++t) {
    evaluator.worker_started();  // before serve(), so it waits for them
    pool.emplace_back([&, t] {
      errors[size_t(t)] = work(t);
      evaluator.worker_finished();
    });
  }
  Status served = evaluator.serve(network, poll);
  for (auto& th : pool) th.join();
  for (Status& e : errors)
    if (!e.ok()) return std::move(e);
  return served;
}

}  // namespace manaka::search
