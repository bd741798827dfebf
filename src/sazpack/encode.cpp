// ChunkWriter, serialize_chunk and validate_game (sazpack/codec.h).
#include <algorithm>
#include <limits>
#include <string>

#include "core/bytes.h"
#include "sazpack/codec.h"
#include "sazpack/varint.h"

namespace manaka::sazpack {
namespace {

constexpr uint64_t kMaxU32 = std::numeric_limits<uint32_t>::max();

Status check_wdl(const SazWdl& v, const char* name) {
  if (v.sum() == kDistributionTotal) return Status();
  return Status::invalid(std::string(name) + " " + std::to_string(v.win) + " + " + std::to_string(v.draw) + " + " +
                         std::to_string(v.loss) + " = " + std::to_string(v.sum()) +
                         ", a WDL must sum to exactly 65535");
}

Status check_position(const SazPosition& pos) {
  MANAKA_RETURN_NOT_OK(check_wdl(pos.root_wdl, "root_wdl"));
  MANAKA_RETURN_NOT_OK(check_wdl(pos.outcome_wdl, "outcome_wdl"));
  MANAKA_RETURN_NOT_OK(check_wdl(pos.raw_wdl, "raw_wdl"));
  if (pos.policy.empty()) {
    return Status::invalid("no policy entries; a position needs at least one, its priors summing to 65535");
  }
  if (pos.policy.size() > kMaxU32) return Status::invalid("more than 2^32 - 1 policy entries");
  uint32_t prior_left = kDistributionTotal, raw_left = kDistributionTotal;
  for (size_t i = 0; i < pos.policy.size(); ++i) {
    const SazPolicyEntry& e = pos.policy[i];
    const std::string where = "policy entry " + std::to_string(i) + ": ";
    if (e.prior > prior_left) {
      return Status::invalid(where + "prior " + std::to_string(e.prior) + " exceeds the " +
                             std::to_string(prior_left) +
                             " left of 65535; a position's priors must sum to exactly 65535");
    }
    if (e.raw_prior > raw_left) {
      return Status::invalid(where + "raw_prior " + std::to_string(e.raw_prior) + " exceeds the " +
                             std::to_string(raw_left) +
                             " left of 65535; a position's raw_priors must sum to exactly 65535");
    }
    prior_left -= e.prior;
    raw_left -= e.raw_prior;
    const uint8_t lower = uint8_t(e.lower), upper = uint8_t(e.upper);
    if (lower > kMaxOutcomeBound || upper > kMaxOutcomeBound) {
      return Status::invalid(where + "bound " + std::to_string(lower > kMaxOutcomeBound ? lower : upper) +
                             " is unknown, must be 0 (Loss), 1 (Draw) or 2 (Win)");
    }
  }
  if (prior_left != 0) {
    return Status::invalid("priors sum to " + std::to_string(kDistributionTotal - prior_left) +
                           ", must be exactly 65535");
  }
  if (raw_left != 0) {
    return Status::invalid("raw_priors sum to " + std::to_string(kDistributionTotal - raw_left) +
                           ", must be exactly 65535");
  }
  return Status();
}

void put_u16(std::vector<uint8_t>& out, uint16_t v) {
  uint8_t b[2];
  store_u16(b, v);
  out.insert(out.end(), b, b + 2);
}

void put_u32(std::vector<uint8_t>& out, uint32_t v) {
  uint8_t b[4];
  store_u32(b, v);
  out.insert(out.end(), b, b + 4);
}

void put_wdl(std::vector<uint8_t>& out, const SazWdl& v) {
  put_u16(out, v.win);
  put_u16(out, v.draw);
  put_u16(out, v.loss);
}

void append_position(std::vector<uint8_t>& out, const SazPosition& pos) {
  put_u16(out, pos.played.raw);
  put_wdl(out, pos.root_wdl);
  put_wdl(out, pos.outcome_wdl);
  put_wdl(out, pos.raw_wdl);
  put_u16(out, pos.raw_mate);
  put_u16(out, pos.raw_moves_left);
  put_u16(out, pos.plies_left);
  put_u32(out, pos.requested_visits);
  put_u16(out, pos.target_weight_milli);
  out.push_back(pos.exploration_flags);
  out.push_back(pos.mate ? 1 : 0);
  if (pos.mate) put_u16(out, uint16_t(*pos.mate));
  append_uleb128_u32(out, uint32_t(pos.policy.size()));
  for (const SazPolicyEntry& e : pos.policy) {
    put_u16(out, e.mv.raw);
    put_u16(out, e.prior);
    put_u16(out, e.raw_prior);
    append_uleb128_u32(out, e.visits);
    out.push_back(uint8_t(e.lower));
    out.push_back(uint8_t(e.upper));
  }
}

}  // namespace

Status validate_game(const SazGame& game) {
  if (!is_known_game_result(uint8_t(game.game_result))) {
    return Status::invalid("game_result " + std::to_string(uint8_t(game.game_result)) +
                           " is not a known GameResult (0-14, 16, 17, 20, 21)");
  }
  if (uint8_t(game.termination_reason) > kMaxTerminationReason) {
    return Status::invalid("termination_reason " + std::to_string(uint8_t(game.termination_reason)) +
                           " is unknown, must be at most 9");
  }
  if (uint8_t(game.entering_king_rule) > kMaxEnteringKingRule) {
    return Status::invalid("entering_king_rule " + std::to_string(uint8_t(game.entering_king_rule)) +
                           " is unknown, must be at most 6");
  }
  if (game.positions.size() > kMaxU32) return Status::invalid("more than 2^32 - 1 positions");
  for (size_t i = 0; i < game.positions.size(); ++i) {
    Status st = check_position(game.positions[i]);
    if (!st.ok()) return std::move(st).with_context("position " + std::to_string(i) + ", ");
  }
  return Status();
}

Status ChunkWriter::add(const SazGame& game) {
  Status st = validate_game(game);
  if (!st.ok()) return std::move(st).with_context("game " + std::to_string(games_) + ", ");
  bytes_.insert(bytes_.end(), game.stem.begin(), game.stem.end());
  bytes_.push_back(uint8_t(game.game_result));
  bytes_.push_back(uint8_t(game.termination_reason));
  bytes_.push_back(uint8_t(game.entering_king_rule));
  append_uleb128_u32(bytes_, uint32_t(game.positions.size()));
  for (const SazPosition& pos : game.positions) append_position(bytes_, pos);
  ++games_;
  return Status();
}

Result<std::array<uint8_t, kHeaderSize>> chunk_header(uint64_t payload) {
  if (payload > kMaxU32)
    return Status::invalid("payload of " + std::to_string(payload) +
                           " bytes does not fit payload_len (u32); write fewer games per chunk");
  std::array<uint8_t, kHeaderSize> header{};
  std::copy(kMagic.begin(), kMagic.end(), header.begin());
  header[4] = kVersion;
  header[5] = 0;
  store_u32(header.data() + 6, uint32_t(payload));
  return header;
}

Result<std::vector<uint8_t>> ChunkWriter::finish() {
  auto header = chunk_header(payload_size());
  if (!header.ok())
    return std::move(header).take_status().with_context(std::to_string(games_) + " games: ");
  std::copy(header->begin(), header->end(), bytes_.begin());
  std::vector<uint8_t> out = std::move(bytes_);
  bytes_.assign(kHeaderSize, 0);
  games_ = 0;
  return out;
}

Result<std::vector<uint8_t>> serialize_chunk(std::span<const SazGame> games) {
  ChunkWriter writer;
  for (const SazGame& game : games) MANAKA_RETURN_NOT_OK(writer.add(game));
  return writer.finish();
}

}  // namespace manaka::sazpack
