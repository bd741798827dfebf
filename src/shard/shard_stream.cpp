#include "shard/shard_stream.h"

#include <algorithm>

#include "core/threads.h"

namespace manaka::shard {

ShardStream::ShardStream(std::vector<std::string> paths, const ShardStreamOptions& options)
    : paths_(std::move(paths)), columns_(options.columns), plan_(options.groups) {
  unsigned threads = options.threads ? options.threads : hardware_threads();
  depth_ = options.depth ? options.depth : 2 * threads;
  // Enough for every batch in flight (decoded ahead, in decode) and two the
  // caller holds; more given back are freed.
  pool_ = std::make_shared<ShardBatchPool>(depth_ + threads + 2);
  for (unsigned t = 0; t < threads; ++t) workers_.emplace_back([this] { work(); });
}

ShardStream::~ShardStream() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  for (auto& t : workers_) t.join();
}

Result<std::unique_ptr<ShardStream>> ShardStream::open(std::vector<std::string> paths,
                                                       const ShardStreamOptions& options) {
  for (const ShardGroup& g : options.groups)
    if (g.file >= paths.size()) return Status::usage("a planned row group names file " + std::to_string(g.file) +
                                                     " of " + std::to_string(paths.size()));
  if (!paths.empty()) MANAKA_RETURN_NOT_OK(ShardReader::open(paths.front()).status());
  return std::unique_ptr<ShardStream>(new ShardStream(std::move(paths), options));
}

// The next (file, group) in order, once it is within depth of the caller.
// A file's row group count is learnt by opening it here (its footer only);
// a file that cannot be opened becomes that place's error.
bool ShardStream::take(Task& task, std::unique_lock<std::mutex>& lock) {
  cv_.wait(lock, [&] { return stopping_ || ended_ || next_task_ < next_out_ + depth_; });
  while (!stopping_ && !ended_) {
    if (!plan_.empty()) {
      if (plan_next_ == plan_.size()) {
        ended_ = true;
        cv_.notify_all();
        break;
      }
      const ShardGroup g = plan_[plan_next_++];
      task = Task{next_task_++, g.file, g.group};
      return true;
    }
    if (file_ >= paths_.size()) {
      ended_ = true;
      cv_.notify_all();  // next() may be waiting to learn that
      break;
    }
    if (groups_ < 0) {
      auto reader = ShardReader::open(paths_[file_]);
      if (!reader.ok()) {
        ready_.emplace(next_task_++, std::move(reader).take_status());
        ended_ = true;
        cv_.notify_all();
        break;
      }
      groups_ = reader->num_row_groups();
    }
    if (group_ >= groups_) {
      ++file_;
      group_ = 0;
      groups_ = -1;
      continue;
    }
    task = Task{next_task_++, file_, group_++};
    return true;
  }
  return false;
}

void ShardStream::work() {
  // This worker's reader of the file it works in: opened on the first task
  // there, dropped when a task of a later file comes.
  size_t open_file = SIZE_MAX;
  std::unique_ptr<ShardReader> reader;
  std::unique_lock lock(mu_);
  Task task;
  while (take(task, lock)) {
    lock.unlock();
    Result<ShardBatch> batch = ShardBatch{};
    if (task.file != open_file) {
      reader.reset();
      auto opened = ShardReader::open(paths_[task.file]);
      if (opened.ok()) {
        reader = std::make_unique<ShardReader>(std::move(*opened));
        open_file = task.file;
      } else {
        batch = std::move(opened).take_status();
      }
    }
    if (reader && open_file == task.file) {
      ShardBatch b = pool_->take(columns_);
      Status read = reader->read_row_group_into(task.group, columns_, b);
      if (read.ok()) {
        b.file = task.file;
        b.group = task.group;
        batch = std::move(b);
      } else {
        pool_->give(std::move(b));
        batch = std::move(read);
      }
    }
    lock.lock();
    ready_.emplace(task.seq, std::move(batch));
    cv_.notify_all();
  }
}

Result<bool> ShardStream::next(ShardBatch& out) {
  std::unique_lock lock(mu_);
  cv_.wait(lock, [&] { return ready_.count(next_out_) || (ended_ && next_out_ >= next_task_); });
  auto it = ready_.find(next_out_);
  if (it == ready_.end()) return false;
  Result<ShardBatch> got = std::move(it->second);
  ready_.erase(it);
  if (!got.ok()) {
    ended_ = true;
    next_task_ = next_out_;  // nothing after a failure is handed out
    ready_.clear();
    cv_.notify_all();
    return std::move(got).take_status();
  }
  ++next_out_;
  cv_.notify_all();
  out = std::move(*got);
  return true;
}

}  // namespace manaka::shard
