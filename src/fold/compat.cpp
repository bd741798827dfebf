#include "fold/compat.h"

#include <bit>
#include <cstdint>

#include "core/text.h"
#include "fold/policy.h"

namespace manaka::fold {

namespace {

std::string pov_text(stream::Pov p) {
  switch (p) {
    case stream::Pov::SideToMove: return "0 (side to move)";
    case stream::Pov::Black: return "1 (Black)";
  }
  return std::to_string(static_cast<int>(p));
}

std::string source_text(stream::PolicySource s) {
  switch (s) {
    case stream::PolicySource::Visits: return "0 (visits)";
    case stream::PolicySource::Cp: return "1 (cp)";
  }
  return std::to_string(static_cast<int>(s));
}

// "100", or "0 (320 effective)" where the header leaves it to the default.
std::string slack_text(const stream::Header& h) {
  std::string text = std::to_string(h.mate_slack);
  uint16_t eff = effective_mate_slack(h);
  if (eff != h.mate_slack) text += " (" + std::to_string(eff) + " effective)";
  return text;
}

}  // namespace

Status check_foldable(const std::string& path_a, const stream::Header& a,
                      const std::string& path_b, const stream::Header& b) {
  auto differs = [&](const char* field, const std::string& va, const std::string& vb) {
    return Status::invalid("cannot fold " + path_b + " with " + path_a + ": " + field +
                           " differs (" + path_a + " has " + va + ", " + path_b + " has " + vb +
                           ")");
  };
  if (a.policy_source != b.policy_source) {
    return differs("policy_source", source_text(a.policy_source), source_text(b.policy_source));
  }
  if (a.pov != b.pov) return differs("pov", pov_text(a.pov), pov_text(b.pov));
  if (a.packed_len != b.packed_len) {
    return differs("packed_len", std::to_string(a.packed_len), std::to_string(b.packed_len));
  }
  if (a.mate_scale != b.mate_scale) {
    return differs("mate_scale", std::to_string(a.mate_scale), std::to_string(b.mate_scale));
  }
  if (effective_mate_slack(a) != effective_mate_slack(b)) {
    return differs("mate_slack", slack_text(a), slack_text(b));
  }
  if (a.fv_scale != b.fv_scale) {
    return differs("fv_scale", std::to_string(a.fv_scale), std::to_string(b.fv_scale));
  }
  if (std::bit_cast<uint32_t>(a.eval_coef) != std::bit_cast<uint32_t>(b.eval_coef)) {
    return differs("eval_coef", number_text(a.eval_coef), number_text(b.eval_coef));
  }
  return Status();
}

}  // namespace manaka::fold
