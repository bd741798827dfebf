// The file stream under a leaf writer whose row groups' columns are encoded
// on several threads (WriteOptions::leaf_threads).
//
// Parquet builds a column's last page (its levels run-length encoded, its
// values encoded and compressed: nearly all of the column's encoding work)
// when the column is closed, and a buffered row group's column, once its
// pages are built, asks the file for its position and writes its chunk
// there. Those calls must come in leaf order for the file to be the one a
// single thread writes. So a thread closes leaf i inside a Turn: its pages
// are built at once, beside the other threads', and its first call on the
// file waits until leaves 0..i-1 are placed. Calls outside a Turn (the
// footer, the caller's Tell) go straight through.
#pragma once

#include <arrow/io/interfaces.h>
#include <arrow/result.h>
#include <arrow/status.h>

#include <condition_variable>
#include <memory>
#include <mutex>

namespace manaka::parquet {

class OrderedSink final : public arrow::io::OutputStream {
 public:
  explicit OrderedSink(std::shared_ptr<arrow::io::OutputStream> file) : file_(std::move(file)) {}

  arrow::Status Close() override { return file_->Close(); }
  bool closed() const override { return file_->closed(); }
  arrow::Result<int64_t> Tell() const override;
  arrow::Status Write(const void* data, int64_t nbytes) override;
  arrow::Status Write(const std::shared_ptr<arrow::Buffer>& data) override;
  arrow::Status Flush() override { return file_->Flush(); }

  // A row group begins: leaf 0 is placed first.
  void begin_group();
  // `leaf`'s chunk is in the file: leaf + 1's turn.
  void placed(int leaf);
  // A leaf failed: the turns waiting, and any later, fail too (their
  // closes throw), so no thread waits for a leaf that will never be placed.
  void abandon();

  // While it lives, this thread's calls on the sink wait for `leaf`'s turn.
  class Turn {
   public:
    Turn(const OrderedSink& sink, int leaf);
    ~Turn();
    Turn(const Turn&) = delete;
    Turn& operator=(const Turn&) = delete;
  };

 private:
  arrow::Status wait_turn() const;

  std::shared_ptr<arrow::io::OutputStream> file_;
  mutable std::mutex mu_;
  mutable std::condition_variable turn_;
  int next_ = 0;  // the leaf placed next
  bool abandoned_ = false;
};

}  // namespace manaka::parquet
