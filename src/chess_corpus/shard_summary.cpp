#include "chess_corpus/shard_summary.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <system_error>

#include "chess/move_index.h"
#include "core/file.h"
#include "core/progress.h"
#include "core/text.h"
#include "chess_corpus/manifest.h"
#include "chess_shard/chess_shard.h"

namespace manaka::chess_corpus {

namespace fs = std::filesystem;

namespace {

std::string percent(uint64_t part, uint64_t whole) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", whole ? 100.0 * double(part) / double(whole) : 0.0);
  return buf;
}

void add_shard(ShardSummary& s, const std::string& path) {
  auto shard = read_chess_shard(path);
  if (!shard.ok()) {
    s.bad.push_back({path, shard.status().message()});
    return;
  }
  const ChessShard& c = *shard;
  std::error_code ec;
  const uintmax_t size = fs::file_size(path, ec);
  s.bytes += ec ? 0 : size;
  s.min_positions = s.shards == 0 ? c.positions : std::min(s.min_positions, c.positions);
  s.max_positions = std::max(s.max_positions, c.positions);
  ++s.shards;
  s.positions += c.positions;
  uint64_t counts[3] = {0, 0, 0};
  for (int8_t z : c.outcomes) ++counts[z + 1];  // read_chess_shard checked -1..1
  s.losses += counts[0];
  s.draws += counts[1];
  s.wins += counts[2];
  for (int32_t m : c.move_indices) ++s.move_histogram[m];  // checked in [0, 4672)
}

}  // namespace

Result<ShardSummary> summarize_shards(const std::vector<std::string>& paths) {
  ShardSummary s;
  s.inputs = paths;
  s.move_histogram.assign(chess::POLICY_SIZE, 0);
  for (const std::string& path : paths) {
    std::error_code ec;
    if (!fs::is_directory(path, ec)) {
      add_shard(s, path);
      continue;
    }
    fs::directory_iterator it(path, ec);
    if (ec) return io_error(path, "cannot list the directory", ec.value());
    std::vector<std::string> shards;
    for (const fs::directory_entry& entry : it) {
      const std::string name = entry.path().filename().string();
      if (is_shard_file_name(name)) shards.push_back(entry.path().string());
      else s.ignored.push_back(entry.path().string());
    }
    std::sort(shards.begin(), shards.end());
    for (const std::string& shard : shards) add_shard(s, shard);
    // A corpus's manifest must still describe its shards: trainers size epochs from it.
    auto manifest = read_manifest(path);
    if (!manifest.ok()) {
      s.bad.push_back({(fs::path(path) / kManifestName).string(), manifest.status().message()});
      continue;
    }
    for (std::string& wrong : check_listed_shards(path, *manifest))
      s.bad.push_back({wrong.substr(0, wrong.find(": ")), std::move(wrong)});
  }
  std::sort(s.ignored.begin(), s.ignored.end());
  s.moves_covered = std::count_if(s.move_histogram.begin(), s.move_histogram.end(), [](uint64_t c) { return c > 0; });
  return s;
}

std::string format_summary(const ShardSummary& s) {
  std::string out;
  out += "shards     " + std::to_string(s.shards) + " readable";
  if (!s.bad.empty()) out += ", " + std::to_string(s.bad.size()) + " damaged or foreign";
  out += "\npositions  " + std::to_string(s.positions);
  if (s.shards > 0)
    out += " (" + std::to_string(s.min_positions) + " to " + std::to_string(s.max_positions) + " a shard)";
  out += "\noutcomes   mover lost " + percent(s.losses, s.positions) + ", drew " + percent(s.draws, s.positions) +
         ", won " + percent(s.wins, s.positions) + " (" + std::to_string(s.losses) + " / " +
         std::to_string(s.draws) + " / " + std::to_string(s.wins) + ")";
  out += "\nmoves      " + std::to_string(s.moves_covered) + " of " + std::to_string(chess::POLICY_SIZE) +
         " policy indices occur (" + percent(s.moves_covered, chess::POLICY_SIZE) + ")";
  out += "\non disk    " + format_bytes(double(s.bytes));
  if (s.positions > 0) {
    char per[32];
    std::snprintf(per, sizeof per, "%.1f", double(s.bytes) / double(s.positions));
    out += std::string(" (") + per + " bytes a position)";
  }
  out += '\n';
  if (!s.bad.empty()) {
    out += "damaged or foreign:\n";
    for (const BadShard& b : s.bad) out += "  " + printable(b.reason) + '\n';
  }
  if (!s.ignored.empty()) {
    out += "ignored (not shard_*.npz):";
    for (const std::string& p : s.ignored) out += " " + printable(fs::path(p).filename().string());
    out += '\n';
  }
  return out;
}

nlohmann::ordered_json summary_json(const ShardSummary& s) {
  nlohmann::ordered_json j;
  j["inputs"] = s.inputs;
  j["shards"] = s.shards;
  j["positions"] = s.positions;
  j["bytes"] = s.bytes;
  j["min_positions"] = s.min_positions;
  j["max_positions"] = s.max_positions;
  j["outcomes"] = {{"-1", s.losses}, {"0", s.draws}, {"1", s.wins}};
  j["moves_covered"] = s.moves_covered;
  j["policy_size"] = chess::POLICY_SIZE;
  j["move_histogram"] = s.move_histogram;
  nlohmann::ordered_json bad = nlohmann::ordered_json::array();
  for (const BadShard& b : s.bad) bad.push_back({{"path", b.path}, {"reason", b.reason}});
  j["bad"] = bad;
  j["ignored"] = s.ignored;
  return j;
}

}  // namespace manaka::chess_corpus
