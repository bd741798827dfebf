#include "search/options.h"

#include <cmath>
#include <string>

namespace manaka::search {

namespace {

Status out_of_range(const char* name, const std::string& value, const char* range) {
  return Status::usage(std::string("search option ") + name + " = " + value + ": must be " + range);
}

}  // namespace

Status check_options(const SearchOptions& o) {
  if (o.simulations < 1 || o.simulations > kMaxSimulations)
    return out_of_range("simulations", std::to_string(o.simulations), "1..1000000");
  if (!std::isfinite(o.c_puct) || o.c_puct <= 0) return out_of_range("c_puct", std::to_string(o.c_puct), "> 0");
  if (!std::isfinite(o.dirichlet_alpha) || o.dirichlet_alpha <= 0)
    return out_of_range("dirichlet_alpha", std::to_string(o.dirichlet_alpha), "> 0");
  if (!std::isfinite(o.dirichlet_epsilon) || o.dirichlet_epsilon < 0 || o.dirichlet_epsilon > 1)
    return out_of_range("dirichlet_epsilon", std::to_string(o.dirichlet_epsilon), "in 0..1");
  if (!std::isfinite(o.temperature) || o.temperature < 0)
    return out_of_range("temperature", std::to_string(o.temperature), ">= 0");
  if (o.temperature_plies < 0) return out_of_range("temperature_plies", std::to_string(o.temperature_plies), ">= 0");
  if (o.batch_size < 1 || o.batch_size > kMaxBatchSize)
    return out_of_range("batch_size", std::to_string(o.batch_size), "1..4096");
  if (o.threads < 1 || o.threads > kMaxThreads) return out_of_range("threads", std::to_string(o.threads), "1..1024");
  return Status();
}

}  // namespace manaka::search
