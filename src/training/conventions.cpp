#include "training/conventions.h"

#include "shard/shard_reader.h"

namespace manaka::training {
namespace {

std::string shown(const std::string& value) { return value.empty() ? "absent" : "\"" + value + "\""; }

Status disagree(std::string_view key, const std::string& a, const std::string& a_value, const std::string& b,
                const std::string& b_value) {
  return Status::invalid(b + ": footer key " + std::string(key) + " is " + shown(b_value) + ", but " + a +
                         " has " + shown(a_value) + "; a trainer needs one meaning for the whole set (pack them "
                         "apart and train on one, or repack with the same settings)");
}

}  // namespace

const std::string& Conventions::value(std::string_view key) const {
  for (size_t i = 0; i < kConventionKeys.size(); ++i)
    if (kConventionKeys[i] == key) return values[i];
  static const std::string none;
  return none;
}

Result<Conventions> read_conventions(const std::vector<std::string>& paths) {
  if (paths.empty()) return Status::usage("no shards to train on");
  Conventions c;
  for (const std::string& path : paths) {
    MANAKA_ASSIGN_OR_RETURN(shard::ShardReader reader, shard::ShardReader::open(path));
    std::array<std::string, kConventionKeys.size()> values;
    for (size_t i = 0; i < kConventionKeys.size(); ++i)
      values[i] = shard::footer_value(reader.footer(), kConventionKeys[i]);
    if (c.shards == 0) {
      if (values[0].empty())
        return Status::invalid(path + ": footer key policy_source is absent, so what prob holds (visits or a "
                               "softmax over cp) is unknown; a trainer cannot use it");
      c.values = values;
      c.first = path;
    } else {
      for (size_t i = 0; i < kConventionKeys.size(); ++i)
        if (values[i] != c.values[i]) return disagree(kConventionKeys[i], c.first, c.values[i], path, values[i]);
    }
    c.rows += uint64_t(reader.num_rows());
    ++c.shards;
  }
  return c;
}

Status check_same_conventions(const Conventions& base, std::string_view base_name, const Conventions& other,
                              std::string_view other_name) {
  for (size_t i = 0; i < kConventionKeys.size(); ++i)
    if (base.values[i] != other.values[i])
      return Status::invalid(other.first + " (" + std::string(other_name) + "): footer key " +
                             std::string(kConventionKeys[i]) + " is " + shown(other.values[i]) + ", but " +
                             base.first + " (" + std::string(base_name) + ") has " + shown(base.values[i]) +
                             "; both sets must mean the same by their targets");
  return Status();
}

}  // namespace manaka::training
