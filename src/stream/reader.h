// Streaming MPK1 reader: constant memory however long the stream, every
// record re-validated (stream/validate.h) before it is handed out.
//
//   MANAKA_ASSIGN_OR_RETURN(auto reader, stream::Reader::open("games.mpk"));
//   stream::RecordView rec;
//   while (true) {
//     MANAKA_ASSIGN_OR_RETURN(bool more, reader.next(rec));
//     if (!more) break;   // clean end of stream
//     ... rec.packed, rec.candidates ...
//   }
//
// validate_all skips instead (skip_batch): the same rules and messages, with
// the candidates checked straight from their wire bytes and never decoded,
// and the position by shogi::packed_is_valid (unpack runs only to word a
// refusal).
//
// Memory: one fixed 2 MiB read buffer (a record is at most 589,827 bytes, see
// kMaxRecordSize, so any record fits) plus a candidate array of at most
// n_cand <= 65535 entries, reused from record to record. Files are read(),
// not mmap()ed: windows of a mapping measured faster still, but a file
// truncated under a mapping kills the process with SIGBUS where read() lets
// the reader report the truncation.
//
// Errors name the file, the record index, its byte offset and the rule:
//   games.mpk: record 17 at byte 4242: value_z is 0.5, must be exactly -1, 0 or 1
// A stream that ends inside a record is ErrorKind::Truncated:
//   games.mpk: truncated: file ends inside record 17 at byte 4242 (needs 160 bytes, 37 remain)
// and so is one shorter than the header. After an error next() and
// skip_batch() keep returning it.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/file.h"
#include "core/status.h"
#include "stream/format.h"
#include "stream/validate.h"

namespace manaka {
class Progress;
}

namespace manaka::stream {

class Reader {
 public:
  // Measured on a page-cached file: 1, 2, 4 and 8 MiB all read and validate
  // at the same speed (chunks of 128 KiB and less were slower); 2 MiB halves
  // the refills of 1 MiB and keeps what read() copied in cache for the checks.
  static constexpr size_t kBufferSize = size_t{2} << 20;
  static_assert(kBufferSize >= kMaxRecordSize, "a record must fit the read buffer");

  // Opens a file and reads its header.
  static Result<Reader> open(const std::string& path);
  // Reads a stream held in memory, without copying it; bytes must outlive the
  // reader. name stands in for the path in messages.
  static Result<Reader> from_memory(std::span<const uint8_t> bytes, std::string name = "<memory>");
  // A temporary would dangle: keep the bytes in a variable.
  static Result<Reader> from_memory(std::vector<uint8_t>&& bytes, std::string name = "<memory>") = delete;

  Reader(Reader&&) noexcept = default;
  Reader& operator=(Reader&&) noexcept = default;

  const Header& header() const { return header_; }
  const std::string& path() const { return path_; }
  // Bytes in the stream when it was opened (0 when unknown, e.g. a pipe).
  uint64_t size() const { return size_; }

  // The next record, validated. Returns false at a clean end of stream (the
  // last record ended exactly at the end). out borrows the reader's buffers
  // and stays valid until the next call.
  Result<bool> next(RecordView& out);

  // next() for a reader that keeps only some records: keep(packed) -> bool
  // decides by the board alone. A record kept is validated and handed out as
  // next() would; one refused is framed (its prefix rules and its size
  // checked) and passed over, the rest of its rules unchecked. Readers that
  // split a stream between them (pack's fold parts, by board hash) so check
  // every record once between them, where each next() would check all.
  template <typename Keep>
  Result<bool> next_kept(RecordView& out, Keep&& keep) {
    while (true) {
      MANAKA_ASSIGN_OR_RETURN(size_t size, frame_prefix());
      if (size == 0) return false;
      if (keep(data_ + pos_ + kRecordFixedSize)) {
        MANAKA_RETURN_NOT_OK(check_body());
        hand_out(out, size);
        return true;
      }
      advance(size);
    }
  }

  // Validates the next records without handing them out (the candidates are
  // never decoded): one, then every further record the read buffer already
  // holds whole, thousands a call. Returns false at a clean end of stream;
  // fails exactly as next() would, on the same record with the same message.
  Result<bool> skip_batch();

  // The index and byte offset of the record next() reads next: after n
  // records, n and the offset just past the n-th; at the end of a clean
  // stream, the record count and the stream's size.
  uint64_t record_index() const { return index_; }
  uint64_t byte_offset() const { return offset_; }

 private:
  Reader() = default;
  Status read_header();
  // Makes at least n bytes available from pos_, refilling from the file;
  // false when the stream ends first.
  Result<bool> ensure(size_t n);
  Status fail(Status st);
  // Makes the record at pos_ whole in the buffer and validates it; its size,
  // or 0 at a clean end of stream. Does not advance.
  Result<size_t> frame();
  // frame()'s two halves: the record whole in the buffer, its prefix rules
  // checked (its size, or 0 at a clean end); then the rest of its rules.
  Result<size_t> frame_prefix();
  Status check_body();
  // The framed record at pos_ into out, decoded; advances.
  void hand_out(RecordView& out, size_t size);
  void advance(size_t size) {
    pos_ += size;
    offset_ += size;
    ++index_;
  }

  std::string path_;
  uint64_t size_ = 0;
  InputFile file_;                // closed for an in-memory stream
  std::unique_ptr<uint8_t[]> buffer_;  // kBufferSize bytes for a file, null in memory
  const uint8_t* data_ = nullptr;      // buffer_.get(), or the caller's bytes
  size_t pos_ = 0, end_ = 0;      // unread bytes are data_[pos_, end_)
  bool eof_ = false;              // the source has nothing more to give
  Header header_;
  uint64_t index_ = 0;
  uint64_t offset_ = 0;
  std::vector<Candidate> candidates_;
  MoveSeen seen_;                    // rule 9's working set
  std::unique_ptr<Status> failure_;  // set once next() has failed
};

// Reads every record to the end (each validated) and returns the count; the
// loop behind `manaka stream validate`. progress may be null.
Result<uint64_t> validate_all(Reader& reader, Progress* progress = nullptr);

}  // namespace manaka::stream
