#include "stream/validate.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <utility>

namespace manaka::stream {

namespace {

std::string float_text(float v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(v));
  return buf;
}

std::string hex16(uint16_t v) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%04X", v);
  return buf;
}

std::string candidate_prefix(size_t i) { return "candidate " + std::to_string(i) + ": "; }

}  // namespace

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

Status validate_prefix(float value_z, float value_q, size_t n_cand) {
  if (n_cand == 0) return Status::invalid("no candidates (n_cand is 0)");
  if (n_cand > kMaxCandidates) {
    return Status::invalid(std::to_string(n_cand) + " candidates, n_cand holds at most 65535");
  }
  if (!(value_z == -1.0f || value_z == 0.0f || value_z == 1.0f)) {
    return Status::invalid("value_z is " + float_text(value_z) + ", must be exactly -1, 0 or 1");
  }
  if (!(std::isfinite(value_q) && value_q >= -1.0f && value_q <= 1.0f)) {
    return Status::invalid("value_q is " + float_text(value_q) + ", must be finite and within [-1, 1]");
  }
  return Status();
}

Status validate_candidates(const Header& header, std::span<const Candidate> cands) {
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
  return Status();
}

Status validate_record(const Header& header, const RecordView& rec) {
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
  return validate_candidates(header, rec.candidates);
}

}  // namespace manaka::stream
