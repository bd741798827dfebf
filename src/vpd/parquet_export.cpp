#include "vpd/parquet_export.h"

#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <map>
#include <tuple>
#include <memory>
#include <nlohmann/json.hpp>

#include "core/text.h"
#include "core/crc32.h"
#include "core/file.h"
#include "core/output.h"
#include "core/progress.h"
#include "parquet/column_builder.h"
#include "parquet/writer.h"
#include "vpd/database.h"
#include "vpd/features.h"
#include "vpd/sqlite.h"

namespace fs = std::filesystem;

namespace manaka::vpd {

std::string partition_directory(const std::string& split, int phase) {
  return "source_split=" + (split.empty() ? std::string(HIVE_NULL) : split) + "/phase=" + PHASE_NAME[phase];
}

std::string part_file_name(uint64_t index) {
  char name[40];
  std::snprintf(name, sizeof name, "part-%05llu.parquet", static_cast<unsigned long long>(index));
  return name;
}

namespace {

using parquet::Field;
using parquet::Type;

// The stored columns, in the table's order less source_split and phase;
// with labels (label.h), the labels table's columns after them, prefixed
// "label_" (NULL for a position without a label).
const std::vector<Field>& export_fields(bool labels) {
  using parquet::field;
  static const std::vector<Field> fields = {
      field("id", Type::Int64, false),
      field("random_key", Type::Int64, false),
      field("fen", Type::Utf8, false),
      field("source_member", Type::Utf8),
      field("game_number", Type::Int64),
      field("ply", Type::Int32),
      field("result", Type::Utf8),
      field("side_to_move", Type::Int8),
      field("piece_count", Type::Int8),
      field("non_pawn_material", Type::Int16),
      field("material_balance", Type::Int16),
      field("legal_moves", Type::Int16),
      field("in_check", Type::Bool),
      field("castling_mask", Type::Int8),
      field("halfmove_clock", Type::Int32),
  };
  static const std::vector<Field> with_labels = [] {
    std::vector<Field> f = fields;
    for (Field l : {field("label_cp", Type::Int32), field("label_mate", Type::Int32),
                    field("label_wdl_win", Type::Int16), field("label_wdl_draw", Type::Int16),
                    field("label_wdl_loss", Type::Int16), field("label_depth", Type::Int16),
                    field("label_bestmove", Type::Utf8), field("label_pv_lines", Type::Utf8)})
      f.push_back(std::move(l));
    return f;
  }();
  return labels ? with_labels : fields;
}

// Index of each stored column in export_fields().
enum Out : int {
  O_ID, O_RANDOM_KEY, O_FEN, O_MEMBER, O_GAME, O_PLY, O_RESULT, O_STM, O_PIECES, O_NPM, O_BALANCE,
  O_LEGAL, O_CHECK, O_CASTLING, O_HALFMOVE, O_LABEL_CP, O_LABEL_MATE, O_LABEL_WIN, O_LABEL_DRAW, O_LABEL_LOSS,
  O_LABEL_DEPTH, O_LABEL_BEST, O_LABEL_PV
};

// SELECT column index of each source column.
enum Col : int {
  C_ID, C_RANDOM_KEY, C_FEN, C_SPLIT, C_MEMBER, C_GAME, C_PLY, C_RESULT, C_STM, C_PHASE,
  C_PIECES, C_NPM, C_BALANCE, C_LEGAL, C_CHECK, C_CASTLING, C_HALFMOVE, C_LABEL_CP, C_LABEL_MATE, C_LABEL_WIN,
  C_LABEL_DRAW, C_LABEL_LOSS, C_LABEL_DEPTH, C_LABEL_BEST, C_LABEL_PV
};
constexpr const char* kSelect =
    "SELECT id, random_key, fen, source_split, source_member, game_number, ply, result, side_to_move, "
    "phase, piece_count, non_pawn_material, material_balance, legal_moves, in_check, castling_mask, "
    "halfmove_clock FROM positions ORDER BY id";
constexpr const char* kSelectLabeled =
    "SELECT p.id, p.random_key, p.fen, p.source_split, p.source_member, p.game_number, p.ply, p.result, "
    "p.side_to_move, p.phase, p.piece_count, p.non_pawn_material, p.material_balance, p.legal_moves, p.in_check, "
    "p.castling_mask, p.halfmove_clock, l.score_cp, l.score_mate, l.wdl_win, l.wdl_draw, l.wdl_loss, l.depth, "
    "l.bestmove, l.pv_lines FROM positions p LEFT JOIN labels l ON l.id = p.id ORDER BY p.id";

// The columns of one row group in the making (their capacity is kept from
// one row group to the next).
struct Builders {
  std::vector<parquet::ColumnBuilder> columns;
  int64_t rows = 0;

  void init(const std::vector<Field>& fields) {
    for (const Field& f : fields) columns.emplace_back(f);
  }
  parquet::ColumnBuilder& operator[](Out o) { return columns[size_t(o)]; }
  std::vector<parquet::Column> views() const {
    std::vector<parquet::Column> out;
    for (const auto& c : columns) out.push_back(c.column());
    return out;
  }
  void clear() {
    for (auto& c : columns) c.clear();
    rows = 0;
  }
};

// One partition directory: its open file and the row group being built.
struct Partition {
  std::string dir;  // relative
  uint64_t next_part = 0;
  std::unique_ptr<parquet::ParquetFileWriter> writer;
  ParquetFileInfo info;  // of the open file
  Builders b;
};

class Exporter {
 public:
  Exporter(const ParquetExportOptions& o, std::string root, bool labels)
      : o_(o), root_(std::move(root)), labels_(labels) {}

  Status add_row(sqlite3_stmt* st, std::vector<ParquetFileInfo>& done);
  Status finish(std::vector<ParquetFileInfo>& done);

 private:
  Status flush(Partition& p, std::vector<ParquetFileInfo>& done);
  // Commits the partition's open file and records its size and checksum.
  Status close_file(Partition& p, std::vector<ParquetFileInfo>& done);

  const ParquetExportOptions& o_;
  std::string root_;
  bool labels_ = false;
  std::map<std::pair<int, int>, Partition> parts_;  // (split code, phase)
};

std::string where(int64_t id, const char* column) {
  return "positions row id " + std::to_string(id) + ", column " + column + ": ";
}

// Appends an integer column value, NULL as null, refusing a value outside T.
template <typename T>
Status append_int(parquet::ColumnBuilder& b, sqlite3_stmt* st, int col, int64_t id, const char* name) {
  const int type = sqlite3_column_type(st, col);
  if (type == SQLITE_NULL) {
    b.append_null();
    return {};
  }
  if (type != SQLITE_INTEGER) return Status::invalid(where(id, name) + "not an integer");
  const int64_t v = sqlite3_column_int64(st, col);
  if (v < std::numeric_limits<T>::min() || v > std::numeric_limits<T>::max())
    return Status::invalid(where(id, name) + std::to_string(v) + " does not fit the parquet column");
  b.append<T>(static_cast<T>(v));
  return {};
}

Status append_text(parquet::ColumnBuilder& b, sqlite3_stmt* st, int col, int64_t id, const char* name) {
  const int type = sqlite3_column_type(st, col);
  if (type == SQLITE_NULL) {
    b.append_null();
    return {};
  }
  if (type != SQLITE_TEXT) return Status::invalid(where(id, name) + "not text");
  const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(st, col));
  b.append_text(std::string_view(p, static_cast<size_t>(sqlite3_column_bytes(st, col))));
  return {};
}

Status Exporter::add_row(sqlite3_stmt* st, std::vector<ParquetFileInfo>& done) {
  const int64_t id = sqlite3_column_int64(st, C_ID);
  // The partition: split NULL, train or test; phase 0..2.
  int split = 0;
  std::string split_text;
  if (sqlite3_column_type(st, C_SPLIT) != SQLITE_NULL) {
    split_text = reinterpret_cast<const char*>(sqlite3_column_text(st, C_SPLIT));
    if (split_text == "train") split = 1;
    else if (split_text == "test") split = 2;
    else return Status::invalid(where(id, "source_split") + "'" + split_text + "' is not train, test or NULL");
  }
  if (sqlite3_column_type(st, C_PHASE) != SQLITE_INTEGER)
    return Status::invalid(where(id, "phase") + "not an integer");
  const int64_t phase = sqlite3_column_int64(st, C_PHASE);
  if (phase < 0 || phase >= PHASE_NB)
    return Status::invalid(where(id, "phase") + std::to_string(phase) + " is not 0, 1 or 2");
  auto [it, fresh] = parts_.try_emplace({split, static_cast<int>(phase)});
  Partition& p = it->second;
  if (fresh) {
    p.dir = partition_directory(split_text, static_cast<int>(phase));
    p.b.init(export_fields(labels_));
    std::error_code ec;
    fs::create_directories(root_ + "/" + p.dir, ec);
    if (ec) return Status::io(root_ + "/" + p.dir + ": cannot create: " + ec.message());
  }
  if (!p.writer) {
    p.info = ParquetFileInfo{};
    p.info.path = p.dir + "/" + part_file_name(p.next_part++);
    p.info.min_id = id;
    parquet::WriteOptions po;
    po.row_group_rows = PARQUET_ROW_GROUP_ROWS;
    po.no_dictionary = {"id", "random_key", "fen"};
    MANAKA_ASSIGN_OR_RETURN(p.writer,
                            parquet::ParquetFileWriter::open(root_ + "/" + p.info.path, export_fields(labels_), po));
  }
  Builders& b = p.b;
  for (const auto& [col, name, type, what] : {std::tuple{C_ID, "id", SQLITE_INTEGER, "an integer"},
                                               std::tuple{C_RANDOM_KEY, "random_key", SQLITE_INTEGER, "an integer"},
                                               std::tuple{C_FEN, "fen", SQLITE_TEXT, "text"}}) {
    if (sqlite3_column_type(st, col) == SQLITE_NULL) return Status::invalid(where(id, name) + "NULL, must be " + what);
    if (sqlite3_column_type(st, col) != type) return Status::invalid(where(id, name) + "not " + what);
  }
  MANAKA_RETURN_NOT_OK(append_int<int64_t>(b[O_ID], st, C_ID, id, "id"));
  MANAKA_RETURN_NOT_OK(append_int<int64_t>(b[O_RANDOM_KEY], st, C_RANDOM_KEY, id, "random_key"));
  MANAKA_RETURN_NOT_OK(append_text(b[O_FEN], st, C_FEN, id, "fen"));
  MANAKA_RETURN_NOT_OK(append_text(b[O_MEMBER], st, C_MEMBER, id, "source_member"));
  MANAKA_RETURN_NOT_OK(append_int<int64_t>(b[O_GAME], st, C_GAME, id, "game_number"));
  MANAKA_RETURN_NOT_OK(append_int<int32_t>(b[O_PLY], st, C_PLY, id, "ply"));
  MANAKA_RETURN_NOT_OK(append_text(b[O_RESULT], st, C_RESULT, id, "result"));
  MANAKA_RETURN_NOT_OK(append_int<int8_t>(b[O_STM], st, C_STM, id, "side_to_move"));
  MANAKA_RETURN_NOT_OK(append_int<int8_t>(b[O_PIECES], st, C_PIECES, id, "piece_count"));
  MANAKA_RETURN_NOT_OK(append_int<int16_t>(b[O_NPM], st, C_NPM, id, "non_pawn_material"));
  MANAKA_RETURN_NOT_OK(append_int<int16_t>(b[O_BALANCE], st, C_BALANCE, id, "material_balance"));
  MANAKA_RETURN_NOT_OK(append_int<int16_t>(b[O_LEGAL], st, C_LEGAL, id, "legal_moves"));
  if (sqlite3_column_type(st, C_CHECK) == SQLITE_NULL) {
    b[O_CHECK].append_null();
  } else {
    const int64_t v = sqlite3_column_int64(st, C_CHECK);
    if (sqlite3_column_type(st, C_CHECK) != SQLITE_INTEGER || (v != 0 && v != 1))
      return Status::invalid(where(id, "in_check") + "not 0 or 1");
    b[O_CHECK].append_bool(v == 1);
  }
  MANAKA_RETURN_NOT_OK(append_int<int8_t>(b[O_CASTLING], st, C_CASTLING, id, "castling_mask"));
  MANAKA_RETURN_NOT_OK(append_int<int32_t>(b[O_HALFMOVE], st, C_HALFMOVE, id, "halfmove_clock"));
  if (labels_) {
    MANAKA_RETURN_NOT_OK(append_int<int32_t>(b[O_LABEL_CP], st, C_LABEL_CP, id, "labels.score_cp"));
    MANAKA_RETURN_NOT_OK(append_int<int32_t>(b[O_LABEL_MATE], st, C_LABEL_MATE, id, "labels.score_mate"));
    MANAKA_RETURN_NOT_OK(append_int<int16_t>(b[O_LABEL_WIN], st, C_LABEL_WIN, id, "labels.wdl_win"));
    MANAKA_RETURN_NOT_OK(append_int<int16_t>(b[O_LABEL_DRAW], st, C_LABEL_DRAW, id, "labels.wdl_draw"));
    MANAKA_RETURN_NOT_OK(append_int<int16_t>(b[O_LABEL_LOSS], st, C_LABEL_LOSS, id, "labels.wdl_loss"));
    MANAKA_RETURN_NOT_OK(append_int<int16_t>(b[O_LABEL_DEPTH], st, C_LABEL_DEPTH, id, "labels.depth"));
    MANAKA_RETURN_NOT_OK(append_text(b[O_LABEL_BEST], st, C_LABEL_BEST, id, "labels.bestmove"));
    MANAKA_RETURN_NOT_OK(append_text(b[O_LABEL_PV], st, C_LABEL_PV, id, "labels.pv_lines"));
  }
  ++b.rows;
  p.info.max_id = id;
  // A row group ends at 65,536 rows or where the file must end.
  const uint64_t in_file = p.info.rows + static_cast<uint64_t>(b.rows);
  if (b.rows == PARQUET_ROW_GROUP_ROWS || in_file == o_.rows_per_file) return flush(p, done);
  return {};
}

// Writes the pending row group; closes the file when it is full.
Status Exporter::close_file(Partition& p, std::vector<ParquetFileInfo>& done) {
  MANAKA_RETURN_NOT_OK(p.writer->commit());
  p.writer.reset();
  const std::string path = root_ + "/" + p.info.path;
  std::error_code ec;
  p.info.bytes = fs::file_size(path, ec);
  if (ec) return Status::io(path + ": " + ec.message());
  MANAKA_ASSIGN_OR_RETURN(p.info.crc32, crc32_file(path));
  done.push_back(p.info);
  return {};
}

Status Exporter::flush(Partition& p, std::vector<ParquetFileInfo>& done) {
  if (p.b.rows > 0) {
    const int64_t rows = p.b.rows;
    MANAKA_RETURN_NOT_OK(p.writer->write(rows, p.b.views()));
    p.b.clear();
    p.info.rows += static_cast<uint64_t>(rows);
    ++p.info.row_groups;
  }
  if (p.info.rows == o_.rows_per_file) {
    MANAKA_RETURN_NOT_OK(close_file(p, done));
  }
  return {};
}

Status Exporter::finish(std::vector<ParquetFileInfo>& done) {
  for (auto& [key, p] : parts_) {
    if (!p.writer) continue;
    MANAKA_RETURN_NOT_OK(flush(p, done));
    if (!p.writer) continue;
    // The last, short file of the partition.
    MANAKA_RETURN_NOT_OK(close_file(p, done));
  }
  return {};
}

// Whether the file has a labels table (`manaka vpd label`).
Result<bool> has_labels(sqlite3* db, const std::string& name) {
  MANAKA_ASSIGN_OR_RETURN(Stmt s, prepare(db, name, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'labels'"));
  const int rc = sqlite3_step(s.get());
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) return sqlite_error(name, db, "looking for the labels table");
  return rc == SQLITE_ROW;
}

Status write_rows(const ParquetExportOptions& o, const std::string& root, uint64_t total_rows,
                  uint64_t source_bytes, std::vector<ParquetFileInfo>& files) {
  MANAKA_ASSIGN_OR_RETURN(Db db, open_db(o.input, o.input, SQLITE_OPEN_READONLY));
  MANAKA_ASSIGN_OR_RETURN(bool labels, has_labels(db.get(), o.input));
  MANAKA_ASSIGN_OR_RETURN(Stmt st, prepare(db.get(), o.input, labels ? kSelectLabeled : kSelect));
  sqlite3* raw = db.get();
  sqlite3_stmt* st_raw = st.get();
  Exporter ex(o, root, labels);
  Progress progress(o.input, source_bytes);
  progress.set_enabled(o.progress);
  uint64_t rows = 0;
  for (;;) {
    const int step = sqlite3_step(st_raw);
    if (step == SQLITE_DONE) break;
    if (step != SQLITE_ROW) return sqlite_error(o.input, raw, "reading the positions");
    MANAKA_RETURN_NOT_OK(ex.add_row(st_raw, files).with_context(o.input + ": "));
    ++rows;
    // The byte count is the share of the source file the rows done stand for.
    progress.update(total_rows ? source_bytes * std::min(rows, total_rows) / total_rows : 0, rows);
  }
  MANAKA_RETURN_NOT_OK(ex.finish(files));
  progress.update(source_bytes, rows);
  progress.finish();
  return {};
}

}  // namespace

Result<ParquetExportSummary> export_parquet(const ParquetExportOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  if (o.rows_per_file == 0) return Status::usage("--rows-per-file must be at least 1");
  MANAKA_ASSIGN_OR_RETURN(VpdFile vpd, VpdFile::open(o.input));
  MANAKA_ASSIGN_OR_RETURN(uint64_t total_rows, vpd.rows());
  MANAKA_RETURN_NOT_OK(check_output_dir(o.output_dir, {o.input}, o.overwrite, PARQUET_MANIFEST_NAME));
  std::error_code ec;

  ParquetExportSummary s;
  s.input = o.input;
  s.output_dir = o.output_dir;
  s.rows_per_file = o.rows_per_file;
  s.source_bytes = fs::file_size(o.input, ec);
  if (ec) return Status::io(o.input + ": " + ec.message());
  MANAKA_ASSIGN_OR_RETURN(s.source_crc32, crc32_file(o.input));
  for (const char* key : {"label_engine", "label_limit", "label_multipv", "label_options"}) {
    MANAKA_ASSIGN_OR_RETURN(std::string value, vpd.metadata(key));
    if (!value.empty()) s.labels.emplace_back(key, value);
  }

  MANAKA_ASSIGN_OR_RETURN(TempDir temp, TempDir::for_output(o.output_dir));
  MANAKA_RETURN_NOT_OK(write_rows(o, temp.path(), total_rows, s.source_bytes, s.files));
  std::sort(s.files.begin(), s.files.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
  for (const auto& f : s.files) s.rows += f.rows;
  if (s.rows != total_rows)
    return Status::invalid(o.input + ": read " + std::to_string(s.rows) + " rows, metadata says " +
                           std::to_string(total_rows));
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  {
    MANAKA_ASSIGN_OR_RETURN(OutputFile manifest, OutputFile::create(temp.path() + "/" + PARQUET_MANIFEST_NAME));
    const std::string text = manifest_json(s);
    MANAKA_RETURN_NOT_OK(manifest.write_all(text.data(), text.size()));
    MANAKA_RETURN_NOT_OK(manifest.close());
  }

  // Into place: an existing output is swapped out in one step and removed.
  MANAKA_RETURN_NOT_OK(temp.commit(o.overwrite));
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return s;
}

std::string manifest_json(const ParquetExportSummary& s) {
  nlohmann::ordered_json j;
  j["format"] = PARQUET_MANIFEST_FORMAT;
  j["format_version"] = PARQUET_MANIFEST_VERSION;
  j["checksum"] = "crc32";
  j["source"] = {{"file", fs::path(s.input).filename().string()},
                 {"bytes", s.source_bytes},
                 {"crc32", s.source_crc32}};
  j["rows"] = s.rows;
  j["partitioning"] = {"source_split", "phase"};
  j["compression"] = "zstd";
  j["row_group_rows"] = PARQUET_ROW_GROUP_ROWS;
  j["rows_per_file"] = s.rows_per_file;
  if (!s.labels.empty()) {
    nlohmann::ordered_json labels;
    for (const auto& [key, value] : s.labels) labels[key] = value;
    j["labels"] = std::move(labels);
  }
  auto files = nlohmann::ordered_json::array();
  for (const auto& f : s.files) {
    files.push_back({{"path", f.path},
                     {"rows", f.rows},
                     {"bytes", f.bytes},
                     {"row_groups", f.row_groups},
                     {"min_id", f.min_id},
                     {"max_id", f.max_id},
                     {"crc32", f.crc32}});
  }
  j["files"] = std::move(files);
  return json_text(j, 2) + "\n";
}

std::string format_export_summary(const ParquetExportSummary& s) {
  uint64_t bytes = 0;
  std::map<std::string, uint64_t> per_dir;
  for (const auto& f : s.files) {
    bytes += f.bytes;
    per_dir[f.path.substr(0, f.path.rfind('/'))] += f.rows;
  }
  char line[256];
  std::string out;
  std::snprintf(line, sizeof line, "%s -> %s: %llu rows in %zu files (%s), %zu partitions\n", s.input.c_str(),
                s.output_dir.c_str(), static_cast<unsigned long long>(s.rows), s.files.size(),
                format_bytes(static_cast<double>(bytes)).c_str(), per_dir.size());
  out += line;
  for (const auto& [dir, rows] : per_dir) {
    std::snprintf(line, sizeof line, "  %-55s %llu rows\n", dir.c_str(), static_cast<unsigned long long>(rows));
    out += line;
  }
  const double rate = s.seconds > 0 ? static_cast<double>(s.rows) / s.seconds : 0;
  std::snprintf(line, sizeof line, "%.2f s, %s rows/s\n", s.seconds, format_count(rate).c_str());
  out += line;
  return out;
}

}  // namespace manaka::vpd
