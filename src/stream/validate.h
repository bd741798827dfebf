// stream::validate: the rules every MPK1 record obeys, run by the writer
// before a record is written and by the reader on every record it returns,
// so that every consumer (pack, read_batches, inspect, dump) refuses what
// `manaka stream validate` refuses, and nothing else.
//
// A rule's message names the rule only ("value_z is 0.5, must be exactly -1,
// 0 or 1"); the writer and reader prefix it with the file, the record index
// and its byte offset (record_context).
//
// The rules, in the order they are checked:
//   1. at least one candidate (and, for an owning record, at most 65535)
//   2. packed is exactly packed_len bytes wide
//   3. value_z is exactly -1, 0 or 1
//   4. value_q is finite and within [-1, 1]
//   5. every mv looks like a move16: bit 15 clear, destination < 81, origin
//      field <= 87, no drop (origin field >= 81) flagged as promoting
//   6. visits present on every candidate or on none (likewise 7. cp)
//   8. the half policy_source names is present: visits for 0, cp for 1
//   9. no mv is listed twice ("mv 0x0082 is listed twice (candidates 0 and
//      2)"): the fold matches candidates by mv, and a repeated one would be
//      counted twice
//  10. when packed_len is 96, packed is a shogi position shogi::unpack
//      accepts: known board bytes, hand counts and side byte in range, one
//      king a side, no piece that can never move, no nifu, no more pieces
//      than a set, the side not to move not in check ("packed byte 37:
//      unknown board byte 0x37", "packed position: White has no king")
// "visits present but totalling zero" needs no rule of its own: NO_VISITS is
// 0, so a present count is >= 1 and a record with visits present totals at
// least n_cand; a record whose counts are all zero has visits absent, which
// rule 8 refuses in a visit-sourced stream (its message says the total is
// zero). The sum is computed in u64 and checked anyway.
//
// The header's rules are in stream/header.h (validate_header).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "core/status.h"
#include "shogi/pack.h"
#include "stream/format.h"

namespace manaka::stream {

// Rule 9's working set: a stamp per move16 (32 KiB). Each check takes a new
// stamp and marks every mv of one record with it, so a mv already carrying
// it is listed twice; nothing is cleared between records (all stamps are
// reset once every 255 checks). Each reader and writer owns one; a MoveSeen
// is not for two threads at once.
class MoveSeen {
 public:
  MoveSeen();

  // The index of the first candidate whose mv an earlier candidate already
  // lists, with the earlier index in *earlier; -1 when every mv is distinct.
  // Every mv is a move16 (rule 5; bit 15 is ignored).
  int64_t first_repeat(std::span<const Candidate> candidates, size_t* earlier);
  // Whether some mv of the n wire candidates (8 bytes each) is listed twice;
  // the same move16 premise.
  bool any_repeat(const uint8_t* wire, size_t n);

 private:
  static constexpr size_t kMoves = size_t{1} << 15;
  uint8_t next_stamp();

  std::unique_ptr<uint8_t[]> stamp_;  // kMoves stamps
  uint8_t current_ = 0;
};

// Rules 1-10 against the stream's header. Without `seen`, a MoveSeen of its
// own (32 KiB allocated per call): a caller checking many records keeps one.
Status validate_record(const Header& header, const RecordView& rec, MoveSeen& seen);
Status validate_record(const Header& header, const RecordView& rec);
// Rules 1-9, every rule but the position's: for a writer whose packed bytes
// are shogi::pack of a shogi::Position, valid by construction (stream import).
Status validate_record_fields(const Header& header, const RecordView& rec, MoveSeen& seen);

// The rules that need only the record's first 12 bytes (1, 3, 4); the reader
// runs them before it knows the rest of the record is there, so a corrupt
// prefix is reported as corrupt rather than as a truncation.
Status validate_prefix(float value_z, float value_q, size_t n_cand);

// Rules 5-9.
Status validate_candidates(const Header& header, std::span<const Candidate> candidates, MoveSeen& seen);
Status validate_candidates(const Header& header, std::span<const Candidate> candidates);

// Rule 10 for one record's packed bytes (packed_len of them): always ok
// unless packed_len is 96. The message names the byte within the position
// where there is one ("packed byte 37: ..."), else "packed position: ...".
Status validate_position(const Header& header, std::span<const uint8_t> packed);

// Rule 5 for one move; the message starts with "mv 0x....".
Status validate_move16(uint16_t mv);

// ---- Screens: the same rules as yes/no answers, for the reader's hot loop ----
// A screen builds no message and, for candidates, reads the wire bytes
// straight, without decoding them into Candidate. Each agrees exactly with
// the Status function it stands in for (tests/cpp/stream/screen_test.cpp);
// still, a caller treats a failed screen only as "run the full check", which
// stays the one source of every verdict and message.

// validate_prefix(...).ok().
inline bool prefix_passes(float value_z, float value_q, size_t n_cand) {
  return n_cand != 0 && n_cand <= kMaxCandidates &&
         (value_z == -1.0f || value_z == 0.0f || value_z == 1.0f) &&  // -0.0f == 0.0f, NaN fails
         std::isfinite(value_q) && value_q >= -1.0f && value_q <= 1.0f;
}

// validate_candidates(header, decoded, seen).ok() for the n candidates in
// their 8-byte wire form at wire (of the header, only policy_source matters).
bool candidates_pass(PolicySource source, const uint8_t* wire, size_t n, MoveSeen& seen);

// validate_position(header, packed).ok() for the packed_len bytes at packed.
inline bool position_passes(const Header& header, const uint8_t* packed) {
  return header.packed_len != kShogiPackedLen ||
         shogi::packed_is_valid(std::span<const uint8_t, shogi::PACKED_LEN>(packed, shogi::PACKED_LEN));
}

// "path: record 17 at byte 4242: "
std::string record_context(const std::string& path, uint64_t index, uint64_t offset);

}  // namespace manaka::stream
