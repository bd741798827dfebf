#include "stream/validate.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

#include "shogi/pack.h"
#include "stream/record.h"
#include "core/text.h"

namespace manaka::stream {

namespace {


std::string hex16(uint16_t v) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%04X", v);
  return buf;
}

std::string candidate_prefix(size_t i) { return "candidate " + std::to_string(i) + ": "; }

// ---- candidates_pass: rules 5-8 over wire bytes, two candidates at a time ----
//
// 16 bytes hold two wire candidates. Each step folds both into running
// maxima and absence masks with plain vector instructions (GCC/Clang vector
// extensions: SSE2 on x86-64, NEON on ARM, no target flags); nothing branches
// per candidate. The order of candidates does not matter, so an odd count
// takes its last step over the final two candidates again.
//
// Rule 5 reads the bytes as eight u16 lanes (mv in lanes 0 and 4; the other
// lanes compute the same expressions on other fields, and are masked off at
// the end) and becomes three maxima. With f = mv >> 7, a 9-bit field of the
// origin (bits 0-6), the promotion bit (7) and bit 15 (8):
//   mv & 0x7F   destination                       <= 80
//   f & 0x17F   origin, plus 256 if bit 15 is set  <= 87
//   f & 0xFF    origin, plus 128 if promoting      <= 208 (209 up: a
//               promoting drop, origin field >= 81)
// All three stay below 0x8000, so the cheap signed maxima are exact.
//
// Rules 6-8 shift each candidate right by 16 bits as a u64, which leaves
// visits in its low u32 lane and cp (zero-extended) in its high one, and
// compare both with their "absent" value in one instruction. OR-ing the masks
// says whether some candidate lacks each half, AND-ing whether all do.
typedef int16_t I16x8 __attribute__((vector_size(16)));
typedef uint16_t U16x8 __attribute__((vector_size(16)));
typedef int32_t I32x4 __attribute__((vector_size(16)));
typedef uint64_t U64x2 __attribute__((vector_size(16)));

constexpr int16_t kDestinationMax = kSquareCount - 1;                                    // 80
constexpr int16_t kPromotingDropMin = (kMovePromoteBit >> kMoveFromShift) + kSquareCount;  // 209
constexpr int32_t kNoCpLane = static_cast<uint16_t>(kNoCp);
constexpr I32x4 kAbsent = {kNoVisits, kNoCpLane, kNoVisits, kNoCpLane};
constexpr I16x8 kMoveLanes = {-1, 0, 0, 0, -1, 0, 0, 0};

class WireScreen {
 public:
  void add_pair(const uint8_t* p) {
    I16x8 v;
    std::memcpy(&v, p, sizeof v);
    I16x8 to = v & 0x7F;
    I16x8 f = std::bit_cast<I16x8>(std::bit_cast<U16x8>(v) >> kMoveFromShift);
    I16x8 origin = f & 0x17F, drop = f & 0xFF;
    max_to_ = max_to_ > to ? max_to_ : to;
    max_origin_ = max_origin_ > origin ? max_origin_ : origin;
    max_drop_ = max_drop_ > drop ? max_drop_ : drop;
    I32x4 absent = std::bit_cast<I32x4>(std::bit_cast<U64x2>(v) >> 16) == kAbsent;
    some_absent_ |= absent;
    all_absent_ &= absent;
  }

  bool passes(PolicySource source) const {
    I16x8 bad = (max_to_ > kDestinationMax) | (max_origin_ > kMaxOriginField) |
                (max_drop_ >= kPromotingDropMin);
    U64x2 bad_moves = std::bit_cast<U64x2>(bad & kMoveLanes);
    if ((bad_moves[0] | bad_moves[1]) != 0) return false;
    // Both candidate slots folded: the low u32 says visits, the high one cp.
    U64x2 some = std::bit_cast<U64x2>(some_absent_), all = std::bit_cast<U64x2>(all_absent_);
    uint64_t some_absent = some[0] | some[1], all_absent = all[0] & all[1];
    bool visits_absent = static_cast<uint32_t>(some_absent) != 0;
    bool visits_present = static_cast<uint32_t>(all_absent) == 0;
    bool cp_absent = (some_absent >> 32) != 0;
    bool cp_present = (all_absent >> 32) == 0;
    if ((visits_absent && visits_present) || (cp_absent && cp_present)) return false;
    // Visits present on some is present on all here: a total >= n >= 1.
    return source == PolicySource::Visits ? visits_present : cp_present;
  }

 private:
  I16x8 max_to_{}, max_origin_{}, max_drop_{};
  I32x4 some_absent_{}, all_absent_ = ~I32x4{};
};

static_assert(kShogiPackedLen == shogi::PACKED_LEN);

}  // namespace

MoveSeen::MoveSeen() : stamp_(new uint8_t[kMoves]()) {}

uint8_t MoveSeen::next_stamp() {
  if (++current_ == 0) {  // wrapped: old stamps would match again
    std::memset(stamp_.get(), 0, kMoves);
    current_ = 1;
  }
  return current_;
}

int64_t MoveSeen::first_repeat(std::span<const Candidate> cands, size_t* earlier) {
  const uint8_t now = next_stamp();
  uint8_t* stamp = stamp_.get();
  for (size_t i = 0; i < cands.size(); ++i) {
    uint8_t& s = stamp[cands[i].mv & (kMoves - 1)];
    if (s == now) {
      if (earlier) {
        size_t e = 0;
        while ((cands[e].mv ^ cands[i].mv) & (kMoves - 1)) ++e;
        *earlier = e;
      }
      return static_cast<int64_t>(i);
    }
    s = now;
  }
  return -1;
}

bool MoveSeen::any_repeat(const uint8_t* wire, size_t n) {
  const uint8_t now = next_stamp();
  uint8_t* stamp = stamp_.get();
  unsigned repeat = 0;
  for (size_t i = 0; i < n; ++i) {
    uint8_t& s = stamp[load_u16(wire + i * kCandidateSize) & (kMoves - 1)];
    repeat |= s == now;
    s = now;
  }
  return repeat != 0;
}

std::string record_context(const std::string& path, uint64_t index, uint64_t offset) {
  return path + ": record " + std::to_string(index) + " at byte " + std::to_string(offset) + ": ";
}

Status validate_move16(uint16_t mv) {
  if (mv & kMoveUnusedBit) return Status::invalid("mv " + hex16(mv) + " has bit 15 set");
  int to = mv & kMoveToMask;
  if (to >= kSquareCount) {
    return Status::invalid("mv " + hex16(mv) + " has destination " + std::to_string(to) +
                           ", must be below 81");
  }
  int from = (mv >> kMoveFromShift) & kMoveFromMask;
  if (from > kMaxOriginField) {
    return Status::invalid("mv " + hex16(mv) + " has origin field " + std::to_string(from) +
                           ", must be at most 87");
  }
  if (from >= kSquareCount && (mv & kMovePromoteBit)) {
    return Status::invalid("mv " + hex16(mv) + " is a drop (origin field " + std::to_string(from) +
                           ") flagged as promoting");
  }
  return Status();
}

bool candidates_pass(PolicySource source, const uint8_t* wire, size_t n, MoveSeen& seen) {
  if constexpr (std::endian::native != std::endian::little) {
    // The lanes above assume little-endian loads; elsewhere decode and check.
    std::vector<Candidate> cands(n);
    decode_candidates(wire, n, cands.data());
    Header header;
    header.policy_source = source;
    return validate_candidates(header, cands, seen).ok();
  }
  if (n == 0) return true;  // as validate_candidates: rule 1 is the prefix's
  WireScreen screen;
  if (n == 1) {
    uint8_t twice[2 * kCandidateSize];  // one candidate in both slots
    std::memcpy(twice, wire, kCandidateSize);
    std::memcpy(twice + kCandidateSize, wire, kCandidateSize);
    screen.add_pair(twice);
  } else {
    size_t last = (n - 2) * kCandidateSize;  // the final pair, overlapping when n is odd
    for (size_t at = 0; at < last; at += 2 * kCandidateSize) screen.add_pair(wire + at);
    screen.add_pair(wire + last);
  }
  // Rule 9 only once rule 5 holds: every mv is then a move16.
  return screen.passes(source) && !seen.any_repeat(wire, n);
}

Status validate_prefix(float value_z, float value_q, size_t n_cand) {
  if (n_cand == 0) return Status::invalid("no candidates (n_cand is 0)");
  if (n_cand > kMaxCandidates) {
    return Status::invalid(std::to_string(n_cand) + " candidates, n_cand holds at most 65535");
  }
  if (!(value_z == -1.0f || value_z == 0.0f || value_z == 1.0f)) {
    return Status::invalid("value_z is " + number_text(value_z) + ", must be exactly -1, 0 or 1");
  }
  if (!(std::isfinite(value_q) && value_q >= -1.0f && value_q <= 1.0f)) {
    return Status::invalid("value_q is " + number_text(value_q) + ", must be finite and within [-1, 1]");
  }
  return Status();
}

Status validate_candidates(const Header& header, std::span<const Candidate> cands) {
  MoveSeen seen;
  return validate_candidates(header, cands, seen);
}

Status validate_candidates(const Header& header, std::span<const Candidate> cands, MoveSeen& seen) {
  // First candidate with / without each half, for the mixed-presence messages.
  size_t visits_at = SIZE_MAX, no_visits_at = SIZE_MAX, cp_at = SIZE_MAX, no_cp_at = SIZE_MAX;
  uint64_t visit_total = 0;
  for (size_t i = 0; i < cands.size(); ++i) {
    const Candidate& c = cands[i];
    Status st = validate_move16(c.mv);
    if (!st.ok()) return std::move(st).with_context(candidate_prefix(i));
    if (c.visits != kNoVisits) {
      if (visits_at == SIZE_MAX) visits_at = i;
    } else if (no_visits_at == SIZE_MAX) {
      no_visits_at = i;
    }
    if (c.cp != kNoCp) {
      if (cp_at == SIZE_MAX) cp_at = i;
    } else if (no_cp_at == SIZE_MAX) {
      no_cp_at = i;
    }
    visit_total += c.visits;
  }
  if (visits_at != SIZE_MAX && no_visits_at != SIZE_MAX) {
    return Status::invalid("visits present on some candidates and absent on others (candidate " +
                           std::to_string(visits_at) + " has " + std::to_string(cands[visits_at].visits) +
                           ", candidate " + std::to_string(no_visits_at) + " has NO_VISITS)");
  }
  if (cp_at != SIZE_MAX && no_cp_at != SIZE_MAX) {
    return Status::invalid("cp present on some candidates and absent on others (candidate " +
                           std::to_string(cp_at) + " has " + std::to_string(cands[cp_at].cp) +
                           ", candidate " + std::to_string(no_cp_at) + " has NO_CP)");
  }
  if (visits_at != SIZE_MAX && visit_total == 0) {
    return Status::invalid("visits present but totalling zero");  // unreachable, see validate.h
  }
  if (header.policy_source == PolicySource::Visits && visits_at == SIZE_MAX && !cands.empty()) {
    return Status::invalid(
        "policy_source is 0 (visits) but no candidate has visits (all NO_VISITS, a total of zero)");
  }
  if (header.policy_source == PolicySource::Cp && cp_at == SIZE_MAX && !cands.empty()) {
    return Status::invalid("policy_source is 1 (cp) but no candidate has cp (all NO_CP)");
  }
  size_t earlier = 0;
  const int64_t repeat = seen.first_repeat(cands, &earlier);
  if (repeat >= 0) {
    return Status::invalid("mv " + hex16(cands[static_cast<size_t>(repeat)].mv) + " is listed twice (candidates " +
                           std::to_string(earlier) + " and " + std::to_string(repeat) +
                           "); a record lists each move at most once");
  }
  return Status();
}

Status validate_position(const Header& header, std::span<const uint8_t> packed) {
  if (header.packed_len != kShogiPackedLen) return Status();
  auto pos = shogi::unpack(packed);
  if (pos.ok()) return Status();
  // unpack names the byte as "byte N: " where the rule is about one.
  std::string why = std::move(pos).take_status().message();
  return Status::invalid(why.rfind("byte ", 0) == 0 ? "packed " + why : "packed position: " + why);
}

Status validate_record(const Header& header, const RecordView& rec) {
  MoveSeen seen;
  return validate_record(header, rec, seen);
}

Status validate_record(const Header& header, const RecordView& rec, MoveSeen& seen) {
  MANAKA_RETURN_NOT_OK(validate_record_fields(header, rec, seen));
  // The screen first: unpack builds a Position, many times the cost.
  if (position_passes(header, rec.packed.data())) return Status();
  return validate_position(header, rec.packed);
}

Status validate_record_fields(const Header& header, const RecordView& rec, MoveSeen& seen) {
  size_t n = rec.candidates.size();
  if (n == 0) return Status::invalid("no candidates (n_cand is 0)");
  if (n > kMaxCandidates) {
    return Status::invalid(std::to_string(n) + " candidates, n_cand holds at most 65535");
  }
  if (rec.packed.size() != header.packed_len) {
    return Status::invalid("packed is " + std::to_string(rec.packed.size()) +
                           " bytes, must be packed_len (" + std::to_string(header.packed_len) + ")");
  }
  MANAKA_RETURN_NOT_OK(validate_prefix(rec.value_z, rec.value_q, n));
  return validate_candidates(header, rec.candidates, seen);
}

}  // namespace manaka::stream
