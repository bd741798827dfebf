// MPK1, the raw training stream: constants, the header and the record.
// Specified in mpk1-training-data-formats ("MPK1, the raw stream" through
// "Validation"). Little-endian throughout.
//
// Header, 24 bytes:
//   off size field
//     0   4  magic          u32  "MPK1" in file order (0x314B504D)
//     4   2  version        u16  1
//     6   2  packed_len     u16  bytes of the position in every record (96)
//     8   1  pov            u8   0 side to move, 1 Black
//     9   1  policy_source  u8   0 visits, 1 softmax over cp
//    10   2  mate_scale     u16  cp value mates fold to; 0 not applicable
//    12   2  fv_scale       u16  FV_SCALE of the generating eval; 0 not stated
//    14   2  mate_slack     u16  threshold = mate_scale - slack; 0 -> 320
//    16   4  eval_coef      f32  cp scale value_q was squashed with; 0 n/a
//    20   4  flags          u32  written 0; a reader refuses any set bit
//
// Record, 12 + packed_len + 8 * n_cand bytes:
//     0   2  ply            u16
//     2   4  value_z        f32  this game's outcome, side to move: -1, 0, 1
//     6   4  value_q        f32  search root value, same view, in [-1, 1]
//    10   2  n_cand         u16  >= 1
//    12   P  packed         u8[packed_len]
//  12+P   8n candidates, each:
//     +0  2  mv             u16  move16 (below)
//     +2  4  visits         u32  NO_VISITS (0) when absent
//     +6  2  cp             i16  NO_CP (-32768) when absent
//
// move16: bits 0-6 destination square (< 81), bits 7-13 origin square, or
// 81 + hand index for a drop (<= 87), bit 14 promotion (never on a drop),
// bit 15 clear.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace manaka::stream {

inline constexpr uint32_t kMagic = 0x314B504D;  // "MPK1" read as u32 LE
inline constexpr uint16_t kVersion = 1;
inline constexpr size_t kHeaderSize = 24;
inline constexpr size_t kRecordFixedSize = 12;  // ply, value_z, value_q, n_cand
inline constexpr size_t kCandidateSize = 8;     // mv, visits, cp
inline constexpr size_t kShogiPackedLen = 96;   // manaka::shogi::pack's position
inline constexpr size_t kMaxCandidates = std::numeric_limits<uint16_t>::max();
// The largest record any header allows (packed_len and n_cand at u16 max):
// 589,827 bytes. Buffers sized from file fields are capped by this.
inline constexpr size_t kMaxRecordSize =
    kRecordFixedSize + std::numeric_limits<uint16_t>::max() + kCandidateSize * kMaxCandidates;

// Header ranges (stream/header.h): eval_coef is 0 (not applicable) or within
// [kMinEvalCoef, kMaxEvalCoef] centipawns; mate_scale is 0 or at most
// kMaxMateScale, the largest cp an i16 holds.
inline constexpr float kMinEvalCoef = 1.0f;
inline constexpr float kMaxEvalCoef = 100000.0f;
inline constexpr uint16_t kMaxMateScale = std::numeric_limits<int16_t>::max();
// The slack a header's mate_slack 0 stands for.
inline constexpr uint16_t kDefaultMateSlack = 320;

inline constexpr uint32_t kNoVisits = 0;
inline constexpr int16_t kNoCp = std::numeric_limits<int16_t>::min();

// move16 fields.
inline constexpr int kSquareCount = 81;
inline constexpr int kMaxOriginField = 87;  // 81 + 6, the last hand kind
inline constexpr uint16_t kMoveToMask = 0x007F;
inline constexpr int kMoveFromShift = 7;
inline constexpr uint16_t kMoveFromMask = 0x7F;  // after the shift
inline constexpr uint16_t kMovePromoteBit = 1u << 14;
inline constexpr uint16_t kMoveUnusedBit = 1u << 15;

// Serialized as u8, hence the fixed underlying types.
enum class Pov : uint8_t { SideToMove = 0, Black = 1 };

// +1, or -1 where a value (value_z, value_q, cp) in `pov`'s view is negated
// to be the side to move's: pov 1, Black's view, with White to move
// (side_to_move as packed byte 95 holds it: 0 Black, 1 White). The one rule
// the fold's policy, the shard reader and export turn a pov-1 value by.
inline int side_to_move_sign(Pov pov, uint8_t side_to_move) {
  return pov == Pov::Black && side_to_move == 1 ? -1 : 1;
}
enum class PolicySource : uint8_t { Visits = 0, Cp = 1 };

struct Header {
  uint16_t version = kVersion;
  uint16_t packed_len = kShogiPackedLen;
  Pov pov = Pov::SideToMove;
  PolicySource policy_source = PolicySource::Visits;
  uint16_t mate_scale = 0;
  uint16_t fv_scale = 0;
  uint16_t mate_slack = 0;  // the layout line's "reserved" slot
  float eval_coef = 0.0f;
  uint32_t flags = 0;

  bool operator==(const Header&) const = default;
};

// One candidate in memory (12 bytes here, 8 on the wire).
struct Candidate {
  uint16_t mv = 0;
  uint32_t visits = kNoVisits;
  int16_t cp = kNoCp;

  bool has_visits() const { return visits != kNoVisits; }
  bool has_cp() const { return cp != kNoCp; }
  int to_square() const { return mv & kMoveToMask; }
  int origin_field() const { return (mv >> kMoveFromShift) & kMoveFromMask; }
  bool is_drop() const { return origin_field() >= kSquareCount; }
  bool is_promote() const { return (mv & kMovePromoteBit) != 0; }
  // The origin square, or -1 for a drop.
  int from_square() const { return is_drop() ? -1 : origin_field(); }
  // The hand index (P L N S G B R = 0..6) of a drop, or -1.
  int drop_hand_index() const { return is_drop() ? origin_field() - kSquareCount : -1; }

  bool operator==(const Candidate&) const = default;
};

// A record that borrows its bytes: from a Reader (valid until its next call)
// or from an owning Record.
struct RecordView {
  uint16_t ply = 0;
  float value_z = 0.0f;
  float value_q = 0.0f;
  std::span<const uint8_t> packed;
  std::span<const Candidate> candidates;
};

struct Record {
  uint16_t ply = 0;
  float value_z = 0.0f;
  float value_q = 0.0f;
  std::vector<uint8_t> packed;
  std::vector<Candidate> candidates;

  RecordView view() const { return {ply, value_z, value_q, packed, candidates}; }
};

inline size_t record_size(size_t packed_len, size_t n_cand) {
  return kRecordFixedSize + packed_len + kCandidateSize * n_cand;
}

}  // namespace manaka::stream
