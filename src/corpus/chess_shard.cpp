#include "corpus/chess_shard.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <system_error>

#include "chess/move_index.h"
#include "core/file.h"
#include "core/text.h"
#include "npz/npz_writer.h"

namespace manaka::corpus {

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
  for (const std::string& name : archive.names()) {
    if (std::none_of(ARRAYS.begin(), ARRAYS.end(), [&](const Expected& e) { return name == e.name; }))
      return foreign("an array '" + printable(name) + "'");
  }
  std::array<npz::ArrayReader, 3> arrays;
  for (size_t i = 0; i < ARRAYS.size(); ++i) {
    if (!archive.contains(ARRAYS[i].name)) return foreign(std::string("no array '") + ARRAYS[i].name + "'");
    MANAKA_ASSIGN_OR_RETURN(arrays[i], archive.open_array(ARRAYS[i].name));
    const npz::NpyHeader& h = arrays[i].header();
    if (h.dtype != ARRAYS[i].dtype)
      return Status::invalid(path + ": array '" + ARRAYS[i].name + "' has dtype '" + std::string(npz::descr(h.dtype)) +
                             "', a chess shard's is " + ARRAYS[i].what);
  }
  const std::vector<uint64_t>& states_shape = arrays[0].header().shape;
  if (states_shape.size() != 4 || !std::equal(BOARD_DIMS.begin(), BOARD_DIMS.end(), states_shape.begin() + 1))
    return Status::invalid(path + ": array 'states' has shape " + npz::shape_text(states_shape) +
                           ", a chess shard's is (N, 20, 8, 8)");
  ChessShard shard = std::move(reuse);
  shard.positions = states_shape[0];
  for (size_t i = 1; i < ARRAYS.size(); ++i) {
    const std::vector<uint64_t>& shape = arrays[i].header().shape;
    if (shape.size() != 1 || shape[0] != shard.positions)
      return Status::invalid(path + ": array '" + ARRAYS[i].name + "' has shape " + npz::shape_text(shape) +
                             ", but 'states' holds " + std::to_string(shard.positions) + " positions (expected (" +
                             std::to_string(shard.positions) + ",))");
  }
  shard.states.resize(shard.positions * PLANES_PER_POSITION);
  shard.move_indices.resize(shard.positions);
  shard.outcomes.resize(shard.positions);
  MANAKA_RETURN_NOT_OK(arrays[0].read_data(shard.states.data()));
  MANAKA_RETURN_NOT_OK(arrays[1].read_data(shard.move_indices.data()));
  MANAKA_RETURN_NOT_OK(arrays[2].read_data(shard.outcomes.data()));
  MANAKA_RETURN_NOT_OK(check_values(shard.view()).with_context(path + ": "));
  return shard;
}

}  // namespace manaka::corpus
