#include "stream/writer.h"

#include "stream/header.h"
#include "stream/record.h"
#include "stream/validate.h"

namespace manaka::stream {

Result<Writer> Writer::create(const std::string& path, const Header& header) {
  Status st = validate_header(header);
  if (!st.ok()) return std::move(st).with_context(path + ": header: ");
  MANAKA_ASSIGN_OR_RETURN(OutputFile file, OutputFile::create(path));
  uint8_t bytes[kHeaderSize];
  encode_header(header, bytes);
  MANAKA_RETURN_NOT_OK(file.write_all(bytes, kHeaderSize));
  Writer w;
  w.path_ = path;
  w.header_ = header;
  w.file_ = std::move(file);
  w.buffer_.reserve(kBufferSize);
  w.offset_ = kHeaderSize;
  return w;
}

Writer& Writer::operator=(Writer&& other) noexcept {
  if (this != &other) {
    (void)close();
    path_ = std::move(other.path_);
    header_ = other.header_;
    file_ = std::move(other.file_);
    buffer_ = std::move(other.buffer_);
    records_ = other.records_;
    offset_ = other.offset_;
    seen_ = std::move(other.seen_);
    failure_ = std::move(other.failure_);
  }
  return *this;
}

Writer::~Writer() { (void)close(); }

Status Writer::fail(Status st) {
  failure_ = st;
  return st;
}

Status Writer::write(const RecordView& rec) { return write_checked(rec, true); }

Status Writer::write_packed_position(const RecordView& rec) { return write_checked(rec, false); }

Status Writer::write_checked(const RecordView& rec, bool check_position) {
  if (!failure_.ok()) return failure_;
  if (!file_.is_open()) return Status::io(path_ + ": write after close");
  Status st = check_position ? validate_record(header_, rec, seen_) : validate_record_fields(header_, rec, seen_);
  if (!st.ok()) return std::move(st).with_context(record_context(path_, records_, offset_));
  size_t size = record_size(rec.packed.size(), rec.candidates.size());
  if (!buffer_.empty() && buffer_.size() + size > kBufferSize) MANAKA_RETURN_NOT_OK(flush());
  encode_record(rec, buffer_);
  ++records_;
  offset_ += size;
  return Status();
}

Status Writer::flush() {
  if (!failure_.ok()) return failure_;
  if (buffer_.empty()) return Status();
  Status st = file_.write_all(buffer_.data(), buffer_.size());
  if (!st.ok()) return fail(std::move(st));
  buffer_.clear();
  return Status();
}

Status Writer::sync() {
  MANAKA_RETURN_NOT_OK(flush());
  Status st = file_.sync();
  if (!st.ok()) return fail(std::move(st));
  return Status();
}

Status Writer::close() {
  if (!file_.is_open()) return failure_;
  Status st = flush();
  Status closed = file_.close();
  if (!st.ok()) return st;
  if (!closed.ok()) return fail(std::move(closed));
  return Status();
}

}  // namespace manaka::stream
