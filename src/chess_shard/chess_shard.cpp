#include "chess_shard/chess_shard.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <system_error>

#include "chess/move_index.h"
#include "core/file.h"
#include "core/text.h"
#include "npz/npz_writer.h"

namespace manaka::chess_corpus {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view SHARD_PREFIX = "shard_";
constexpr std::string_view SHARD_SUFFIX = ".npz";
constexpr std::array<uint64_t, 3> BOARD_DIMS = {chess::PLANE_NB, 8, 8};

struct Expected {
  const char* name;
  npz::DType dtype;
  const char* what;  // for messages
};
constexpr std::array<Expected, 3> ARRAYS = {{
    {STATES, npz::DType::Int8, "int8 '|i1'"},
    {MOVE_INDICES, npz::DType::Int32, "int32 '<i4'"},
    {OUTCOMES, npz::DType::Int8, "int8 '|i1'"},
}};
// The optional policy targets: all three or none.
constexpr std::array<Expected, 3> VISIT_ARRAYS = {{
    {VISIT_OFFSETS, npz::DType::Int64, "int64 '<i8'"},
    {VISIT_INDICES, npz::DType::Int32, "int32 '<i4'"},
    {VISIT_COUNTS, npz::DType::Int32, "int32 '<i4'"},
}};

// The optional engine scores.
constexpr Expected SCORES_ARRAY = {SCORES, npz::DType::Int16, "int16 '<i2'"};

bool is_named(const std::array<Expected, 3>& arrays, const std::string& name) {
  return std::any_of(arrays.begin(), arrays.end(), [&](const Expected& e) { return name == e.name; });
}

std::string entry_text(const char* array, uint64_t k, int64_t value, uint64_t row) {
  return std::string(array) + "[" + std::to_string(k) + "] = " + std::to_string(value) + " (row " +
         std::to_string(row) + ")";
}

Status check_dtype(const std::string& path, const npz::NpyHeader& h, const Expected& e) {
  if (h.dtype == e.dtype) return Status();
  return Status::invalid(path + ": array '" + e.name + "' has dtype '" + std::string(npz::descr(h.dtype)) +
                         "', a chess shard's is " + e.what);
}

// An array of one entry per position, beside the states' N.
Status check_per_position(const std::string& path, const char* name, const std::vector<uint64_t>& shape,
                          uint64_t positions) {
  if (shape.size() == 1 && shape[0] == positions) return Status();
  return Status::invalid(path + ": array '" + name + "' has shape " + npz::shape_text(shape) + ", but 'states' holds " +
                         std::to_string(positions) + " positions (expected (" + std::to_string(positions) + ",))");
}

}  // namespace

std::string shard_file_name(uint64_t index) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "shard_%06llu.npz", static_cast<unsigned long long>(index));
  return buf;
}

bool is_shard_file_name(const std::string& name) {
  return name.size() >= SHARD_PREFIX.size() + SHARD_SUFFIX.size() && name.starts_with(SHARD_PREFIX) &&
         name.ends_with(SHARD_SUFFIX);
}

Result<std::vector<std::string>> list_shards(const std::string& dir) {
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec) return io_error(dir, "cannot list the directory", ec.value());
  std::vector<std::string> out;
  for (const fs::directory_entry& entry : it) {
    if (is_shard_file_name(entry.path().filename().string())) out.push_back(entry.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

Status check_values(const ChessShardView& shard) {
  for (uint64_t i = 0; i < shard.positions; ++i) {
    const int32_t m = shard.move_indices[i];
    if (m < 0 || m >= chess::POLICY_SIZE)
      return Status::invalid(std::string(MOVE_INDICES) + "[" + std::to_string(i) + "] = " + std::to_string(m) +
                             ", outside [0, " + std::to_string(chess::POLICY_SIZE) + ")");
  }
  for (uint64_t i = 0; i < shard.positions; ++i) {
    const int8_t z = shard.outcomes[i];
    if (z < -1 || z > 1)
      return Status::invalid(std::string(OUTCOMES) + "[" + std::to_string(i) + "] = " + std::to_string(z) +
                             ", not -1, 0 or 1");
  }
  for (uint64_t i = 0; shard.has_scores() && i < shard.positions; ++i) {
    const int s = std::abs(shard.scores[i]);
    if (s <= SCORE_CP_LIMIT || (s >= SCORE_MATE_BOUND && s <= SCORE_MATE)) continue;
    const std::string entry = std::string(SCORES) + "[" + std::to_string(i) + "] = " + std::to_string(shard.scores[i]);
    if (s > SCORE_MATE) return Status::invalid(entry + ", beyond the mate score " + std::to_string(SCORE_MATE));
    return Status::invalid(entry + ", neither centipawns (at most " + std::to_string(SCORE_CP_LIMIT) +
                           " either way) nor a mate (at least " + std::to_string(SCORE_MATE_BOUND) + ")");
  }
  if (shard.has_visits()) return check_visits(shard, shard.visit_entries());
  return Status();
}

Status check_visits(const ChessShardView& shard, uint64_t entries) {
  const int64_t* off = shard.visit_offsets;
  const uint64_t n = shard.positions;
  if (off[0] != 0)
    return Status::invalid(std::string(VISIT_OFFSETS) + "[0] = " + std::to_string(off[0]) + ", not 0");
  for (uint64_t r = 0; r < n; ++r) {
    if (off[r + 1] < off[r])
      return Status::invalid(std::string(VISIT_OFFSETS) + "[" + std::to_string(r + 1) + "] = " +
                             std::to_string(off[r + 1]) + ", below visit_offsets[" + std::to_string(r) +
                             "] = " + std::to_string(off[r]) + " (offsets never decrease)");
  }
  if (uint64_t(off[n]) != entries)
    return Status::invalid(std::string(VISIT_OFFSETS) + "[" + std::to_string(n) + "] = " + std::to_string(off[n]) +
                           ", but visit_indices and visit_counts hold " + std::to_string(entries) + " entries");
  // Duplicates within a row: a bit per move index, cleared after each row.
  std::vector<uint8_t> seen(chess::POLICY_SIZE, 0);
  for (uint64_t r = 0; r < n; ++r) {
    const uint64_t begin = uint64_t(off[r]), end = uint64_t(off[r + 1]);
    Status bad;
    for (uint64_t k = begin; k < end && bad.ok(); ++k) {
      const int32_t m = shard.visit_indices[k];
      if (m < 0 || m >= chess::POLICY_SIZE)
        bad = Status::invalid(entry_text(VISIT_INDICES, k, m, r) + ", outside [0, " +
                              std::to_string(chess::POLICY_SIZE) + ")");
      else if (seen[m])
        bad = Status::invalid(entry_text(VISIT_INDICES, k, m, r) + ", a move index already in that row");
      else if (shard.visit_counts[k] < 1)
        bad = Status::invalid(entry_text(VISIT_COUNTS, k, shard.visit_counts[k], r) + ", not at least 1");
      else
        seen[m] = 1;
    }
    for (uint64_t k = begin; k < end; ++k) {
      const int32_t m = shard.visit_indices[k];
      if (m >= 0 && m < chess::POLICY_SIZE) seen[m] = 0;
    }
    if (!bad.ok()) return bad;
  }
  return Status();
}

Status write_chess_shard(const std::string& path, const ChessShardView& shard, const npz::ZipWriteOptions& options) {
  MANAKA_RETURN_NOT_OK(check_values(shard).with_context(path + ": "));
  MANAKA_ASSIGN_OR_RETURN(npz::NpzWriter w, npz::NpzWriter::create(path, options));
  const std::array<uint64_t, 4> states_shape = {shard.positions, BOARD_DIMS[0], BOARD_DIMS[1], BOARD_DIMS[2]};
  const std::array<uint64_t, 1> row_shape = {shard.positions};
  MANAKA_RETURN_NOT_OK(w.add(STATES, npz::DType::Int8, states_shape, shard.states));
  MANAKA_RETURN_NOT_OK(w.add(MOVE_INDICES, npz::DType::Int32, row_shape, shard.move_indices));
  MANAKA_RETURN_NOT_OK(w.add(OUTCOMES, npz::DType::Int8, row_shape, shard.outcomes));
  if (shard.has_visits()) {
    const std::array<uint64_t, 1> offsets_shape = {shard.positions + 1};
    const std::array<uint64_t, 1> entries_shape = {shard.visit_entries()};
    MANAKA_RETURN_NOT_OK(w.add(VISIT_OFFSETS, npz::DType::Int64, offsets_shape, shard.visit_offsets));
    MANAKA_RETURN_NOT_OK(w.add(VISIT_INDICES, npz::DType::Int32, entries_shape, shard.visit_indices));
    MANAKA_RETURN_NOT_OK(w.add(VISIT_COUNTS, npz::DType::Int32, entries_shape, shard.visit_counts));
  }
  if (shard.has_scores()) MANAKA_RETURN_NOT_OK(w.add(SCORES, npz::DType::Int16, row_shape, shard.scores));
  return w.commit();
}

Result<ChessShard> read_chess_shard(const std::string& path, const npz::ZipLimits& limits, ChessShard reuse) {
  MANAKA_ASSIGN_OR_RETURN(npz::NpzReader archive, npz::NpzReader::open(path, limits));
  return read_chess_shard(archive, std::move(reuse));
}

Result<ChessShard> read_chess_shard(const npz::NpzReader& archive, ChessShard reuse) {
  const std::string& path = archive.path();
  auto foreign = [&](const std::string& what) {
    return Status::invalid(path + ": " + what + ": not a chess corpus shard (states, move_indices, outcomes)");
  };
  int visit_arrays = 0;
  for (const std::string& name : archive.names()) {
    if (is_named(VISIT_ARRAYS, name)) ++visit_arrays;
    else if (!is_named(ARRAYS, name) && name != SCORES) return foreign("an array '" + printable(name) + "'");
  }
  if (visit_arrays != 0 && visit_arrays != int(VISIT_ARRAYS.size())) {
    for (const Expected& e : VISIT_ARRAYS) {
      if (!archive.contains(e.name))
        return Status::invalid(path + ": no array '" + e.name +
                               "': a shard's visits are three arrays (visit_offsets, visit_indices, visit_counts)");
    }
  }
  std::array<npz::ArrayReader, 3> arrays;
  for (size_t i = 0; i < ARRAYS.size(); ++i) {
    if (!archive.contains(ARRAYS[i].name)) return foreign(std::string("no array '") + ARRAYS[i].name + "'");
    MANAKA_ASSIGN_OR_RETURN(arrays[i], archive.open_array(ARRAYS[i].name));
    MANAKA_RETURN_NOT_OK(check_dtype(path, arrays[i].header(), ARRAYS[i]));
  }
  const std::vector<uint64_t>& states_shape = arrays[0].header().shape;
  if (states_shape.size() != 4 || !std::equal(BOARD_DIMS.begin(), BOARD_DIMS.end(), states_shape.begin() + 1))
    return Status::invalid(path + ": array 'states' has shape " + npz::shape_text(states_shape) +
                           ", a chess shard's is (N, 20, 8, 8)");
  ChessShard shard = std::move(reuse);
  shard.positions = states_shape[0];
  for (size_t i = 1; i < ARRAYS.size(); ++i)
    MANAKA_RETURN_NOT_OK(check_per_position(path, ARRAYS[i].name, arrays[i].header().shape, shard.positions));
  shard.states.resize(shard.positions * PLANES_PER_POSITION);
  shard.move_indices.resize(shard.positions);
  shard.outcomes.resize(shard.positions);
  MANAKA_RETURN_NOT_OK(arrays[0].read_data(shard.states.data()));
  MANAKA_RETURN_NOT_OK(arrays[1].read_data(shard.move_indices.data()));
  MANAKA_RETURN_NOT_OK(arrays[2].read_data(shard.outcomes.data()));
  shard.has_visits = visit_arrays != 0;
  if (shard.has_visits) {
    std::array<npz::ArrayReader, 3> visits;
    for (size_t i = 0; i < VISIT_ARRAYS.size(); ++i) {
      MANAKA_ASSIGN_OR_RETURN(visits[i], archive.open_array(VISIT_ARRAYS[i].name));
      const npz::NpyHeader& h = visits[i].header();
      MANAKA_RETURN_NOT_OK(check_dtype(path, h, VISIT_ARRAYS[i]));
      if (h.shape.size() != 1)
        return Status::invalid(path + ": array '" + VISIT_ARRAYS[i].name + "' has shape " +
                               npz::shape_text(h.shape) + ", a chess shard's is one-dimensional");
    }
    const uint64_t offsets = visits[0].header().shape[0], entries = visits[1].header().shape[0];
    if (offsets != shard.positions + 1)
      return Status::invalid(path + ": array 'visit_offsets' has shape " + npz::shape_text(visits[0].header().shape) +
                             ", but 'states' holds " + std::to_string(shard.positions) + " positions (expected (" +
                             std::to_string(shard.positions + 1) + ",))");
    if (visits[2].header().shape[0] != entries)
      return Status::invalid(path + ": array 'visit_counts' has shape " + npz::shape_text(visits[2].header().shape) +
                             ", but 'visit_indices' has " + npz::shape_text(visits[1].header().shape));
    // The entries' length comes from the file, bounded as every array's is:
    // open_array matched the shape to the member's size, which the
    // archive's limits cap.
    shard.visit_offsets.resize(offsets);
    shard.visit_indices.resize(entries);
    shard.visit_counts.resize(entries);
    MANAKA_RETURN_NOT_OK(visits[0].read_data(shard.visit_offsets.data()));
    MANAKA_RETURN_NOT_OK(visits[1].read_data(shard.visit_indices.data()));
    MANAKA_RETURN_NOT_OK(visits[2].read_data(shard.visit_counts.data()));
    MANAKA_RETURN_NOT_OK(check_visits(shard.view(), entries).with_context(path + ": "));
  } else {
    shard.visit_offsets.clear();
    shard.visit_indices.clear();
    shard.visit_counts.clear();
  }
  shard.has_scores = archive.contains(SCORES);
  if (shard.has_scores) {
    MANAKA_ASSIGN_OR_RETURN(npz::ArrayReader scores, archive.open_array(SCORES));
    MANAKA_RETURN_NOT_OK(check_dtype(path, scores.header(), SCORES_ARRAY));
    MANAKA_RETURN_NOT_OK(check_per_position(path, SCORES, scores.header().shape, shard.positions));
    shard.scores.resize(shard.positions);
    MANAKA_RETURN_NOT_OK(scores.read_data(shard.scores.data()));
  } else {
    shard.scores.clear();
  }
  MANAKA_RETURN_NOT_OK(check_values(shard.view()).with_context(path + ": "));
  return shard;
}

}  // namespace manaka::chess_corpus
