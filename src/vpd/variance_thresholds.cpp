#include "vpd/variance_thresholds.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/bounded_read.h"
#include "core/text.h"

namespace manaka::vpd {
namespace {

// One threshold: a double field, or a count (uint64_t); shares are <= 1.
struct Field {
  const char* name;
  double VarianceThresholds::*real = nullptr;
  uint64_t VarianceThresholds::*count = nullptr;
  bool share = false;
};

constexpr Field FIELDS[] = {
    {"min_size_fraction", &VarianceThresholds::min_size_fraction, nullptr, false},
    {"min_rows", nullptr, &VarianceThresholds::min_rows, false},
    {"min_phase_entropy_bits", &VarianceThresholds::min_phase_entropy_bits, nullptr, false},
    {"min_phase_share", &VarianceThresholds::min_phase_share, nullptr, true},
    {"min_result_share", &VarianceThresholds::min_result_share, nullptr, true},
    {"max_side_to_move_imbalance", &VarianceThresholds::max_side_to_move_imbalance, nullptr, true},
    {"min_legal_moves_std", &VarianceThresholds::min_legal_moves_std, nullptr, false},
    {"min_piece_count_std", &VarianceThresholds::min_piece_count_std, nullptr, false},
    {"min_material_imbalance_share", &VarianceThresholds::min_material_imbalance_share, nullptr, true},
    {"min_castling_states", nullptr, &VarianceThresholds::min_castling_states, false},
    {"min_in_check_share", &VarianceThresholds::min_in_check_share, nullptr, true},
};

double get(const VarianceThresholds& th, const Field& f) { return f.real ? th.*f.real : double(th.*f.count); }

Status set(VarianceThresholds& th, std::string_view name, double value, const std::string& where) {
  for (const Field& f : FIELDS) {
    if (name != f.name) continue;
    if (!std::isfinite(value) || value < 0)
      return Status::usage(where + "threshold " + f.name + ": " + number_text(value) + " is not a number >= 0");
    if (f.share && value > 1)
      return Status::usage(where + "threshold " + f.name + ": a share, " + number_text(value) + " is above 1");
    if (f.count) {
      if (value != std::floor(value) || value > 1e15)
        return Status::usage(where + "threshold " + f.name + ": a count, " + number_text(value) +
                             " is not a whole number");
      th.*f.count = uint64_t(value);
    } else {
      th.*f.real = value;
    }
    return {};
  }
  std::string known;
  for (const Field& f : FIELDS) known += std::string(known.empty() ? "" : ", ") + f.name;
  return Status::usage(where + "no threshold named '" + std::string(name) + "' (known: " + known + ")");
}

}  // namespace

std::vector<std::string> threshold_names() {
  std::vector<std::string> out;
  for (const Field& f : FIELDS) out.push_back(f.name);
  return out;
}

Status set_threshold(VarianceThresholds& th, std::string_view assignment) {
  const size_t eq = assignment.find('=');
  if (eq == std::string_view::npos)
    return Status::usage("--threshold '" + std::string(assignment) + "': expected NAME=VALUE");
  const std::string value(assignment.substr(eq + 1));
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(value.c_str(), &end);
  if (value.empty() || *end != '\0' || errno == ERANGE)
    return Status::usage("--threshold '" + std::string(assignment) + "': '" + value + "' is not a number");
  return set(th, assignment.substr(0, eq), v, "--threshold: ");
}

Status read_thresholds_file(VarianceThresholds& th, const std::string& path) {
  MANAKA_ASSIGN_OR_RETURN(std::string text, read_small_file(path, "a thresholds file"));
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return Status::usage(path + ": a thresholds file is one JSON object, {\"min_phase_share\": 0.2, ...}");
  for (const auto& [key, value] : j.items()) {
    if (!value.is_number())
      return Status::usage(path + ": threshold " + key + ": " + value.dump() + " is not a number");
    MANAKA_RETURN_NOT_OK(set(th, key, value.get<double>(), path + ": "));
  }
  return {};
}

std::vector<ThresholdChange> changed_thresholds(const VarianceThresholds& th) {
  const VarianceThresholds defaults;
  std::vector<ThresholdChange> out;
  for (const Field& f : FIELDS)
    if (get(th, f) != get(defaults, f)) out.push_back({f.name, get(th, f), get(defaults, f)});
  return out;
}

}  // namespace manaka::vpd
