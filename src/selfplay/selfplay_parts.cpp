#include "selfplay/selfplay_parts.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <system_error>

#include "chess_shard/chess_shard.h"
#include "core/file.h"
#include "core/output.h"
#include "core/temporary.h"
#include "core/text.h"
#include "sazpack/chunk_file.h"
#include "sazpack/codec.h"
#include "sazpack/format.h"
#include "stream/format.h"
#include "stream/header.h"

namespace manaka::selfplay {

namespace {

namespace fs = std::filesystem;

constexpr const char* kMpkName = "selfplay.mpk";
constexpr const char* kSazName = "selfplay.saz";
constexpr const char* kChessJson = "selfplay.json";
constexpr size_t kCopyBlock = size_t(1) << 20;

Status check_parts(const std::vector<std::string>& parts) {
  if (parts.empty()) return Status::usage("a join needs at least one part");
  return Status();
}

// Every part's stream: its header checked against the first part's, its
// records appended to out.
Status join_mpk(const std::vector<std::string>& parts, const std::string& path) {
  MANAKA_ASSIGN_OR_RETURN(auto out, OutputFile::create(path));
  std::array<uint8_t, stream::kHeaderSize> first{}, header{};
  std::vector<uint8_t> block(kCopyBlock);
  for (size_t p = 0; p < parts.size(); ++p) {
    const std::string in_path = parts[p] + "/" + kMpkName;
    MANAKA_ASSIGN_OR_RETURN(auto in, InputFile::open(in_path));
    MANAKA_ASSIGN_OR_RETURN(size_t got, in.read(header.data(), header.size()));
    if (got != header.size())
      return Status::truncated(in_path + ": byte " + std::to_string(got) + ": truncated header (24 bytes)");
    if (auto decoded = stream::decode_header(header); !decoded.ok())
      return std::move(decoded).take_status().with_context(in_path + ": ");
    if (p == 0) {
      first = header;
      MANAKA_RETURN_NOT_OK(out.write_all(header.data(), header.size()));
    } else if (header != first) {
      const size_t at = size_t(std::mismatch(header.begin(), header.end(), first.begin()).first - header.begin());
      return Status::invalid(in_path + ": byte " + std::to_string(at) + ": header differs from " + parts[0] + "/" +
                             kMpkName + "'s; only streams of one header join");
    }
    for (;;) {
      MANAKA_ASSIGN_OR_RETURN(size_t n, in.read(block.data(), block.size()));
      if (n == 0) break;
      MANAKA_RETURN_NOT_OK(out.write_all(block.data(), n));
    }
  }
  MANAKA_RETURN_NOT_OK(out.sync());
  return out.close();
}

Status join_saz(const std::vector<std::string>& parts, const std::string& path) {
  std::vector<sazpack::ChunkFile> chunks;
  uint64_t payload = 0;
  for (const std::string& part : parts) {
    MANAKA_ASSIGN_OR_RETURN(auto chunk, sazpack::ChunkFile::open(part + "/" + kSazName));
    payload += chunk.bytes().size() - sazpack::kHeaderSize;
    chunks.push_back(std::move(chunk));
  }
  auto header = sazpack::chunk_header(payload);
  if (!header.ok()) return std::move(header).take_status().with_context(path + ": the parts joined: ");
  MANAKA_ASSIGN_OR_RETURN(auto out, OutputFile::create(path));
  MANAKA_RETURN_NOT_OK(out.write_all(header->data(), header->size()));
  for (const auto& chunk : chunks) {
    const auto body = chunk.bytes().subspan(sazpack::kHeaderSize);
    MANAKA_RETURN_NOT_OK(out.write_all(body.data(), body.size()));
  }
  MANAKA_RETURN_NOT_OK(out.sync());
  return out.close();
}

Result<nlohmann::ordered_json> read_json(const std::string& path) {
  MANAKA_ASSIGN_OR_RETURN(auto in, InputFile::open(path));
  std::string text(in.size_at_open(), '\0');
  MANAKA_ASSIGN_OR_RETURN(size_t n, in.read(text.data(), text.size()));
  text.resize(n);
  auto j = nlohmann::ordered_json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return Status::invalid(path + ": not a JSON object");
  for (const char* key : {"games", "positions", "visit_entries", "results", "terminations", "game_offsets",
                          "game_results", "game_terminations", "openings", "shards"})
    if (!j.contains(key)) return Status::invalid(path + ": no '" + key + "' (not a chess self-play set)");
  return j;
}

Status link_or_copy(const std::string& from, const std::string& to) {
  std::error_code ec;
  fs::create_hard_link(from, to, ec);
  if (!ec) return Status();
  if (!fs::copy_file(from, to, ec) || ec) return Status::io(from + ": cannot copy to " + to + ": " + ec.message());
  return Status();
}

}  // namespace

Status join_shogi_selfplay(const std::vector<std::string>& parts, const std::string& output, bool overwrite) {
  MANAKA_RETURN_NOT_OK(check_parts(parts));
  MANAKA_RETURN_NOT_OK(check_output_dir(output, parts, overwrite, kMpkName));
  size_t with_saz = 0;
  for (const std::string& part : parts) with_saz += fs::exists(part + "/" + kSazName) ? 1 : 0;
  if (with_saz != 0 && with_saz != parts.size())
    return Status::invalid(output + ": " + std::to_string(with_saz) + " of " + std::to_string(parts.size()) +
                           " parts have " + kSazName + "; a join needs it in all or none");
  remove_stale_temporaries(output);
  MANAKA_ASSIGN_OR_RETURN(auto dir, TempDir::for_output(output));
  MANAKA_RETURN_NOT_OK(join_mpk(parts, dir.path() + "/" + kMpkName));
  if (with_saz) MANAKA_RETURN_NOT_OK(join_saz(parts, dir.path() + "/" + kSazName));
  return dir.commit(overwrite);
}

Result<nlohmann::ordered_json> join_chess_selfplay(const std::vector<std::string>& parts, const std::string& output,
                                                   const nlohmann::ordered_json& meta, bool overwrite) {
  MANAKA_RETURN_NOT_OK(check_parts(parts));
  MANAKA_RETURN_NOT_OK(check_output_dir(output, parts, overwrite, kChessJson));
  remove_stale_temporaries(output);
  MANAKA_ASSIGN_OR_RETURN(auto dir, TempDir::for_output(output));
  uint64_t games = 0, positions = 0, visit_entries = 0, shard = 0;
  std::map<std::string, uint64_t> results{{"1-0", 0}, {"1/2-1/2", 0}, {"0-1", 0}}, terminations;
  nlohmann::ordered_json offsets = nlohmann::ordered_json::array({0}), game_results = nlohmann::ordered_json::array(),
                         game_terminations = nlohmann::ordered_json::array(),
                         openings = nlohmann::ordered_json::array(), shards = nlohmann::ordered_json::array();
  for (const std::string& part : parts) {
    const std::string json_path = part + "/" + kChessJson;
    MANAKA_ASSIGN_OR_RETURN(auto j, read_json(json_path));
    try {
      const auto& part_offsets = j["game_offsets"];
      for (size_t g = 1; g < part_offsets.size(); ++g) offsets.push_back(positions + part_offsets[g].get<uint64_t>());
      for (const auto& r : j["game_results"]) game_results.push_back(r);
      for (const auto& t : j["game_terminations"]) game_terminations.push_back(t);
      for (const auto& o : j["openings"]) openings.push_back(o);
      for (const auto& [k, v] : j["results"].items()) results[k] += v.get<uint64_t>();
      for (const auto& [k, v] : j["terminations"].items()) terminations[k] += v.get<uint64_t>();
      for (const auto& s : j["shards"]) {
        const std::string name = chess_corpus::shard_file_name(shard++);
        MANAKA_RETURN_NOT_OK(link_or_copy(part + "/" + s["file"].get<std::string>(), dir.path() + "/" + name));
        shards.push_back({{"file", name}, {"positions", s["positions"].get<uint64_t>()}});
      }
      games += j["games"].get<uint64_t>();
      positions += j["positions"].get<uint64_t>();
      visit_entries += j["visit_entries"].get<uint64_t>();
    } catch (const nlohmann::json::exception& e) {
      return Status::invalid(json_path + ": " + e.what());
    }
  }
  nlohmann::ordered_json j = meta.is_object() ? meta : nlohmann::ordered_json::object();
  j["games"] = games;
  j["positions"] = positions;
  j["visit_entries"] = visit_entries;
  j["results"] = {{"1-0", results["1-0"]}, {"1/2-1/2", results["1/2-1/2"]}, {"0-1", results["0-1"]}};
  j["terminations"] = terminations;
  j["game_offsets"] = offsets;
  j["game_results"] = game_results;
  j["game_terminations"] = game_terminations;
  j["openings"] = openings;
  j["shards"] = shards;
  MANAKA_RETURN_NOT_OK(write_file(dir.path() + "/" + kChessJson, json_text(j, 1) + "\n"));
  MANAKA_RETURN_NOT_OK(dir.commit(overwrite));
  return j;
}

}  // namespace manaka::selfplay
