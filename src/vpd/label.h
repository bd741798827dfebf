// `manaka vpd label`: the positions of a VPD1 file evaluated by a UCI engine
// (Stockfish, lc0, ...), stored in the file as a `labels` table keyed by
// position id (docs/vpd1.md, "Labels"):
//
//   labels(id INTEGER PRIMARY KEY,      -- positions.id
//          score_cp INTEGER,            -- side to move's view; NULL when a mate
//          score_mate INTEGER,          -- moves to mate as UCI says it (+ we mate); NULL when cp
//          wdl_win INTEGER, wdl_draw INTEGER, wdl_loss INTEGER,  -- permille; NULL unless reported
//          depth INTEGER,               -- of MultiPV line 1
//          bestmove TEXT,               -- UCI
//          pv_lines TEXT)               -- JSON [{"move","cp"|"mate","depth","wdl"?}..] by rank
//
// and metadata label_engine (its "id name"), label_engine_path, label_limit
// ("nodes 10000"), label_multipv and label_options (the setoption pairs, as
// JSON). Every position gets a fresh engine state (ucinewgame) so a label
// depends on the position, the engine and the limit only: with a node or
// depth limit and Threads 1 it is what the engine answers on its own.
//
// Resumable: labels are committed every LABEL_COMMIT_ROWS rows or second; a
// run labels the positions without a row in labels, after checking that
// the metadata names the same engine, limit and MultiPV (else it refuses,
// naming both). A crashed or stalled engine is restarted and its position
// retried (LABEL_TRIES times in all).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/status.h"
#include "engine/engine.h"

namespace manaka::vpd {

constexpr int LABEL_TRIES = 3;
constexpr size_t LABEL_COMMIT_ROWS = 256;

struct LabelOptions {
  std::string file;
  std::string engine_path;
  std::vector<std::pair<std::string, std::string>> engine_options;  // setoption pairs, in order
  engine::SearchLimit limit;
  int multipv = 1;
  int workers = 0;  // engines at once; 0: one per hardware thread
  uint64_t max_positions = 0;  // 0: every unlabeled position; else at most this many, lowest ids first
  // 0: every position; else the `sample` positions with the smallest
  // random_key (a uniform sample the file fixes, the same on every run).
  uint64_t sample = 0;
  bool progress = false;
};

struct LabelSummary {
  std::string file, engine;
  uint64_t positions = 0;       // in the file
  uint64_t already = 0;         // labeled before this run
  uint64_t labeled = 0;         // by this run
  uint64_t restarts = 0;        // engine restarts
  double seconds = 0;
  double engine_seconds = 0;    // the workers' time waiting for their engines (Engine::wait_seconds)
};

Result<LabelSummary> label(const LabelOptions& options);

std::string format_label_summary(const LabelSummary& s);

}  // namespace manaka::vpd
