#include "fold/footer.h"

#include <charconv>

#include "fold/board_hash.h"
#include "fold/compat.h"
#include "fold/policy.h"

namespace manaka::fold {

std::string double_text(double v) {
  char buf[40];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, res.ptr);
}

std::vector<std::pair<std::string, std::string>> footer_metadata(const stream::Header& h,
                                                                 double temperature) {
  const bool by_cp = h.policy_source == stream::PolicySource::Cp;
  return {
      {"pov", std::to_string(static_cast<int>(h.pov))},
      {"policy_source", std::to_string(static_cast<int>(h.policy_source))},
      {"mate_scale", std::to_string(h.mate_scale)},
      {"mate_slack", std::to_string(effective_mate_slack(h))},
      {"fv_scale", std::to_string(h.fv_scale)},
      {"eval_coef", float_text(h.eval_coef)},
      {"temperature", by_cp ? double_text(temperature) : "0"},
      {"packed_len", std::to_string(kBoardBytes)},
      {"packed", kPackedMeaning},
  };
}

}  // namespace manaka::fold
