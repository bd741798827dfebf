#include "selfplay/chess_selfplay_set.h"

#include <filesystem>
#include <map>
#include <system_error>
#include <vector>

#include "core/file.h"
#include "core/output.h"
#include "core/temporary.h"
#include "core/text.h"
#include "chess_shard/chess_shard.h"

namespace manaka::selfplay {

Result<nlohmann::ordered_json> write_chess_selfplay(const std::string& dir, const search::ChessSelfPlayData& d,
                                                    uint64_t shard_positions, const nlohmann::ordered_json& meta) {
  if (shard_positions == 0) return Status::usage("shard_positions must be at least 1");
  MANAKA_RETURN_NOT_OK(check_output_dir(dir, {}, false, "selfplay.json"));
  // The run's layout (run/selfplay/iter_NNNN): the parents are made here.
  std::error_code ec;
  const auto parent = std::filesystem::path(dir).parent_path();
  if (!parent.empty() && !std::filesystem::create_directories(parent, ec) && ec)
    return Status::io(parent.string() + ": cannot create the directory: " + ec.message());
  remove_stale_temporaries(dir);  // of a run killed while it wrote this directory
  MANAKA_ASSIGN_OR_RETURN(auto tmp, TempDir::for_output(dir));
  const uint64_t n = d.move_indices.size();
  nlohmann::ordered_json shards = nlohmann::ordered_json::array();
  std::vector<int64_t> offsets;
  for (uint64_t a = 0, k = 0; a < n; a += shard_positions, ++k) {
    const uint64_t b = std::min(n, a + shard_positions);
    const int64_t lo = d.visit_offsets[a];
    offsets.assign(d.visit_offsets.begin() + int64_t(a), d.visit_offsets.begin() + int64_t(b) + 1);
    for (int64_t& o : offsets) o -= lo;  // a shard's visits start at 0
    chess_corpus::ChessShardView v{b - a,
                             d.states.data() + a * chess::PLANES_SIZE,
                             d.move_indices.data() + a,
                             d.outcomes.data() + a,
                             offsets.data(),
                             d.visit_indices.data() + lo,
                             d.visit_counts.data() + lo};
    const std::string name = chess_corpus::shard_file_name(k);
    MANAKA_RETURN_NOT_OK(chess_corpus::write_chess_shard(tmp.path() + "/" + name, v));
    shards.push_back({{"file", name}, {"positions", b - a}});
  }
  nlohmann::ordered_json j = meta.is_object() ? meta : nlohmann::ordered_json::object();
  std::map<std::string, uint64_t> results{{"1-0", 0}, {"1/2-1/2", 0}, {"0-1", 0}}, terminations;
  for (const auto& r : d.results) results[r]++;
  for (const auto& t : d.terminations) terminations[t]++;
  j["games"] = d.results.size();
  j["positions"] = n;
  j["visit_entries"] = d.visit_offsets.empty() ? 0 : d.visit_offsets.back();
  j["results"] = {{"1-0", results["1-0"]}, {"1/2-1/2", results["1/2-1/2"]}, {"0-1", results["0-1"]}};
  j["terminations"] = terminations;
  j["game_offsets"] = d.game_offsets;
  j["game_results"] = d.results;
  j["game_terminations"] = d.terminations;
  nlohmann::ordered_json openings = nlohmann::ordered_json::array();
  for (const std::string& o : d.openings) {
    nlohmann::ordered_json moves = nlohmann::ordered_json::array();
    for (size_t i = 0; i < o.size();) {
      size_t e = o.find(' ', i);
      if (e == std::string::npos) e = o.size();
      if (e > i) moves.push_back(o.substr(i, e - i));
      i = e + 1;
    }
    openings.push_back(moves);
  }
  j["openings"] = openings;
  j["shards"] = shards;
  MANAKA_RETURN_NOT_OK(write_file(tmp.path() + "/selfplay.json", json_text(j, 1) + "\n"));
  MANAKA_RETURN_NOT_OK(tmp.commit());
  return j;
}

}  // namespace manaka::selfplay
