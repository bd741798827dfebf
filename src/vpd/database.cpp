#include "vpd/database.h"

#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <thread>
#include <nlohmann/json.hpp>
#include <utility>

#include "core/text.h"
#include "core/file.h"
#include "core/splitmix64.h"
#include "vpd/sqlite.h"
#include "vpd/variance.h"

namespace manaka::vpd {
namespace {

constexpr const char* SCHEMA =
    "CREATE TABLE metadata(key TEXT PRIMARY KEY, value TEXT);"
    "CREATE TABLE positions("
    "id INTEGER PRIMARY KEY, random_key INTEGER NOT NULL, fen TEXT NOT NULL UNIQUE, "
    "source_split TEXT, source_member TEXT, game_number INTEGER, ply INTEGER, result TEXT, "
    "side_to_move INTEGER, phase INTEGER, piece_count INTEGER, non_pawn_material INTEGER, "
    "material_balance INTEGER, legal_moves INTEGER, in_check INTEGER, castling_mask INTEGER, "
    "halfmove_clock INTEGER);";
constexpr const char* INDEX = "CREATE INDEX positions_random_key ON positions(random_key);";
constexpr const char* INSERT_ROW =
    "INSERT INTO positions VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)";
constexpr const char* INSERT_METADATA = "INSERT INTO metadata VALUES(?1, ?2)";
constexpr const char* AT_KEY =
    "SELECT fen, id, ply FROM positions WHERE random_key >= ?1 ORDER BY random_key LIMIT 1";
constexpr const char* FIRST_KEY = "SELECT fen, id, ply FROM positions ORDER BY random_key LIMIT 1";
constexpr const char* ROW_COLUMNS =
    "SELECT id, random_key, fen, source_split, source_member, game_number, ply, result, side_to_move, phase, "
    "piece_count, non_pawn_material, material_balance, legal_moves, in_check, castling_mask, halfmove_clock "
    "FROM positions ";
const std::string RANGE = std::string(ROW_COLUMNS) + "WHERE id >= ?1 AND id < ?2 ORDER BY id";
const std::string BY_ID = std::string(ROW_COLUMNS) + "WHERE id = ?1";

std::string column_text(sqlite3_stmt* s, int i) {
  const unsigned char* t = sqlite3_column_text(s, i);
  return t ? std::string(reinterpret_cast<const char*>(t), size_t(sqlite3_column_bytes(s, i))) : std::string();
}

// Appends the row a ROW_COLUMNS statement stands on.
void append_row(sqlite3_stmt* s, PositionColumns& out) {
  out.id.push_back(sqlite3_column_int64(s, 0));
  out.random_key.push_back(sqlite3_column_int64(s, 1));
  out.fen.push_back(column_text(s, 2));
  out.source_split.push_back(column_text(s, 3));
  out.source_member.push_back(column_text(s, 4));
  out.game_number.push_back(sqlite3_column_int64(s, 5));
  out.ply.push_back(sqlite3_column_int(s, 6));
  out.result.push_back(column_text(s, 7));
  out.side_to_move.push_back(sqlite3_column_int(s, 8));
  out.phase.push_back(sqlite3_column_int(s, 9));
  out.piece_count.push_back(sqlite3_column_int(s, 10));
  out.non_pawn_material.push_back(sqlite3_column_int(s, 11));
  out.material_balance.push_back(sqlite3_column_int(s, 12));
  out.legal_moves.push_back(sqlite3_column_int(s, 13));
  out.in_check.push_back(sqlite3_column_int(s, 14));
  out.castling_mask.push_back(sqlite3_column_int(s, 15));
  out.halfmove_clock.push_back(sqlite3_column_int(s, 16));
}

nlohmann::json sources_json(const std::vector<SourceInfo>& sources) {
  nlohmann::json out = nlohmann::json::array();
  for (const SourceInfo& s : sources) {
    out.push_back({{"path", s.path},
                   {"member", s.member},
                   {"split", s.split.empty() ? nlohmann::json() : nlohmann::json(s.split)},
                   {"games_read", s.games_read},
                   {"games_skipped", s.games_skipped}});
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> metadata_rows(const BuildInfo& info,
                                                               const std::vector<SampledPosition>& rows) {
  std::array<uint64_t, PHASE_NB> per_phase{};
  for (const SampledPosition& r : rows) ++per_phase[r.phase];
  auto n = [](uint64_t v) { return std::to_string(v); };
  std::vector<std::pair<std::string, std::string>> m = {
      {"format", FORMAT_NAME},
      {"format_version", std::to_string(FORMAT_VERSION)},
      {"sampling", "at most one position per game and phase; reservoir sampling (algorithm R) per phase quota"},
      {"sampling_seed", n(info.seed)},
      {"target_size", n(info.target)},
      {"phase_rule",
       "opening: ply <= 20 and non_pawn_material >= 50; else endgame: non_pawn_material <= 20 or "
       "piece_count <= 12; else middlegame"},
      {"sources", json_text(sources_json(info.sources))},
      {"games_read", n(info.games_read)},
      {"games_skipped", n(info.games_skipped)},
      {"positions_considered", n(info.counts.positions_considered)},
      {"duplicates", n(info.counts.duplicates)},
      {"rows", n(rows.size())},
  };
  for (int p = 0; p < PHASE_NB; ++p) {
    m.emplace_back(std::string("quota_") + PHASE_NAME[p], n(info.quotas[p]));
    m.emplace_back(std::string("rows_") + PHASE_NAME[p], n(per_phase[p]));
    m.emplace_back(std::string("candidates_") + PHASE_NAME[p], n(info.counts.candidates[p]));
  }
  m.emplace_back("complete", "true");
  m.emplace_back("completed_at", info.completed_at);
  return m;
}

// Rows whose features are computed together, on `threads` threads.
constexpr size_t FEATURE_BATCH = 1 << 14;

// The features of rows[first, first + out.size()) into out; a FEN the rules
// refuse (never one the sampler wrote) is the error of the first such row.
Status compute_features(const std::vector<SampledPosition>& rows, size_t first, std::vector<Features>& out,
                        int threads, const std::string& name) {
  std::vector<Status> errors(out.size());
  auto run = [&](size_t from, size_t step) {
    for (size_t i = from; i < out.size(); i += step) {
      auto pos = chess::Position::from_fen(rows[first + i].fen);
      if (pos.ok()) out[i] = features_of(*pos);
      else errors[i] = Status::invalid(name + ": sampled FEN refused: " + pos.status().message());
    }
  };
  const size_t n = size_t(std::max(1, threads));
  if (n == 1 || out.size() < 64) {
    run(0, 1);
  } else {
    std::vector<std::thread> pool;
    for (size_t t = 1; t < n; ++t) pool.emplace_back(run, t, n);
    run(0, n);
    for (auto& t : pool) t.join();
  }
  for (Status& e : errors)
    if (!e.ok()) return std::move(e);
  return {};
}

Status write_into(const std::string& temp, const std::string& name, const BuildInfo& info,
                  const std::vector<SampledPosition>& rows, int threads, const VarianceThresholds& thresholds) {
  MANAKA_ASSIGN_OR_RETURN(Db db, open_db(temp, name, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE));
  // The file is a temporary until renamed, so a crash needs no journal; a
  // 128 MiB page cache holds most of the fen index of a 1.5M-row build.
  MANAKA_RETURN_NOT_OK(
      exec(db.get(), name, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA cache_size=-131072;"));
  MANAKA_RETURN_NOT_OK(exec(db.get(), name, "BEGIN"));
  MANAKA_RETURN_NOT_OK(exec(db.get(), name, SCHEMA));

  MANAKA_ASSIGN_OR_RETURN(Stmt insert, prepare(db.get(), name, INSERT_ROW));
  SplitMix64 keys(info.seed ^ RANDOM_KEY_STREAM);
  VarianceTally tally;  // the variance report, from the rows as they go in
  int64_t id = 0;
  std::vector<Features> features;
  for (size_t i = 0; i < rows.size(); ++i) {
    const SampledPosition& r = rows[i];
    if (i % FEATURE_BATCH == 0) {
      features.assign(std::min(FEATURE_BATCH, rows.size() - i), Features{});
      MANAKA_RETURN_NOT_OK(compute_features(rows, i, features, threads, name));
    }
    const Features& f = features[i % FEATURE_BATCH];
    tally.add(r.phase, RESULT_TOKENS[r.result], f);
    sqlite3_stmt* s = insert.get();
    sqlite3_bind_int64(s, 1, ++id);
    sqlite3_bind_int64(s, 2, int64_t(keys.next() >> 1));
    bind_text(s, 3, f.fen);
    const SourceInfo& src = info.sources.at(r.source);
    if (src.split.empty()) sqlite3_bind_null(s, 4);
    else bind_text(s, 4, src.split);
    bind_text(s, 5, src.member);
    sqlite3_bind_int64(s, 6, int64_t(r.game_number));
    sqlite3_bind_int64(s, 7, r.ply);
    sqlite3_bind_text(s, 8, RESULT_TOKENS[r.result], -1, SQLITE_STATIC);
    sqlite3_bind_int(s, 9, f.side_to_move);
    sqlite3_bind_int(s, 10, r.phase);
    sqlite3_bind_int(s, 11, f.piece_count);
    sqlite3_bind_int(s, 12, f.non_pawn_material);
    sqlite3_bind_int(s, 13, f.material_balance);
    sqlite3_bind_int(s, 14, f.legal_moves);
    sqlite3_bind_int(s, 15, f.in_check ? 1 : 0);
    sqlite3_bind_int(s, 16, f.castling_mask);
    sqlite3_bind_int(s, 17, f.halfmove_clock);
    MANAKA_RETURN_NOT_OK(step_done(db.get(), s, name, "row " + std::to_string(id) + " (" + f.fen + ")"));
  }
  MANAKA_RETURN_NOT_OK(exec(db.get(), name, INDEX));

  MANAKA_ASSIGN_OR_RETURN(Stmt meta, prepare(db.get(), name, INSERT_METADATA));
  auto metadata = metadata_rows(info, rows);
  const VarianceReport report = variance_report(tally, info.target, thresholds);
  metadata.emplace_back("variance_report", report_json(report));
  metadata.emplace_back("high_variance", report.high_variance ? "true" : "false");
  for (const auto& [key, value] : metadata) {
    bind_text(meta.get(), 1, key);
    bind_text(meta.get(), 2, value);
    MANAKA_RETURN_NOT_OK(step_done(db.get(), meta.get(), name, "metadata " + key));
  }
  insert.reset();
  meta.reset();
  MANAKA_RETURN_NOT_OK(exec(db.get(), name, "COMMIT"));
  if (sqlite3_close_v2(db.release()) != SQLITE_OK) return Status::io(name + ": cannot close the database");
  return {};
}

}  // namespace

std::string source_split(const std::string& path) {
  std::filesystem::path p(path);
  for (p = p.parent_path(); !p.empty() && p != p.parent_path(); p = p.parent_path()) {
    const std::string dir = p.filename().string();
    if (dir == "train" || dir == "test") return dir;
  }
  return "";
}

std::string source_member(const std::string& path) { return std::filesystem::path(path).filename().string(); }

Status write_database(const std::string& path, const BuildInfo& info, const std::vector<SampledPosition>& rows,
                      int threads, const VarianceThresholds& thresholds) {
  ::unlink(path.c_str());  // a leftover of this pid would be opened as a database
  return write_into(path, path, info, rows, threads, thresholds);
}

void PositionColumns::clear() { *this = PositionColumns{}; }

void PositionColumns::reserve(size_t n) {
  for (auto* v : {&id, &random_key, &game_number}) v->reserve(n);
  for (auto* v : {&fen, &source_split, &source_member, &result}) v->reserve(n);
  for (auto* v : {&ply, &side_to_move, &phase, &piece_count, &non_pawn_material, &material_balance, &legal_moves,
                  &in_check, &castling_mask, &halfmove_clock})
    v->reserve(n);
}

struct VpdFile::Handle {
  std::string path;
  Db db;
  Stmt at_key, first_key, range, by_id;
};

VpdFile::VpdFile(std::unique_ptr<Handle> h) : h_(std::move(h)) {}
VpdFile::VpdFile(VpdFile&&) noexcept = default;
VpdFile& VpdFile::operator=(VpdFile&&) noexcept = default;
VpdFile::~VpdFile() = default;

Result<VpdFile> VpdFile::open(const std::string& path) {
  auto h = std::make_unique<Handle>();
  h->path = path;
  MANAKA_ASSIGN_OR_RETURN(h->db, open_db(path, path, SQLITE_OPEN_READONLY));
  VpdFile file(std::move(h));
  MANAKA_ASSIGN_OR_RETURN(std::string format, file.metadata("format"));
  if (format != FORMAT_NAME) return Status::invalid(path + ": not a VPD1 file (format '" + format + "')");
  MANAKA_ASSIGN_OR_RETURN(std::string version, file.metadata("format_version"));
  if (version != std::to_string(FORMAT_VERSION))
    return Status::invalid(path + ": unsupported VPD1 format_version '" + version + "'");
  MANAKA_ASSIGN_OR_RETURN(std::string complete, file.metadata("complete"));
  if (complete != "true") return Status::invalid(path + ": the VPD1 file is not marked complete");
  MANAKA_ASSIGN_OR_RETURN(file.h_->at_key, prepare(file.h_->db.get(), path, AT_KEY));
  MANAKA_ASSIGN_OR_RETURN(file.h_->first_key, prepare(file.h_->db.get(), path, FIRST_KEY));
  MANAKA_ASSIGN_OR_RETURN(file.h_->range, prepare(file.h_->db.get(), path, RANGE.c_str()));
  MANAKA_ASSIGN_OR_RETURN(file.h_->by_id, prepare(file.h_->db.get(), path, BY_ID.c_str()));
  return file;
}

Result<std::string> VpdFile::metadata(const std::string& key) {
  return metadata_value(h_->db.get(), h_->path, key);
}

Result<uint64_t> VpdFile::rows() {
  MANAKA_ASSIGN_OR_RETURN(Stmt s, prepare(h_->db.get(), h_->path, "SELECT count(*) FROM positions"));
  if (sqlite3_step(s.get()) != SQLITE_ROW) return sqlite_error(h_->path, h_->db.get(), "count");
  return uint64_t(sqlite3_column_int64(s.get(), 0));
}

Result<std::string> VpdFile::fen_at_key(uint64_t key) {
  std::string fen;
  MANAKA_RETURN_NOT_OK(at_key(key, &fen, nullptr));
  return fen;
}

Result<uint64_t> VpdFile::id_at_key(uint64_t key) {
  uint64_t id = 0;
  MANAKA_RETURN_NOT_OK(at_key(key, nullptr, &id));
  return id;
}

Status VpdFile::at_key(uint64_t key, std::string* fen, uint64_t* id) {
  for (sqlite3_stmt* s : {h_->at_key.get(), h_->first_key.get()}) {
    if (s == h_->at_key.get()) sqlite3_bind_int64(s, 1, int64_t(key & uint64_t(INT64_MAX)));
    const int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
      if (fen) *fen = fen_at_ply(column_text(s, 0), int(sqlite3_column_int(s, 2)));
      if (id) *id = uint64_t(sqlite3_column_int64(s, 1));
    }
    sqlite3_reset(s);
    if (rc == SQLITE_ROW) return {};
    if (rc != SQLITE_DONE) return sqlite_error(h_->path, h_->db.get(), "random_key lookup");
  }
  return Status::invalid(h_->path + ": the positions table is empty");
}

Status VpdFile::read_range(uint64_t first_id, uint64_t count, PositionColumns& out) {
  sqlite3_stmt* s = h_->range.get();
  const uint64_t limit = uint64_t(INT64_MAX);
  sqlite3_bind_int64(s, 1, int64_t(std::min(first_id, limit)));
  sqlite3_bind_int64(s, 2, int64_t(std::min(first_id + std::min(count, limit - std::min(first_id, limit)), limit)));
  int rc;
  while ((rc = sqlite3_step(s)) == SQLITE_ROW) append_row(s, out);
  sqlite3_reset(s);
  if (rc != SQLITE_DONE) return sqlite_error(h_->path, h_->db.get(), "rows from id " + std::to_string(first_id));
  return {};
}

Status VpdFile::read_ids(const std::vector<int64_t>& ids, PositionColumns& out) {
  sqlite3_stmt* s = h_->by_id.get();
  for (int64_t id : ids) {
    sqlite3_bind_int64(s, 1, id);
    const int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) append_row(s, out);
    sqlite3_reset(s);
    if (rc == SQLITE_DONE) return Status::invalid(h_->path + ": no row with id " + std::to_string(id));
    if (rc != SQLITE_ROW) return sqlite_error(h_->path, h_->db.get(), "row " + std::to_string(id));
  }
  return {};
}

}  // namespace manaka::vpd
