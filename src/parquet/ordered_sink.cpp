#include "parquet/ordered_sink.h"

namespace manaka::parquet {

namespace {

// The Turn this thread is in, if any: which sink and which leaf.
thread_local const OrderedSink* turn_sink = nullptr;
thread_local int turn_leaf = -1;

}  // namespace

OrderedSink::Turn::Turn(const OrderedSink& sink, int leaf) {
  turn_sink = &sink;
  turn_leaf = leaf;
}

OrderedSink::Turn::~Turn() {
  turn_sink = nullptr;
  turn_leaf = -1;
}

arrow::Status OrderedSink::wait_turn() const {
  if (turn_sink != this) return arrow::Status::OK();
  std::unique_lock lock(mu_);
  turn_.wait(lock, [&] { return next_ == turn_leaf || abandoned_; });
  if (abandoned_) return arrow::Status::Cancelled("another column of the row group failed");
  return arrow::Status::OK();
}

arrow::Result<int64_t> OrderedSink::Tell() const {
  ARROW_RETURN_NOT_OK(wait_turn());
  return file_->Tell();
}

arrow::Status OrderedSink::Write(const void* data, int64_t nbytes) {
  ARROW_RETURN_NOT_OK(wait_turn());
  return file_->Write(data, nbytes);
}

arrow::Status OrderedSink::Write(const std::shared_ptr<arrow::Buffer>& data) {
  ARROW_RETURN_NOT_OK(wait_turn());
  return file_->Write(data);
}

void OrderedSink::begin_group() {
  std::lock_guard lock(mu_);
  next_ = 0;
  abandoned_ = false;
}

void OrderedSink::placed(int leaf) {
  {
    std::lock_guard lock(mu_);
    next_ = leaf + 1;
  }
  turn_.notify_all();
}

void OrderedSink::abandon() {
  {
    std::lock_guard lock(mu_);
    abandoned_ = true;
  }
  turn_.notify_all();
}

}  // namespace manaka::parquet
