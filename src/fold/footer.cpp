#include "fold/footer.h"

#include "core/text.h"
#include "fold/board_hash.h"
#include "fold/compat.h"
#include "fold/policy.h"

namespace manaka::fold {

std::vector<std::pair<std::string, std::string>> footer_metadata(const stream::Header& h,
                                                                 double temperature) {
  const bool by_cp = h.policy_source == stream::PolicySource::Cp;
  return {
      {"pov", std::to_string(static_cast<int>(h.pov))},
      {"policy_source", std::to_string(static_cast<int>(h.policy_source))},
      {"mate_scale", std::to_string(h.mate_scale)},
      {"mate_slack", std::to_string(effective_mate_slack(h))},
      {"fv_scale", std::to_string(h.fv_scale)},
      {"eval_coef", number_text(h.eval_coef)},
      {"temperature", by_cp ? number_text(temperature) : "0"},
      {"packed_len", std::to_string(kBoardBytes)},
      {"packed", kPackedMeaning},
  };
}

}  // namespace manaka::fold
