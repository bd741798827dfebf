#include "teacher/corpus_input.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>

#include <nlohmann/json.hpp>

#include "core/bounded_read.h"
#include "core/file.h"
#include "teacher/corpus_parquet_reader.h"

namespace manaka::teacher {

namespace {

namespace fs = std::filesystem;

constexpr size_t kJsonBatchRows = 8192;

class ParquetSource final : public CorpusSource {
 public:
  explicit ParquetSource(std::unique_ptr<CorpusParquetReader> r) : reader_(std::move(r)) {}
  Result<bool> next(CorpusBatch& batch) override { return reader_->next(batch); }
  const std::string& path() const override { return reader_->path(); }

 private:
  std::unique_ptr<CorpusParquetReader> reader_;
};

class JsonLinesSource final : public CorpusSource {
 public:
  JsonLinesSource(std::string path, std::ifstream in, const CorpusColumns& columns)
      : path_(std::move(path)), in_(std::move(in)), columns_(columns) {}

  const std::string& path() const override { return path_; }

  Result<bool> next(CorpusBatch& b) override {
    b.clear();
    std::string line;
    while (b.rows < kJsonBatchRows) {
      MANAKA_ASSIGN_OR_RETURN(bool more, read_line(in_, line, path_, line_no_ + 1));
      if (!more) break;
      ++line_no_;
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      nlohmann::json j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
      if (j.is_discarded() || !j.is_object())
        return Status::invalid(path_ + ": line " + std::to_string(line_no_) +
                               ": not a JSON object");
      add_row(j, b);
      b.line.push_back(line_no_);
    }
    if (in_.bad()) return Status::io(path_ + ": read error after line " + std::to_string(line_no_));
    b.moves_at.push_back(static_cast<uint32_t>(b.cand_moves.size()));
    b.cps_at.push_back(static_cast<uint32_t>(b.cand_cp.size()));
    return b.rows > 0;
  }

 private:
  const nlohmann::json* field(const nlohmann::json& j, CorpusField f) const {
    auto it = j.find(columns_[f]);
    return it == j.end() ? nullptr : &*it;
  }

  std::string_view keep(CorpusBatch& b, const std::string& s) {
    b.text.push_back(s);
    return b.text.back();
  }

  static bool integer_of(const nlohmann::json& v, int64_t* out) {
    if (v.is_number_unsigned()) {
      auto u = v.get<uint64_t>();
      if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return false;
      *out = static_cast<int64_t>(u);
      return true;
    }
    if (!v.is_number_integer()) return false;
    *out = v.get<int64_t>();
    return true;
  }

  void add_string(const nlohmann::json& j, CorpusField f, std::vector<std::string_view>& out,
                  CorpusBatch& b, size_t row) {
    const auto* v = field(j, f);
    if (v && v->is_string()) {
      out.push_back(keep(b, v->get_ref<const std::string&>()));
    } else {
      b.mark_missing(row, f);
      out.emplace_back();
    }
  }

  void add_integer(const nlohmann::json& j, CorpusField f, std::vector<int64_t>& out, CorpusBatch& b,
                   size_t row) {
    const auto* v = field(j, f);
    int64_t x = 0;
    if (!v || !integer_of(*v, &x)) b.mark_missing(row, f);
    out.push_back(x);
  }

  void add_row(const nlohmann::json& j, CorpusBatch& b) {
    const size_t row = b.rows++;
    b.missing.push_back(-1);
    add_string(j, CorpusField::Sfen, b.sfen, b, row);
    add_string(j, CorpusField::Move, b.move, b, row);
    add_integer(j, CorpusField::Ply, b.ply, b, row);
    add_integer(j, CorpusField::Side, b.side, b, row);
    add_integer(j, CorpusField::Cp, b.cp, b, row);
    add_integer(j, CorpusField::Result, b.result, b, row);
    b.moves_at.push_back(static_cast<uint32_t>(b.cand_moves.size()));
    if (const auto* v = field(j, CorpusField::CandMoves); v && v->is_array()) {
      for (const auto& e : *v) {
        if (e.is_string()) {
          b.cand_moves.push_back(keep(b, e.get_ref<const std::string&>()));
        } else {
          b.mark_missing(row, CorpusField::CandMoves);
        }
      }
    } else {
      b.mark_missing(row, CorpusField::CandMoves);
    }
    b.cps_at.push_back(static_cast<uint32_t>(b.cand_cp.size()));
    if (const auto* v = field(j, CorpusField::CandCp); v && v->is_array()) {
      for (const auto& e : *v) {
        int64_t x = 0;
        if (!integer_of(e, &x)) b.mark_missing(row, CorpusField::CandCp);
        b.cand_cp.push_back(x);
      }
    } else {
      b.mark_missing(row, CorpusField::CandCp);
    }
  }

  std::string path_;
  std::ifstream in_;
  CorpusColumns columns_;
  uint64_t line_no_ = 0;
};

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

bool is_json_lines_path(const std::string& path) {
  return ends_with(path, ".jsonl") || ends_with(path, ".ndjson") || ends_with(path, ".json");
}

Result<std::unique_ptr<CorpusSource>> open_corpus_file(const std::string& path,
                                                       const CorpusColumns& columns) {
  // Parquet needs to seek, so a pipe can only be JSON lines.
  if (is_json_lines_path(path) || is_read_once(path)) {
    std::ifstream in(path);
    // An ifstream that fails says nothing of why; open(2) does. Opened once
    // otherwise: a FIFO opened twice would block or lose its writer.
    if (!in) {
      MANAKA_RETURN_NOT_OK(InputFile::open(path).status());
      return Status::io(path + ": cannot open for reading");
    }
    return std::unique_ptr<CorpusSource>(new JsonLinesSource(path, std::move(in), columns));
  }
  MANAKA_ASSIGN_OR_RETURN(auto reader, CorpusParquetReader::open(path, columns));
  return std::unique_ptr<CorpusSource>(new ParquetSource(std::move(reader)));
}

}  // namespace manaka::teacher
