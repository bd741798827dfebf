// `manaka vpd build`: PGN archives -> one VPD1 file. Reads the inputs in the
// order given (plain or zstd-compressed PGN), numbers their games
// sequentially across all of them (refused games counted, as `manaka chess
// pgn --positions` numbers them), samples (sampler.h) and writes the
// database (database.h). A game the reader refuses is skipped and counted;
// an input that cannot be opened or read to its end (kind IO) ends the
// build with its message and leaves no output, and so does an input that
// yields no position at all (kind Invalid: a binary file, a PGN whose every
// game is refused).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "vpd/database.h"
#include "vpd/sampler.h"
#include "vpd/variance.h"

namespace manaka::vpd {

struct BuildOptions {
  std::vector<std::string> inputs;
  std::string output;
  uint64_t target = DEFAULT_TARGET;
  uint64_t seed = 0;
  bool overwrite = false;  // replace an existing output (core/output.h)
  bool progress = false;  // a progress line on stderr (core/progress.h)
  // Threads reading the inputs and computing features (ingest.h); the file
  // is the same byte for byte whatever their number; 0: one per hardware thread.
  int threads = 1;
  size_t chunk_bytes = size_t{1} << 20;  // the pieces the inputs are cut into (ingest.h, DEFAULT_CHUNK_BYTES)
  VarianceThresholds thresholds;  // of the variance report stored in the metadata
};

struct BuildSummary {
  std::string output;
  BuildInfo info;
  uint64_t rows = 0;
  std::array<uint64_t, PHASE_NB> rows_per_phase{};
  std::vector<std::string> first_errors;  // the first refused games' messages
  double seconds = 0;
};

constexpr size_t FIRST_ERRORS = 10;

Result<BuildSummary> build(const BuildOptions& options);

// The completion timestamp: SOURCE_DATE_EPOCH (seconds, the reproducible-
// builds convention) when set, else now; ISO 8601 UTC.
std::string completion_timestamp();

std::string format_summary(const BuildSummary& s);
std::string summary_json(const BuildSummary& s);

}  // namespace manaka::vpd
