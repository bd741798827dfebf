#include "chess_corpus/manifest.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/bounded_read.h"
#include "core/file.h"
#include "core/text.h"
#include "chess_shard/chess_shard.h"
#include "npz/npz_reader.h"

namespace manaka::chess_corpus {

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

std::array<uint64_t, 3> Manifest::results() const {
  std::array<uint64_t, 3> n{};
  for (const auto& s : shards)
    for (size_t i = 0; i < n.size(); ++i) n[i] += s.results[i];
  return n;
}

std::vector<std::string> check_listed_shards(const std::string& dir, const Manifest& manifest) {
  std::vector<std::string> wrong;
  for (const ShardEntry& e : manifest.shards) {
    const std::string path = (std::filesystem::path(dir) / e.file).string();
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
      wrong.push_back(path + ": listed in " + kManifestName + " but missing");
      continue;
    }
    auto archive = npz::NpzReader::open(path);
    if (!archive.ok()) continue;  // reading the shard names what is wrong with it
    auto moves = archive->open_array(MOVE_INDICES);
    if (!moves.ok() || moves->header().shape.empty()) continue;
    const uint64_t held = moves->header().shape[0];
    if (held != e.positions)
      wrong.push_back(path + ": holds " + std::to_string(held) + " positions, but " + kManifestName + " lists " +
                      std::to_string(e.positions) + " (the shard was replaced after the corpus was written)");
  }
  return wrong;
}

std::string pgn_file_name(uint64_t index) { return numbered("games_%06llu.pgn", index); }

Result<Manifest> read_manifest(const std::string& dir) {
  const std::string path = (std::filesystem::path(dir) / kManifestName).string();
  Manifest m;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return m;
  MANAKA_ASSIGN_OR_RETURN(std::string text, read_small_file(path, "a corpus manifest"));
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  auto bad = [&](const std::string& why) { return Status::invalid(path + ": not a corpus manifest: " + why); };
  if (j.is_discarded() || !j.is_object()) return bad("not JSON");
  if (j.value("format", "") != kFormat) return bad("format is not \"" + std::string(kFormat) + "\"");
  if (j.value("version", 0) != kVersion) return bad("unsupported version");
  try {
    const auto& o = j.at("options");
    m.identity = {o.at("engine").get<std::string>(), o.at("limit").get<std::string>(), o.at("seed").get<uint64_t>(),
                  o.at("opening_plies").get<int>(), o.at("shard_size").get<uint64_t>(),
                  o.value("scores", false)};
    for (const auto& s : j.at("shards")) {
      ShardEntry e{s.at("file").get<std::string>(), s.at("first_game").get<uint64_t>(), s.at("games").get<uint64_t>(),
                   s.at("positions").get<uint64_t>()};
      e.results = s.at("results").get<std::array<uint64_t, 3>>();
      if (e.file != shard_file_name(m.shards.size())) return bad("shard " + e.file + " out of order");
      if (e.first_game != m.first_game() + m.games() && !m.shards.empty()) return bad("shard " + e.file + " does not start where the last one ended");
      m.shards.push_back(std::move(e));
    }
  } catch (const nlohmann::json::exception& e) {
    return bad(e.what());
  }
  return m;
}

Result<Manifest> merge_manifests(const std::vector<Manifest>& parts, const std::vector<std::string>& names) {
  if (parts.empty()) return Status::invalid("no corpus part to merge");
  Manifest out;
  for (size_t p = 0; p < parts.size(); ++p) {
    const Manifest& part = parts[p];
    const std::string& name = p < names.size() ? names[p] : std::to_string(p);
    if (part.shards.empty()) return Status::invalid(name + ": corpus part holds no shard");
    if (p == 0) out.identity = part.identity;
    if (!(part.identity == out.identity))
      return Status::invalid(name + ": corpus part made with other options (" + part.identity.engine + ", " +
                             part.identity.limit + ", seed " + std::to_string(part.identity.seed) + ") than " +
                             names.front() + " (" + out.identity.engine + ", " + out.identity.limit + ", seed " +
                             std::to_string(out.identity.seed) + ")");
    const uint64_t expected = out.first_game() + out.games();
    if (p > 0 && part.first_game() != expected)
      return Status::invalid(name + ": corpus part starts at game " + std::to_string(part.first_game()) +
                             ", not where the part before it ended (game " + std::to_string(expected) + ")");
    for (ShardEntry e : part.shards) {
      e.file = shard_file_name(out.shards.size());
      out.shards.push_back(std::move(e));
    }
  }
  return out;
}

Result<Manifest> join_corpus_parts(const std::vector<std::string>& parts, const std::string& dir) {
  namespace fs = std::filesystem;
  std::vector<Manifest> manifests;
  for (const std::string& part : parts) {
    MANAKA_ASSIGN_OR_RETURN(Manifest m, read_manifest(part));
    manifests.push_back(std::move(m));
  }
  MANAKA_ASSIGN_OR_RETURN(Manifest joined, merge_manifests(manifests, parts));
  std::error_code ec;
  if (fs::exists(dir, ec)) return Status::io(dir + ": already exists (the joined corpus goes to a new directory)");
  if (!fs::create_directories(dir, ec) || ec) return Status::io("cannot create " + dir + ": " + ec.message());
  auto place = [&](const fs::path& from, const fs::path& to) -> Status {
    std::error_code lec;
    fs::create_hard_link(from, to, lec);
    if (lec) fs::copy_file(from, to, lec);
    if (lec) return Status::io("cannot link or copy " + from.string() + " to " + to.string() + ": " + lec.message());
    return Status();
  };
  size_t at = 0;
  for (size_t p = 0; p < parts.size(); ++p) {
    for (size_t i = 0; i < manifests[p].shards.size(); ++i, ++at) {
      MANAKA_RETURN_NOT_OK(place(fs::path(parts[p]) / manifests[p].shards[i].file, fs::path(dir) / joined.shards[at].file));
      const fs::path pgn = fs::path(parts[p]) / pgn_file_name(i);
      if (fs::exists(pgn, ec)) MANAKA_RETURN_NOT_OK(place(pgn, fs::path(dir) / pgn_file_name(at)));
    }
  }
  MANAKA_RETURN_NOT_OK(write_manifest(dir, joined));
  return joined;
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
  if (m.identity.scores) j["options"]["scores"] = true;
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

}  // namespace manaka::chess_corpus
