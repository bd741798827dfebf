// The variance thresholds by name (VarianceThresholds' field names), set
// from the command line (`--threshold NAME=VALUE`) or a JSON file (one
// object, names to numbers), and which of them differ from the defaults,
// which the report names (variance.h).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "vpd/variance.h"

namespace manaka::vpd {

// Every threshold's name, in VarianceThresholds' order.
std::vector<std::string> threshold_names();

// Sets one threshold from "NAME=VALUE"; refuses an unknown name (listing the
// known ones), a value that is not a finite number, a negative one, or a
// fraction above 1 for a share.
Status set_threshold(VarianceThresholds& th, std::string_view assignment);

// Sets the thresholds a JSON file names, {"min_phase_share": 0.2, ...};
// errors name the file and the key.
Status read_thresholds_file(VarianceThresholds& th, const std::string& path);

// The thresholds that differ from the defaults, in order.
std::vector<ThresholdChange> changed_thresholds(const VarianceThresholds& th);

}  // namespace manaka::vpd
