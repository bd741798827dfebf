// The variance report over hand-made positions tables: every check passing,
// each failing on its own, exact values (entropy, standard deviations), the
// JSON, writing into the metadata, and the build recording it.
#include "vpd/variance.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fixture.h"
#include "vpd/build.h"
#include "vpd/database.h"

namespace manaka::vpd {
namespace {

struct TempDir : testing::TempDir {
  TempDir() : testing::TempDir("vpd_variance_test") {}
};

struct Row {
  int phase = 1;
  std::string result = "1-0";
  int side_to_move = 1, legal_moves = 20, piece_count = 20, material_balance = 0, castling_mask = 0, in_check = 0;
};

void exec(sqlite3* db, const std::string& sql) {
  char* err = nullptr;
  ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err), SQLITE_OK) << (err ? err : "") << " in " << sql;
}

// A VPD1-shaped file with these rows and metadata.
void write_table(const std::string& path, const std::vector<Row>& rows, const std::string& target = "40",
                 const std::string& complete = "true") {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  exec(db, "CREATE TABLE metadata(key TEXT PRIMARY KEY, value TEXT);"
           "CREATE TABLE positions(id INTEGER PRIMARY KEY, random_key INTEGER NOT NULL, fen TEXT NOT NULL UNIQUE, "
           "source_split TEXT, source_member TEXT, game_number INTEGER, ply INTEGER, result TEXT, "
           "side_to_move INTEGER, phase INTEGER, piece_count INTEGER, non_pawn_material INTEGER, "
           "material_balance INTEGER, legal_moves INTEGER, in_check INTEGER, castling_mask INTEGER, "
           "halfmove_clock INTEGER);"
           "INSERT INTO metadata VALUES('format', 'VPD1'), ('format_version', '1');");
  exec(db, "INSERT INTO metadata VALUES('complete', '" + complete + "')");
  if (!target.empty()) exec(db, "INSERT INTO metadata VALUES('target_size', '" + target + "')");
  exec(db, "BEGIN");
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    const std::string n = std::to_string(i + 1);
    exec(db, "INSERT INTO positions VALUES(" + n + ", " + n + ", 'fen " + n + "', NULL, 'a.pgn', " + n + ", 0, '" +
                 r.result + "', " + std::to_string(r.side_to_move) + ", " + std::to_string(r.phase) + ", " +
                 std::to_string(r.piece_count) + ", 30, " + std::to_string(r.material_balance) + ", " +
                 std::to_string(r.legal_moves) + ", " + std::to_string(r.in_check) + ", " +
                 std::to_string(r.castling_mask) + ", 0)");
  }
  exec(db, "COMMIT");
  sqlite3_close(db);
}

// 40 rows: phases 10/20/10 (entropy 1.5 bits), results 1-0/0-1/draw/* 10 each,
// White to move in half, legal moves 10/30 (std 10), pieces 20/32 (std 6),
// a material imbalance in 10, all 16 castling masks, 4 in check.
std::vector<Row> passing_rows() {
  std::vector<Row> rows(40);
  const char* results[] = {"1-0", "0-1", "1/2-1/2", "*"};
  for (int i = 0; i < 40; ++i) {
    Row& r = rows[size_t(i)];
    r.phase = i < 10 ? 0 : i < 30 ? 1 : 2;
    r.result = results[i % 4];
    r.side_to_move = i % 2;
    r.legal_moves = i % 2 ? 30 : 10;
    r.piece_count = (i / 2) % 2 ? 32 : 20;
    r.material_balance = i % 4 == 1 ? -3 : 0;
    r.castling_mask = i % 16;
    r.in_check = i % 10 == 3;
  }
  return rows;
}

const VarianceCheck& check(const VarianceReport& r, const std::string& name) {
  for (const VarianceCheck& c : r.checks)
    if (c.name == name) return c;
  ADD_FAILURE() << "no check " << name;
  return r.checks.front();
}

std::vector<std::string> failing(const VarianceReport& r) {
  std::vector<std::string> out;
  for (const VarianceCheck& c : r.checks)
    if (!c.pass) out.push_back(c.name);
  return out;
}

TEST(Variance, EveryCheckPassesWithExactValues) {
  TempDir dir;
  const std::string path = (dir.path / "a.vpd").string();
  write_table(path, passing_rows());
  auto r = variance_report(path);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->rows, 40u);
  EXPECT_EQ(r->target_size, 40u);
  ASSERT_EQ(r->checks.size(), 10u);
  EXPECT_TRUE(r->high_variance) << ::testing::PrintToString(failing(*r));
  EXPECT_DOUBLE_EQ(check(*r, "corpus_size").value, 40);
  EXPECT_DOUBLE_EQ(check(*r, "corpus_size").threshold, 38);  // 0.95 * 40
  EXPECT_DOUBLE_EQ(check(*r, "phase_entropy_bits").value, 1.5);
  EXPECT_DOUBLE_EQ(check(*r, "min_phase_share").value, 0.25);
  EXPECT_DOUBLE_EQ(check(*r, "min_result_share").value, 1.0 / 3);  // '*' left out
  EXPECT_DOUBLE_EQ(check(*r, "side_to_move_imbalance").value, 0);
  EXPECT_EQ(check(*r, "side_to_move_imbalance").comparison, "<=");
  EXPECT_DOUBLE_EQ(check(*r, "legal_moves_std").value, 10);
  EXPECT_DOUBLE_EQ(check(*r, "piece_count_std").value, 6);
  EXPECT_DOUBLE_EQ(check(*r, "material_imbalance_share").value, 0.25);
  EXPECT_DOUBLE_EQ(check(*r, "castling_states").value, 16);
  EXPECT_DOUBLE_EQ(check(*r, "in_check_share").value, 0.1);
}

// Each threshold raised (or lowered) just past its value fails that check alone.
TEST(Variance, EachThresholdFailsAlone) {
  TempDir dir;
  const std::string path = (dir.path / "a.vpd").string();
  write_table(path, passing_rows());
  const std::vector<std::pair<std::string, void (*)(VarianceThresholds&)>> cases = {
      {"corpus_size", [](VarianceThresholds& t) { t.min_rows = 41; }},
      {"phase_entropy_bits", [](VarianceThresholds& t) { t.min_phase_entropy_bits = 1.51; }},
      {"min_phase_share", [](VarianceThresholds& t) { t.min_phase_share = 0.26; }},
      {"min_result_share", [](VarianceThresholds& t) { t.min_result_share = 0.34; }},
      {"side_to_move_imbalance", [](VarianceThresholds& t) { t.max_side_to_move_imbalance = -0.01; }},
      {"legal_moves_std", [](VarianceThresholds& t) { t.min_legal_moves_std = 10.01; }},
      {"piece_count_std", [](VarianceThresholds& t) { t.min_piece_count_std = 6.01; }},
      {"material_imbalance_share", [](VarianceThresholds& t) { t.min_material_imbalance_share = 0.26; }},
      {"castling_states", [](VarianceThresholds& t) { t.min_castling_states = 17; }},
      {"in_check_share", [](VarianceThresholds& t) { t.min_in_check_share = 0.11; }},
  };
  for (const auto& [name, raise] : cases) {
    VarianceThresholds t;
    raise(t);
    auto r = variance_report(path, t);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(failing(*r), std::vector<std::string>{name});
    EXPECT_FALSE(r->high_variance) << name;
  }
}

// The data itself failing each check under the default thresholds.
TEST(Variance, EachCheckFailsOnItsData) {
  TempDir dir;
  const std::string path = (dir.path / "a.vpd").string();
  auto run = [&](const std::vector<Row>& rows, const std::string& target = "40") {
    std::filesystem::remove(path);
    write_table(path, rows, target);
    auto r = variance_report(path);
    EXPECT_TRUE(r.ok());
    return *r;
  };
  {
    const auto r = run(passing_rows(), "43");  // threshold 40.85
    EXPECT_EQ(failing(r), std::vector<std::string>{"corpus_size"});
  }
  {
    auto rows = passing_rows();  // phases 36 / 2 / 2
    for (size_t i = 0; i < rows.size(); ++i) rows[i].phase = i < 36 ? 0 : i < 38 ? 1 : 2;
    const auto r = run(rows);
    const double entropy = -(0.9 * std::log2(0.9) + 2 * 0.05 * std::log2(0.05));
    EXPECT_DOUBLE_EQ(check(r, "phase_entropy_bits").value, entropy);  // 0.569
    EXPECT_DOUBLE_EQ(check(r, "min_phase_share").value, 0.05);
    EXPECT_EQ(failing(r), (std::vector<std::string>{"phase_entropy_bits", "min_phase_share"}));
  }
  {
    auto rows = passing_rows();  // no middlegame: 0 * log 0 = 0, entropy 1 bit
    for (Row& r : rows) r.phase = r.phase == 1 ? 2 : r.phase;
    const auto r = run(rows);
    EXPECT_DOUBLE_EQ(check(r, "phase_entropy_bits").value, -(0.25 * std::log2(0.25) + 0.75 * std::log2(0.75)));
    EXPECT_DOUBLE_EQ(check(r, "min_phase_share").value, 0);
  }
  {
    auto rows = passing_rows();  // no draws
    for (Row& r : rows) r.result = r.result == "1/2-1/2" ? "*" : r.result;
    const auto r = run(rows);
    EXPECT_DOUBLE_EQ(check(r, "min_result_share").value, 0);
    EXPECT_EQ(failing(r), std::vector<std::string>{"min_result_share"});
  }
  {
    auto rows = passing_rows();  // White to move in 24 of 40: 0.6
    for (size_t i = 0; i < 4; ++i) rows[2 * i].side_to_move = 1;
    const auto r = run(rows);
    EXPECT_NEAR(check(r, "side_to_move_imbalance").value, 0.1, 1e-15);
    EXPECT_EQ(failing(r), std::vector<std::string>{"side_to_move_imbalance"});
  }
  {
    auto rows = passing_rows();  // legal moves 18/22: std 2; pieces all 24: std 0
    for (Row& r : rows) r.legal_moves = r.legal_moves == 30 ? 22 : 18, r.piece_count = 24;
    const auto r = run(rows);
    EXPECT_DOUBLE_EQ(check(r, "legal_moves_std").value, 2);
    EXPECT_DOUBLE_EQ(check(r, "piece_count_std").value, 0);
    EXPECT_EQ(failing(r), (std::vector<std::string>{"legal_moves_std", "piece_count_std"}));
  }
  {
    auto rows = passing_rows();  // balanced, castling masks 0..3, nobody in check
    for (Row& r : rows) r.material_balance = 0, r.castling_mask %= 4, r.in_check = 0;
    const auto r = run(rows);
    EXPECT_DOUBLE_EQ(check(r, "castling_states").value, 4);
    EXPECT_EQ(failing(r),
              (std::vector<std::string>{"material_imbalance_share", "castling_states", "in_check_share"}));
  }
  {
    const auto r = run({}, "");  // empty, no target: min_rows 1
    EXPECT_DOUBLE_EQ(check(r, "corpus_size").threshold, 1);
    EXPECT_EQ(failing(r).size(), 10u);
    EXPECT_FALSE(r.high_variance);
  }
}

TEST(Variance, JsonAndWrite) {
  TempDir dir;
  const std::string path = (dir.path / "a.vpd").string();
  write_table(path, passing_rows());
  auto r = variance_report(path);
  ASSERT_TRUE(r.ok());
  const auto j = nlohmann::json::parse(report_json(*r));
  EXPECT_EQ(j["format"], "VPD1-variance");
  EXPECT_EQ(j["rows"], 40);
  EXPECT_EQ(j["high_variance"], true);
  ASSERT_EQ(j["checks"].size(), 10u);
  EXPECT_EQ(j["checks"][1]["name"], "phase_entropy_bits");
  EXPECT_EQ(j["checks"][1]["value"], 1.5);
  EXPECT_EQ(j["checks"][1]["threshold"], 1.2);
  EXPECT_EQ(j["checks"][1]["comparison"], ">=");
  EXPECT_NE(format_report(*r).find("high_variance              true"), std::string::npos);

  ASSERT_TRUE(write_variance_metadata(path, *r).ok());
  VarianceThresholds strict;
  strict.min_castling_states = 17;
  auto failed = variance_report(path, strict);
  ASSERT_TRUE(failed.ok());
  ASSERT_TRUE(write_variance_metadata(path, *failed).ok());  // replaces the first
  auto file = VpdFile::open(path);
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_EQ(*file->metadata("high_variance"), "false");
  EXPECT_EQ(*file->metadata("variance_report"), report_json(*failed));
}

TEST(Variance, RefusesIncompleteOrForeignFiles) {
  TempDir dir;
  const std::string path = (dir.path / "a.vpd").string();
  write_table(path, passing_rows(), "40", "false");
  auto r = variance_report(path);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), path + ": the VPD1 file is not marked complete");
  VarianceReport empty;
  EXPECT_FALSE(write_variance_metadata(path, empty).ok());
  auto missing = variance_report((dir.path / "none.vpd").string());
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().kind(), ErrorKind::IO);
}

TEST(Variance, BuildRecordsTheReport) {
  TempDir dir;
  const auto pgn = dir.path / "g.pgn";
  testing::write_file(pgn,
                      "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n\n"
                      "[Result \"0-1\"]\n\n1. d4 d5 2. c4 e6 0-1\n\n");
  BuildOptions o;
  o.inputs = {pgn.string()};
  o.output = (dir.path / "out.vpd").string();
  o.target = 100;
  auto s = build(o);
  ASSERT_TRUE(s.ok()) << s.status().message();
  auto file = VpdFile::open(o.output);
  ASSERT_TRUE(file.ok());
  auto again = variance_report(o.output);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*file->metadata("high_variance"), "false");  // 2 rows of a target of 100
  EXPECT_EQ(*file->metadata("variance_report"), report_json(*again));
  EXPECT_FALSE(std::filesystem::exists(o.output + ".tmp-" + std::to_string(::getpid())));
}

}  // namespace
}  // namespace manaka::vpd
