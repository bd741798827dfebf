// MPK1 writer: creates (or truncates) a stream, writes its header at once,
// and appends records, each validated before it is buffered: the header and
// every record meet the rules the reader enforces (stream/header.h,
// stream/validate.h), so no stream this writer makes is one a reader refuses.
//
// Records are encoded into a buffer in whole records and the buffer goes to
// the file in whole records, so the file on disk ends on a record boundary
// after every flush() and whenever the buffer drains (it is read by others
// while producers append). A record that breaks a rule is refused with the
// record index and byte offset it would have had, and nothing of it is
// written:
//   games.mpk: record 17 at byte 4242: value_z is 0.5, must be exactly -1, 0 or 1
// After an I/O error the writer refuses everything with that error.
// Destroying an open writer closes it (flushing); close() reports the errors
// the destructor would swallow.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/file.h"
#include "core/status.h"
#include "stream/format.h"
#include "stream/validate.h"

namespace manaka::stream {

class Writer {
 public:
  // The buffer drains to the file once it holds this much.
  static constexpr size_t kBufferSize = size_t{1} << 20;

  // Validates the header (stream/header.h), creates the file and writes the
  // 24 header bytes (straight through: the file is a valid, empty stream as
  // soon as create() returns).
  static Result<Writer> create(const std::string& path, const Header& header);

  Writer(Writer&&) noexcept = default;
  Writer& operator=(Writer&&) noexcept;
  ~Writer();

  Status write(const RecordView& rec);
  Status write(const Record& rec) { return write(rec.view()); }
  // write() without rule 10 (validate_record_fields): for a record whose
  // packed bytes are shogi::pack of a shogi::Position, which holds them
  // valid by construction (stream import: the position codes decode through
  // Position::from_setup). The other rules are checked.
  Status write_packed_position(const RecordView& rec);
  // Hands buffered records to the OS: readable by other processes after it.
  Status flush();
  // flush() and fsync: durable after it.
  Status sync();
  // Flushes and closes; a second close() is a no-op. Writes after it fail.
  Status close();

  const Header& header() const { return header_; }
  const std::string& path() const { return path_; }
  bool is_open() const { return file_.is_open(); }
  uint64_t records_written() const { return records_; }  // buffered ones included
  uint64_t bytes_written() const { return offset_; }     // header included

 private:
  Writer() = default;
  Status fail(Status st);
  Status write_checked(const RecordView& rec, bool check_position);

  std::string path_;
  Header header_;
  OutputFile file_;
  std::vector<uint8_t> buffer_;
  uint64_t records_ = 0;
  uint64_t offset_ = 0;  // where the next record starts
  MoveSeen seen_;        // rule 9's working set
  Status failure_;       // sticky I/O error
};

}  // namespace manaka::stream
