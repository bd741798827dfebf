// The teacher corpus as plain C++ types, free of Arrow: the row the generator
// writes and the columnar batch a converter reads (spec README, "Teacher
// corpus"). The Arrow side is teacher/corpus_parquet_reader.h and teacher/corpus_writer.h.
//
// column      type                 meaning
// sfen        string               the position
// ply         integer              0-based move number, as the corpus has it
// side        integer              0 Black, 1 White to move (read, never inferred)
// cp          integer              root score, side to move's view
// cand_moves  list<string>         MultiPV candidates, USI
// cand_cp     list<integer>        their scores, same length and view
// move        string               the move played, USI
// result      integer              from Black's view: 1 Black won, -1 White won, 0 draw
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace manaka::teacher {

enum class CorpusField : uint8_t { Sfen, Ply, Side, Cp, CandMoves, CandCp, Move, Result, Count };
inline constexpr size_t kCorpusFieldCount = static_cast<size_t>(CorpusField::Count);
inline constexpr std::array<const char*, kCorpusFieldCount> kCorpusFieldNames = {
    "sfen", "ply", "side", "cp", "cand_moves", "cand_cp", "move", "result"};

// Which column of a file holds each field; the defaults are the field names.
struct CorpusColumns {
  std::array<std::string, kCorpusFieldCount> names;

  CorpusColumns();
  const std::string& operator[](CorpusField f) const { return names[static_cast<size_t>(f)]; }
  // "cp=score" maps field cp to column "score". Refuses an unknown field
  // name and a malformed assignment, naming the accepted fields.
  Status set(std::string_view assignment);
};

// One corpus row, owning its strings (what the generator writes).
struct CorpusRow {
  std::string sfen;
  int32_t ply = 0;
  int8_t side = 0;
  int32_t cp = 0;
  std::vector<std::string> cand_moves;
  std::vector<int32_t> cand_cp;
  std::string move;
  int8_t result = 0;
};

// Rows as columns. Strings are views into memory the batch keeps alive
// (the parquet reader's buffers, or `text` for JSON lines) until it is reused.
// A null anywhere in a row, or a value wider than int64, is recorded in
// `missing` (the first such field of the row, or -1) and the row's slots hold
// zero / empty; the converter refuses such a row.
struct CorpusBatch {
  size_t rows = 0;
  std::vector<std::string_view> sfen, move;
  std::vector<int64_t> ply, side, cp, result;
  std::vector<int8_t> missing;
  // Row r's candidates are cand_moves[moves_at[r], moves_at[r + 1]) and
  // cand_cp[cps_at[r], cps_at[r + 1]); the two lists may differ in length.
  std::vector<uint32_t> moves_at, cps_at;
  std::vector<std::string_view> cand_moves;
  std::vector<int64_t> cand_cp;
  // JSON lines: row r's line in its file, from 1 (blank lines counted);
  // empty for parquet, whose rows are named by their index from 0.
  std::vector<uint64_t> line;

  std::shared_ptr<const void> keep_alive;  // the buffers the views point into
  std::deque<std::string> text;            // owned strings (stable addresses)

  // Empties every column; keeps capacity.
  void clear();
  void mark_missing(size_t row, CorpusField f) {
    if (missing[row] < 0) missing[row] = static_cast<int8_t>(f);
  }
};

}  // namespace manaka::teacher
