// What a trainer takes a shard set's meaning from: the footer keys every
// shard of the set must state alike, so that a target means one thing from
// the first step to the last. Read before training starts; a disagreement
// names both shards and the key.
//
//   policy_source  0: prob is normalised visits; 1: a softmax over cp at
//                  `temperature` (required: without it prob means nothing)
//   temperature    that softmax's temperature, in centipawns
//   eval_coef      value_q = tanh(cp / (2 eval_coef)) on teacher rows
//   mate_scale, mate_slack
//                  where the teacher's mates were folded (the mate band)
//
// pov may differ between shards: the reader hands values out in the side to
// move's view whatever the footer says (shard/shard_reader.h).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace manaka::training {

inline constexpr std::array<std::string_view, 5> kConventionKeys = {"policy_source", "temperature", "eval_coef",
                                                                   "mate_scale", "mate_slack"};

struct Conventions {
  std::array<std::string, kConventionKeys.size()> values;  // "" where the footers lack the key
  std::string first;  // the shard they were read from
  uint64_t rows = 0;  // rows of every shard together
  size_t shards = 0;

  const std::string& value(std::string_view key) const;
};

// The conventions of `paths` (at least one shard), refusing a set whose
// shards disagree or that lacks policy_source.
Result<Conventions> read_conventions(const std::vector<std::string>& paths);
// Refuses `other` (validation, say) when a key differs from `base`'s;
// `what` names the two sets in the message ("training", "validation").
Status check_same_conventions(const Conventions& base, std::string_view base_name, const Conventions& other,
                              std::string_view other_name);

}  // namespace manaka::training
