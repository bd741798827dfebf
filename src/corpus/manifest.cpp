#include "corpus/manifest.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/file.h"
#include "core/text.h"
#include "chess_shard/chess_shard.h"

namespace manaka::corpus {

namespace {

constexpr const char* kFormat = "manaka-chess-corpus";
constexpr int kVersion = 1;

std::string numbered(const char* pattern, uint64_t index) {
  char name[48];
  std::snprintf(name, sizeof name, pattern, static_cast<unsigned long long>(index));
  return name;
}

}  // namespace

uint64_t Manifest::games() const {
  uint64_t n = 0;
  for (const auto& s : shards) n += s.games;
  return n;
}

uint64_t Manifest::positions() const {
  uint64_t n = 0;
  for (const auto& s : shards) n += s.positions;
  return n;
}

std::string pgn_file_name(uint64_t index) { return numbered("games_%06llu.pgn", index); }

Result<Manifest> read_manifest(const std::string& dir) {
  const std::string path = (std::filesystem::path(dir) / kManifestName).string();
  Manifest m;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return m;
  std::ifstream in(path);
  if (!in) return Status::io(path + ": cannot open for reading");
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json j = nlohmann::json::parse(text.str(), nullptr, false);
  auto bad = [&](const std::string& why) { return Status::invalid(path + ": not a corpus manifest: " + why); };
  if (j.is_discarded() || !j.is_object()) return bad("not JSON");
  if (j.value("format", "") != kFormat) return bad("format is not \"" + std::string(kFormat) + "\"");
  if (j.value("version", 0) != kVersion) return bad("unsupported version");
  try {
    const auto& o = j.at("options");
    m.identity = {o.at("engine").get<std::string>(), o.at("limit").get<std::string>(), o.at("seed").get<uint64_t>(),
                  o.at("opening_plies").get<int>(), o.at("shard_size").get<uint64_t>()};
    for (const auto& s : j.at("shards")) {
      ShardEntry e{s.at("file").get<std::string>(), s.at("first_game").get<uint64_t>(), s.at("games").get<uint64_t>(),
                   s.at("positions").get<uint64_t>()};
      e.results = s.at("results").get<std::array<uint64_t, 3>>();
      if (e.file != shard_file_name(m.shards.size())) return bad("shard " + e.file + " out of order");
      if (e.first_game != m.games()) return bad("shard " + e.file + " does not start where the last one ended");
      m.shards.push_back(std::move(e));
    }
  } catch (const nlohmann::json::exception& e) {
    return bad(e.what());
  }
  return m;
}

Status write_manifest(const std::string& dir, const Manifest& m) {
  nlohmann::ordered_json j;
  j["format"] = kFormat;
  j["version"] = kVersion;
  j["options"] = {{"engine", m.identity.engine},
                  {"limit", m.identity.limit},
                  {"seed", m.identity.seed},
                  {"opening_plies", m.identity.opening_plies},
                  {"shard_size", m.identity.shard_size}};
  j["games"] = m.games();
  j["positions"] = m.positions();
  auto shards = nlohmann::ordered_json::array();
  for (const auto& s : m.shards) {
    shards.push_back({{"file", s.file},
                      {"first_game", s.first_game},
                      {"games", s.games},
                      {"positions", s.positions},
                      {"results", s.results}});
  }
  j["shards"] = shards;
  const std::string text = json_text(j, 1) + "\n";
  MANAKA_ASSIGN_OR_RETURN(AtomicFile out,
                          AtomicFile::create((std::filesystem::path(dir) / kManifestName).string()));
  MANAKA_RETURN_NOT_OK(out.write_all(text.data(), text.size()));
  return out.commit();
}

}  // namespace manaka::corpus
