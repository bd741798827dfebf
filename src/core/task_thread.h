// One long-lived thread that runs the tasks given to it, in order.
//
// Why not std::async per batch: each call starts a new thread, and Arrow's
// allocator (mimalloc) gives every new thread fresh pages, which the kernel
// must fault in and zero (2 MiB at a time under transparent huge pages). A
// pipeline stage that allocates per batch therefore lives on one TaskThread
// for the whole run and reuses its memory.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <type_traits>
#include <vector>

namespace manaka {

class TaskThread {
 public:
  TaskThread() : thread_([this] { run(); }) {}
  // Runs what is queued, then joins.
  ~TaskThread() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    ready_.notify_one();
    thread_.join();
  }
  TaskThread(const TaskThread&) = delete;
  TaskThread& operator=(const TaskThread&) = delete;

  template <typename F>
  std::future<std::invoke_result_t<F>> submit(F&& f) {
    auto task = std::make_shared<std::packaged_task<std::invoke_result_t<F>()>>(std::forward<F>(f));
    auto result = task->get_future();
    {
      std::lock_guard lock(mutex_);
      tasks_.emplace_back([task] { (*task)(); });
    }
    ready_.notify_one();
    return result;
  }

 private:
  void run() {
    for (;;) {
      std::function<void()> task;
      {
        std::unique_lock lock(mutex_);
        ready_.wait(lock, [this] { return stopping_ || !tasks_.empty(); });
        if (tasks_.empty()) return;
        task = std::move(tasks_.front());
        tasks_.pop_front();
      }
      task();
    }
  }

  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> tasks_;
  bool stopping_ = false;
  std::thread thread_;  // last: starts after the members it uses exist
};

// Runs work on the calling thread and on as many helpers as there are other
// shares of it (shares - 1 at most), and returns once every copy has: work
// takes its shares from a counter of its own, so a copy with none left returns.
template <typename F>
void run_shared(std::span<TaskThread> helpers, size_t shares, F& work) {
  std::vector<std::future<void>> done;
  for (size_t h = 0; h < helpers.size() && h + 1 < shares; ++h) done.push_back(helpers[h].submit(work));
  work();
  for (auto& d : done) d.get();
}

}  // namespace manaka
