#include "shard/footer_check.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string_view>

#include "shard/row.h"

namespace manaka::shard {

namespace {

enum class Kind { Flag, PackedLen, Unsigned, Number };

struct KeyRule {
  const char* key;
  Kind kind;
};

constexpr KeyRule kRules[] = {
    {"pov", Kind::Flag},           {"policy_source", Kind::Flag}, {"packed_len", Kind::PackedLen},
    {"mate_scale", Kind::Unsigned}, {"mate_slack", Kind::Unsigned}, {"fv_scale", Kind::Unsigned},
    {"seed", Kind::Unsigned},      {"eval_coef", Kind::Number},   {"temperature", Kind::Number},
};

bool is_unsigned(const std::string& v) {
  return !v.empty() && v.size() <= 20 && v.find_first_not_of("0123456789") == std::string::npos;
}

bool is_number(const std::string& v, double* out) {
  if (v.empty()) return false;
  char* end = nullptr;
  errno = 0;
  *out = std::strtod(v.c_str(), &end);
  return *end == '\0' && errno != ERANGE && std::isfinite(*out) && *out >= 0;
}

const char* broken(Kind kind, const std::string& v) {
  double x;
  switch (kind) {
    case Kind::Flag: return v == "0" || v == "1" ? nullptr : "is \"0\" or \"1\"";
    case Kind::PackedLen:
      return v == std::to_string(kPackedLen) ? nullptr : "is \"96\", the width of the packed column";
    case Kind::Unsigned: return is_unsigned(v) ? nullptr : "is an unsigned integer";
    case Kind::Number: return is_number(v, &x) ? nullptr : "is a finite number >= 0";
  }
  return nullptr;
}

}  // namespace

Status check_footer(const std::string& path, const std::vector<std::pair<std::string, std::string>>& footer) {
  auto refuse = [&](const std::string& key, const std::string& value, const std::string& rule) {
    const std::string shown = value.size() > 40 ? value.substr(0, 40) + "..." : value;
    return Status::invalid(path + ": footer key " + key + " is \"" + shown + "\", but it " + rule +
                           " (the footer states how to read the rows; this shard's cannot be trusted)");
  };
  std::string policy_source, temperature;
  for (const auto& [key, value] : footer) {
    for (const KeyRule& r : kRules) {
      if (key != r.key) continue;
      if (const char* rule = broken(r.kind, value)) return refuse(key, value, rule);
    }
    if (key == "policy_source") policy_source = value;
    if (key == "temperature") temperature = value;
  }
  if (policy_source == "1" && !temperature.empty() && std::strtod(temperature.c_str(), nullptr) <= 0)
    return refuse("temperature", temperature, "is > 0 when policy_source is 1 (a softmax over cp)");
  return Status();
}

}  // namespace manaka::shard
