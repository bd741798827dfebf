// GameReader and the two deserialize functions (sazpack/codec.h).
#include <algorithm>
#include <cstdio>
#include <string>

#include "core/bytes.h"
#include "sazpack/codec.h"
#include "sazpack/varint.h"

namespace manaka::sazpack {
namespace {

// A WDL triple is at least this far apart from the next in the fixed part.
constexpr size_t kWdlSize = 6;
// The least a position can take: fixed part, a one-byte count, one entry.
constexpr size_t kPositionMinSize = kPositionFixedSize + 1 + kPolicyEntryMinSize;
// The most an entry can take: visits in 5 bytes.
constexpr size_t kEntryMaxSize = 6 + kMaxUleb128Size + 2;

// Decodes an entry from at least kEntryMaxSize readable bytes, with no
// bounds checks, and sets its size. Declines (false, nothing changed) an
// entry that breaks any rule: the checked path then decodes it again and
// names the rule.
inline bool fast_entry(const uint8_t* p, SazPolicyEntry& e, uint32_t& prior_left, uint32_t& raw_left,
                       size_t& size) {
  const uint16_t prior = load_u16(p + 2), raw_prior = load_u16(p + 4);
  if (prior > prior_left || raw_prior > raw_left) return false;
  uint32_t visits = 0;
  size_t n = 6;
  for (int shift = 0;; shift += 7) {
    const uint8_t b = p[n++];
    if (shift == 28 && b > 0x0F) return false;  // too long, or bits above 31
    visits |= uint32_t(b & 0x7F) << shift;
    if (!(b & 0x80)) break;
  }
  const uint8_t lower = p[n], upper = p[n + 1];
  if (lower > kMaxOutcomeBound || upper > kMaxOutcomeBound) return false;
  e.mv = Move16{load_u16(p)};
  e.prior = prior;
  e.raw_prior = raw_prior;
  e.lower = OutcomeBound(lower);
  e.upper = OutcomeBound(upper);
  e.visits = visits;
  prior_left -= prior;
  raw_left -= raw_prior;
  size = n + 2;
  return true;
}

std::string magic_text(const uint8_t* p) {
  std::string s;
  for (int i = 0; i < 4; ++i) {
    if (p[i] >= 0x20 && p[i] < 0x7F) {
      s += char(p[i]);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", p[i]);
      s += buf;
    }
  }
  return s;
}

}  // namespace

Result<ChunkHeader> parse_header(std::span<const uint8_t> bytes) {
  if (bytes.size() < kHeaderSize) {
    return Status::truncated("chunk is " + std::to_string(bytes.size()) + " bytes, shorter than its 10-byte header");
  }
  const uint8_t* p = bytes.data();
  if (!std::equal(kMagic.begin(), kMagic.end(), p)) {
    return Status::invalid("byte 0: magic is \"" + magic_text(p) + "\", a SAZ2 chunk starts with \"SAZ2\"");
  }
  ChunkHeader h{p[4], p[5], load_u32(p + 6)};
  if (h.version != kVersion) {
    return Status::invalid("byte 4: version " + std::to_string(h.version) +
                           " is not supported; this reader accepts SAZ2 version 4 only");
  }
  if (h.flags != 0) {
    return Status::invalid("byte 5: flags are " + std::to_string(h.flags) + ", must be 0");
  }
  return h;
}

Status check_chunk_length(const ChunkHeader& h, uint64_t available) {
  const uint64_t want = kHeaderSize + uint64_t{h.payload_len};
  if (available < want) {
    return Status::truncated("truncated chunk: payload_len " + std::to_string(h.payload_len) + " needs " +
                             std::to_string(want) + " bytes, the input has " + std::to_string(available));
  }
  if (available > want) {
    return Status::invalid(std::to_string(available - want) + " trailing bytes after the chunk (payload_len " +
                           std::to_string(h.payload_len) + " ends it at byte " + std::to_string(want) +
                           ", the input has " + std::to_string(available) + ")");
  }
  return Status();
}

Result<GameReader> GameReader::open(std::span<const uint8_t> chunk) {
  MANAKA_ASSIGN_OR_RETURN(ChunkHeader h, parse_header(chunk));
  MANAKA_RETURN_NOT_OK(check_chunk_length(h, chunk.size()));
  return GameReader(chunk, h);
}

Status GameReader::refuse(size_t offset, const std::string& rule, ErrorKind kind) const {
  std::string msg = "game " + std::to_string(games_);
  if (at_position_ >= 0) msg += ", position " + std::to_string(at_position_);
  if (at_entry_ >= 0) msg += ", policy entry " + std::to_string(at_entry_);
  msg += ", byte " + std::to_string(offset) + ": " + rule;
  return kind == ErrorKind::Truncated ? Status::truncated(std::move(msg)) : Status::invalid(std::move(msg));
}

Status GameReader::short_of(size_t n, const char* what) const {
  return refuse(pos_,
                std::string("truncated: ") + what + " needs " + std::to_string(n) +
                    " bytes, the payload ends at byte " + std::to_string(end_),
                ErrorKind::Truncated);
}

Status GameReader::read_long_count(uint32_t& out, const char* what) {
  size_t at = pos_;
  switch (read_uleb128_u32(data_, pos_, end_, out)) {
    case VarintStatus::Ok: return Status();
    case VarintStatus::Truncated:
      return refuse(at, std::string("truncated: the payload ends inside the ULEB128 ") + what, ErrorKind::Truncated);
    case VarintStatus::TooLong:
      return refuse(at, std::string("ULEB128 ") + what + " runs past 5 bytes; counts are bounded to u32");
    case VarintStatus::Overflow:
      return refuse(at, std::string("ULEB128 ") + what + " does not fit in u32 (its fifth byte has bits above bit 31)");
  }
  return Status();
}

Result<bool> GameReader::next(SazGame& out) {
  at_position_ = at_entry_ = -1;
  if (pos_ >= end_) return false;
  game_begin_ = pos_;
  MANAKA_RETURN_NOT_OK(need(kGameFixedSize, "the game's stem, result, reason and rule"));
  const uint8_t* p = data_ + pos_;
  std::copy(p, p + kStemSize, out.stem.begin());
  const uint8_t result = p[32], reason = p[33], rule = p[34];
  if (!is_known_game_result(result)) {
    return refuse(pos_ + 32, "game_result " + std::to_string(result) +
                                 " is not a known GameResult (0-14, 16, 17, 20, 21)");
  }
  if (reason > kMaxTerminationReason) {
    return refuse(pos_ + 33, "termination_reason " + std::to_string(reason) + " is unknown, must be at most 9");
  }
  if (rule > kMaxEnteringKingRule) {
    return refuse(pos_ + 34, "entering_king_rule " + std::to_string(rule) + " is unknown, must be at most 6");
  }
  out.game_result = GameResult(result);
  out.termination_reason = TerminationReason(reason);
  out.entering_king_rule = EnteringKingRule(rule);
  pos_ += kGameFixedSize;
  uint32_t count = 0;
  MANAKA_RETURN_NOT_OK(read_count(count, "position_count"));
  // Never more than the remaining bytes could hold, whatever count says.
  const size_t fits = (end_ - pos_) / kPositionMinSize;
  if (out.positions.capacity() < std::min<size_t>(count, fits)) out.positions.reserve(std::min<size_t>(count, fits));
  size_t used = 0;
  for (uint32_t i = 0; i < count; ++i) {
    at_position_ = i;
    if (used == out.positions.size()) out.positions.emplace_back();
    MANAKA_RETURN_NOT_OK(read_position(out.positions[used]));
    ++used;
  }
  out.positions.resize(used);
  at_position_ = -1;
  ++games_;
  return true;
}

Status GameReader::read_position(SazPosition& out) {
  MANAKA_RETURN_NOT_OK(need(kPositionFixedSize, "the position's 34 fixed bytes"));
  const uint8_t* p = data_ + pos_;
  out.played = Move16{load_u16(p)};
  static constexpr const char* kWdlNames[3] = {"root_wdl", "outcome_wdl", "raw_wdl"};
  SazWdl* wdls[3] = {&out.root_wdl, &out.outcome_wdl, &out.raw_wdl};
  for (int w = 0; w < 3; ++w) {
    const uint8_t* q = p + 2 + w * kWdlSize;
    *wdls[w] = SazWdl{load_u16(q), load_u16(q + 2), load_u16(q + 4)};
    if (wdls[w]->sum() != kDistributionTotal) {
      const SazWdl& v = *wdls[w];
      return refuse(pos_ + 2 + w * kWdlSize,
                    std::string(kWdlNames[w]) + " " + std::to_string(v.win) + " + " + std::to_string(v.draw) + " + " +
                        std::to_string(v.loss) + " = " + std::to_string(v.sum()) +
                        ", a WDL must sum to exactly 65535");
    }
  }
  out.raw_mate = load_u16(p + 20);
  out.raw_moves_left = load_u16(p + 22);
  out.plies_left = load_u16(p + 24);
  out.requested_visits = load_u32(p + 26);
  out.target_weight_milli = load_u16(p + 30);
  out.exploration_flags = p[32];
  const uint8_t tag = p[33];
  if (tag > 1) {
    return refuse(pos_ + 33, "mate tag " + std::to_string(tag) + ", must be 0 (no mate) or 1 (a mate follows)");
  }
  pos_ += kPositionFixedSize;
  if (tag == 1) {
    MANAKA_RETURN_NOT_OK(need(kMateSize, "the mate"));
    out.mate = load_i16(data_ + pos_);
    pos_ += kMateSize;
  } else {
    out.mate.reset();
  }
  return read_policy(out);
}

Status GameReader::read_policy(SazPosition& out) {
  const size_t count_at = pos_;
  uint32_t count = 0;
  MANAKA_RETURN_NOT_OK(read_count(count, "policy_count"));
  if (count == 0) {
    return refuse(count_at, "no policy entries; a position needs at least one, its priors summing to 65535");
  }
  out.policy.clear();
  out.policy.reserve(std::min<size_t>(count, (end_ - pos_) / kPolicyEntryMinSize));
  uint32_t prior_left = kDistributionTotal, raw_left = kDistributionTotal;
  for (uint32_t i = 0; i < count; ++i) {
    // Decoded in place: a copy of an entry just stored field by field would
    // stall on store-to-load forwarding.
    SazPolicyEntry& e = out.policy.emplace_back();
    size_t size = 0;
    if (end_ - pos_ >= kEntryMaxSize && fast_entry(data_ + pos_, e, prior_left, raw_left, size)) {
      pos_ += size;
    } else {
      at_entry_ = i;
      MANAKA_RETURN_NOT_OK(read_entry(e, prior_left, raw_left));
      at_entry_ = -1;
    }
  }
  if (prior_left != 0 || raw_left != 0) {
    const bool prior = prior_left != 0;
    return refuse(pos_, std::string(prior ? "priors" : "raw_priors") + " sum to " +
                            std::to_string(kDistributionTotal - (prior ? prior_left : raw_left)) +
                            ", must be exactly 65535");
  }
  return Status();
}

// Every check, naming what fails: the path for the last bytes of a payload
// and for entries fast_entry declines.
Status GameReader::read_entry(SazPolicyEntry& e, uint32_t& prior_left, uint32_t& raw_left) {
  MANAKA_RETURN_NOT_OK(need(kPolicyEntryMinSize, "a policy entry"));
  const uint8_t* p = data_ + pos_;
  e.mv = Move16{load_u16(p)};
  e.prior = load_u16(p + 2);
  e.raw_prior = load_u16(p + 4);
  if (e.prior > prior_left) {
    return refuse(pos_ + 2, "prior " + std::to_string(e.prior) + " exceeds the " + std::to_string(prior_left) +
                                " left of 65535; a position's priors must sum to exactly 65535");
  }
  if (e.raw_prior > raw_left) {
    return refuse(pos_ + 4, "raw_prior " + std::to_string(e.raw_prior) + " exceeds the " + std::to_string(raw_left) +
                                " left of 65535; a position's raw_priors must sum to exactly 65535");
  }
  pos_ += 6;
  MANAKA_RETURN_NOT_OK(read_count(e.visits, "visits"));
  MANAKA_RETURN_NOT_OK(need(2, "the entry's lower and upper bounds"));
  const uint8_t lower = data_[pos_], upper = data_[pos_ + 1];
  if (lower > kMaxOutcomeBound || upper > kMaxOutcomeBound) {
    const bool low = lower > kMaxOutcomeBound;
    return refuse(pos_ + (low ? 0 : 1), std::string(low ? "lower" : "upper") + " bound " +
                                            std::to_string(low ? lower : upper) +
                                            " is unknown, must be 0 (Loss), 1 (Draw) or 2 (Win)");
  }
  e.lower = OutcomeBound(lower);
  e.upper = OutcomeBound(upper);
  pos_ += 2;
  prior_left -= e.prior;
  raw_left -= e.raw_prior;
  return Status();
}

Result<std::vector<SazGame>> deserialize_chunk(std::span<const uint8_t> chunk) {
  MANAKA_ASSIGN_OR_RETURN(GameReader reader, GameReader::open(chunk));
  std::vector<SazGame> games;
  while (true) {
    SazGame game;
    MANAKA_ASSIGN_OR_RETURN(bool more, reader.next(game));
    if (!more) break;
    games.push_back(std::move(game));
  }
  return games;
}

Result<std::vector<IndexedSazGame>> deserialize_chunk_indexed(std::span<const uint8_t> chunk) {
  MANAKA_ASSIGN_OR_RETURN(GameReader reader, GameReader::open(chunk));
  std::vector<IndexedSazGame> games;
  while (true) {
    IndexedSazGame item;
    MANAKA_ASSIGN_OR_RETURN(bool more, reader.next(item.game));
    if (!more) break;
    item.begin = reader.game_begin();
    item.end = reader.offset();
    games.push_back(std::move(item));
  }
  return games;
}

}  // namespace manaka::sazpack
