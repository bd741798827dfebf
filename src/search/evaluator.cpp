#include "search/evaluator.h"

#include <algorithm>
#include <chrono>
#include <cstring>

namespace manaka::search {

BatchEvaluator::BatchEvaluator(size_t plane_size, size_t policy_size, int batch_size, bool one_request_per_call)
    : plane_size_(plane_size),
      policy_size_(policy_size),
      batch_size_(batch_size),
      one_request_per_call_(one_request_per_call),
      planes_(plane_size * size_t(batch_size)),
      policy_(policy_size * size_t(batch_size)),
      value_(size_t(batch_size)) {
  stats_.capacity = batch_size;
}

void BatchEvaluator::worker_started() {
  std::lock_guard lock(mu_);
  ++workers_;
}

void BatchEvaluator::worker_finished() {
  std::lock_guard lock(mu_);
  --workers_;
  work_.notify_one();  // the rest may all be waiting now, or none is left
}

Status BatchEvaluator::evaluate(const int8_t* planes, int n, float* policy, float* value) {
  Request r{planes, n, policy, value, false, Status()};
  std::unique_lock lock(mu_);
  if (!failed_.ok()) return failed_;
  pending_.push_back(&r);
  pending_positions_ += n;
  work_.notify_one();
  done_.wait(lock, [&] { return r.done; });
  return std::move(r.status);
}

Status BatchEvaluator::serve(const Network& network, const Poll& poll) {
  using Clock = std::chrono::steady_clock;
  constexpr auto kPollPeriod = std::chrono::milliseconds(50);
  auto last_poll = Clock::now();
  std::unique_lock lock(mu_);
  for (;;) {
    auto ready = [&] {
      return pending_positions_ >= batch_size_ || (!pending_.empty() && int(pending_.size()) >= workers_) ||
             (one_request_per_call_ && !pending_.empty()) || (workers_ == 0 && pending_.empty());
    };
    // poll at least every kPollPeriod, waiting or not.
    auto poll_now = [&] {
      if (!poll || Clock::now() - last_poll < kPollPeriod) return;
      last_poll = Clock::now();
      lock.unlock();
      Status st = poll();
      lock.lock();
      if (!st.ok() && failed_.ok()) failed_ = std::move(st);
    };
    poll_now();
    while (!ready() && failed_.ok()) {
      work_.wait_for(lock, kPollPeriod);
      poll_now();
    }
    if (!failed_.ok()) {
      // Fail every waiting request; serve on until the workers are gone.
      for (Request* r : pending_) {
        r->status = failed_;
        r->done = true;
      }
      pending_.clear();
      pending_positions_ = 0;
      done_.notify_all();
      if (workers_ == 0) return failed_;
      work_.wait_for(lock, kPollPeriod);
      continue;
    }
    if (pending_.empty()) return Status();  // every worker finished

    // Whole requests, oldest first, as many as fit in a batch (at least one).
    std::vector<Request*> batch;
    int n = 0;
    auto it = pending_.begin();
    for (; it != pending_.end() && (batch.empty() || (!one_request_per_call_ && n + (*it)->n <= batch_size_)); ++it) {
      std::memcpy(planes_.data() + size_t(n) * plane_size_, (*it)->planes, size_t((*it)->n) * plane_size_);
      n += (*it)->n;
      batch.push_back(*it);
    }
    pending_.erase(pending_.begin(), it);
    pending_positions_ -= n;

    lock.unlock();
    auto start = Clock::now();
    Status st = network(EvalBatch{planes_.data(), n, policy_.data(), value_.data()});
    double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    lock.lock();

    stats_.batches++;
    stats_.positions += uint64_t(n);
    stats_.network_seconds += seconds;
    int at = 0;
    for (Request* r : batch) {
      if (st.ok()) {
        std::memcpy(r->policy, policy_.data() + size_t(at) * policy_size_, size_t(r->n) * policy_size_ * sizeof(float));
        std::memcpy(r->value, value_.data() + at, size_t(r->n) * sizeof(float));
      } else {
        r->status = st;
      }
      at += r->n;
      r->done = true;
    }
    if (!st.ok() && failed_.ok()) failed_ = std::move(st);
    done_.notify_all();
  }
}

}  // namespace manaka::search
