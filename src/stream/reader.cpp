#include "stream/reader.h"

#include <cstring>

#include "core/progress.h"
#include "stream/header.h"
#include "stream/record.h"
#include "stream/validate.h"

namespace manaka::stream {

Result<Reader> Reader::open(const std::string& path) {
  MANAKA_ASSIGN_OR_RETURN(InputFile file, InputFile::open(path));
  Reader r;
  r.path_ = path;
  r.size_ = file.size_at_open();
  r.file_ = std::move(file);
  r.buffer_ = std::make_unique_for_overwrite<uint8_t[]>(kBufferSize);
  r.data_ = r.buffer_.get();
  MANAKA_RETURN_NOT_OK(r.read_header());
  return r;
}

Result<Reader> Reader::from_memory(std::span<const uint8_t> bytes, std::string name) {
  Reader r;
  r.path_ = std::move(name);
  r.size_ = bytes.size();
  r.data_ = bytes.data();
  r.end_ = bytes.size();
  r.eof_ = true;
  MANAKA_RETURN_NOT_OK(r.read_header());
  return r;
}

Result<bool> Reader::ensure(size_t n) {
  if (end_ - pos_ >= n) return true;
  if (eof_) return false;
  // Move the unread tail to the front and fill the rest of the buffer.
  size_t tail = end_ - pos_;
  if (tail > 0 && pos_ > 0) std::memmove(buffer_.get(), buffer_.get() + pos_, tail);
  pos_ = 0;
  end_ = tail;
  MANAKA_ASSIGN_OR_RETURN(size_t got, file_.read(buffer_.get() + end_, kBufferSize - end_));
  end_ += got;
  if (end_ < kBufferSize) eof_ = true;  // read() fills the request unless at EOF
  return end_ - pos_ >= n;
}

Status Reader::read_header() {
  MANAKA_ASSIGN_OR_RETURN(bool have, ensure(kHeaderSize));
  if (!have) {
    return Status::truncated(path_ + ": truncated: stream is " + std::to_string(end_ - pos_) +
                             " bytes, shorter than the 24-byte MPK1 header");
  }
  auto parsed = decode_header(std::span<const uint8_t, kHeaderSize>(data_ + pos_, kHeaderSize));
  if (!parsed.ok()) return std::move(parsed).take_status().with_context(path_ + ": header: ");
  header_ = *parsed;
  pos_ += kHeaderSize;
  offset_ = kHeaderSize;
  return Status();
}

Status Reader::fail(Status st) {
  failure_ = std::make_unique<Status>(st);
  return st;
}

Result<size_t> Reader::frame() {
  MANAKA_ASSIGN_OR_RETURN(size_t size, frame_prefix());
  if (size == 0) return size;
  MANAKA_RETURN_NOT_OK(check_body());
  return size;
}

Result<size_t> Reader::frame_prefix() {
  if (failure_) return *failure_;
  auto have = ensure(kRecordFixedSize);
  if (!have.ok()) return fail(std::move(have).take_status());
  if (!*have) {
    size_t remain = end_ - pos_;
    if (remain == 0) return size_t{0};
    return fail(Status::truncated(path_ + ": truncated: file ends inside record " + std::to_string(index_) +
                                  " at byte " + std::to_string(offset_) + " (needs at least " +
                                  std::to_string(kRecordFixedSize) + " bytes, " + std::to_string(remain) +
                                  " remain)"));
  }
  // The prefix rules first, so a corrupt prefix is not reported as truncation.
  RecordPrefix pre = decode_prefix(data_ + pos_);
  if (!prefix_passes(pre.value_z, pre.value_q, pre.n_cand)) {
    Status st = validate_prefix(pre.value_z, pre.value_q, pre.n_cand);
    if (!st.ok()) return fail(std::move(st).with_context(record_context(path_, index_, offset_)));
  }

  size_t size = record_size(header_.packed_len, pre.n_cand);
  have = ensure(size);
  if (!have.ok()) return fail(std::move(have).take_status());
  if (!*have) {
    return fail(Status::truncated(path_ + ": truncated: file ends inside record " + std::to_string(index_) +
                                  " at byte " + std::to_string(offset_) + " (needs " + std::to_string(size) +
                                  " bytes, " + std::to_string(end_ - pos_) + " remain)"));
  }
  return size;
}

Status Reader::check_body() {
  const uint16_t n_cand = decode_prefix(data_ + pos_).n_cand;
  const uint8_t* packed = data_ + pos_ + kRecordFixedSize;
  const uint8_t* wire = packed + header_.packed_len;
  if (!candidates_pass(header_.policy_source, wire, n_cand, seen_)) {
    // The screen says no: decode for the rule that failed and its message.
    if (candidates_.size() < n_cand) candidates_.resize(n_cand);
    decode_candidates(wire, n_cand, candidates_.data());
    Status st = validate_candidates(header_, std::span<const Candidate>(candidates_.data(), n_cand), seen_);
    if (!st.ok()) return fail(std::move(st).with_context(record_context(path_, index_, offset_)));
  }
  if (!position_passes(header_, packed)) {
    Status st = validate_position(header_, std::span<const uint8_t>(packed, header_.packed_len));
    if (!st.ok()) return fail(std::move(st).with_context(record_context(path_, index_, offset_)));
  }
  return Status();
}

Result<bool> Reader::next(RecordView& out) {
  MANAKA_ASSIGN_OR_RETURN(size_t size, frame());
  if (size == 0) return false;
  hand_out(out, size);
  return true;
}

void Reader::hand_out(RecordView& out, size_t size) {
  const uint8_t* p = data_ + pos_;
  RecordPrefix pre = decode_prefix(p);
  if (candidates_.size() < pre.n_cand) candidates_.resize(pre.n_cand);
  decode_candidates(p + kRecordFixedSize + header_.packed_len, pre.n_cand, candidates_.data());
  out.ply = pre.ply;
  out.value_z = pre.value_z;
  out.value_q = pre.value_q;
  out.packed = std::span<const uint8_t>(p + kRecordFixedSize, header_.packed_len);
  out.candidates = std::span<const Candidate>(candidates_.data(), pre.n_cand);
  advance(size);
}

Result<bool> Reader::skip_batch() {
  // One record through frame(), which refills the buffer and words any error.
  MANAKA_ASSIGN_OR_RETURN(size_t size, frame());
  if (size == 0) return false;
  advance(size);
  // Then every record already whole in the buffer, screened only. The first
  // that is cut off by the buffer's end, or fails a screen, is left for the
  // next call's frame() to refill for or to report.
  while (end_ - pos_ >= kRecordFixedSize) {
    const uint8_t* p = data_ + pos_;
    RecordPrefix pre = decode_prefix(p);
    size = record_size(header_.packed_len, pre.n_cand);
    if (end_ - pos_ < size || !prefix_passes(pre.value_z, pre.value_q, pre.n_cand) ||
        !candidates_pass(header_.policy_source, p + kRecordFixedSize + header_.packed_len, pre.n_cand, seen_) ||
        !position_passes(header_, p + kRecordFixedSize)) {
      break;
    }
    advance(size);
  }
  return true;
}

Result<uint64_t> validate_all(Reader& reader, Progress* progress) {
  while (true) {
    MANAKA_ASSIGN_OR_RETURN(bool more, reader.skip_batch());
    if (!more) break;
    if (progress) progress->update(reader.byte_offset(), reader.record_index());
  }
  if (progress) progress->update(reader.byte_offset(), reader.record_index());
  return reader.record_index();
}

}  // namespace manaka::stream
