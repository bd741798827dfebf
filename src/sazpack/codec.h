// Serializing and deserializing one SAZ2 v4 chunk (layout in sazpack/format.h).
//
// Both directions check every invariant of the spec:
//   - root_wdl, outcome_wdl and raw_wdl each sum to exactly 65535;
//   - a position has at least one policy entry, and its priors, and on their
//     own its raw_priors, sum to exactly 65535, checked by subtracting each
//     from a remaining budget of 65535 (a long list cannot wrap a sum);
//   - game_result is a known GameResult, termination_reason <= 9,
//     entering_king_rule <= 6, lower and upper <= 2, the mate tag 0 or 1;
//   - counts and visits fit in u32 (a 5-byte ULEB128 whose last byte carries
//     bits above 32, or a 6-byte one, is refused), and a count read from the
//     input never sizes an allocation beyond what the remaining bytes can hold;
//   - the input is exactly 10 + payload_len bytes, and the payload ends on a
//     game boundary (truncation and trailing bytes are refused).
// Nothing else is checked: stems, move legality, duplicate moves, lower <=
// upper and whether result and reason agree are the producer's business.
//
// A refusal names the game, the position, the policy entry, the byte offset
// from the chunk's first byte and the rule, e.g.
//   game 3, position 17, policy entry 2, byte 1290: priors exceed 65535 ...
// Truncation is ErrorKind::Truncated, every other refusal ErrorKind::Invalid.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/status.h"
#include "sazpack/format.h"

namespace manaka::sazpack {

struct ChunkHeader {
  uint8_t version = kVersion;
  uint8_t flags = 0;
  uint32_t payload_len = 0;
};

// The header's own rules: magic "SAZ2", version 4, flags 0. Reads the first
// 10 bytes; fewer is truncation.
Result<ChunkHeader> parse_header(std::span<const uint8_t> bytes);
// A chunk is exactly 10 + payload_len bytes: `available` (header included)
// short of that is truncation, beyond it trailing bytes.
Status check_chunk_length(const ChunkHeader& header, uint64_t available);

// Decodes a chunk game by game. The chunk's bytes must outlive the reader.
class GameReader {
 public:
  // Checks the header and the chunk's length (nothing is decoded yet).
  static Result<GameReader> open(std::span<const uint8_t> chunk);

  // A reader of the games in bytes [begin, end) of the chunk this one reads,
  // which must be game boundaries; the first of them is game `first_game`
  // (for messages). Lets threads decode disjoint runs of games.
  GameReader range(size_t begin, size_t end, uint64_t first_game) const {
    GameReader r = *this;
    r.pos_ = r.game_begin_ = begin;
    r.end_ = end;
    r.games_ = first_game;
    return r;
  }

  // Decodes the next game into out, reusing its vectors' storage. Returns
  // false once the payload is used up.
  Result<bool> next(SazGame& out);

  const ChunkHeader& header() const { return header_; }
  // [game_begin(), offset()) are the bytes of the game next() last returned.
  size_t game_begin() const { return game_begin_; }
  size_t offset() const { return pos_; }
  uint64_t games_read() const { return games_; }

 private:
  GameReader(std::span<const uint8_t> chunk, ChunkHeader header)
      : data_(chunk.data()), end_(chunk.size()), pos_(kHeaderSize), header_(header) {}
  Status read_position(SazPosition& out);
  Status read_policy(SazPosition& out);
  Status read_entry(SazPolicyEntry& e, uint32_t& prior_left, uint32_t& raw_left);
  // A one-byte count inline; anything longer, or a refusal, out of line.
  Status read_count(uint32_t& out, const char* what) {
    if (pos_ < end_ && data_[pos_] < 0x80) {
      out = data_[pos_++];
      return Status();
    }
    return read_long_count(out, what);
  }
  Status read_long_count(uint32_t& out, const char* what);
  Status refuse(size_t offset, const std::string& rule, ErrorKind kind = ErrorKind::Invalid) const;
  // Truncation unless n bytes remain in the payload.
  Status need(size_t n, const char* what) const { return end_ - pos_ >= n ? Status() : short_of(n, what); }
  Status short_of(size_t n, const char* what) const;

  const uint8_t* data_ = nullptr;
  size_t end_ = 0;
  size_t pos_ = 0;
  size_t game_begin_ = 0;
  uint64_t games_ = 0;
  ChunkHeader header_;
  // Where a refusal happened, for its message; -1 when not inside one.
  int64_t at_position_ = -1;
  int64_t at_entry_ = -1;
};

Result<std::vector<SazGame>> deserialize_chunk(std::span<const uint8_t> chunk);
// Each game with its payload byte range in the chunk.
Result<std::vector<IndexedSazGame>> deserialize_chunk_indexed(std::span<const uint8_t> chunk);

// The 10-byte chunk header for a payload of that many bytes; refuses one over
// 4 GiB - 1 (payload_len is u32).
Result<std::array<uint8_t, kHeaderSize>> chunk_header(uint64_t payload);

// Builds a chunk game by game: add() validates a game and appends its bytes
// (nothing of a refused game is kept); finish() writes the header.
class ChunkWriter {
 public:
  ChunkWriter() : bytes_(kHeaderSize, 0) {}

  Status add(const SazGame& game);
  // The whole chunk. Refuses a payload over 4 GiB - 1 (payload_len is u32).
  // The writer is empty afterwards.
  Result<std::vector<uint8_t>> finish();
  uint64_t games() const { return games_; }
  size_t payload_size() const { return bytes_.size() - kHeaderSize; }

 private:
  std::vector<uint8_t> bytes_;
  uint64_t games_ = 0;
};

Result<std::vector<uint8_t>> serialize_chunk(std::span<const SazGame> games);

// The rules serialization checks, without writing: "position 5: root_wdl ...".
Status validate_game(const SazGame& game);

}  // namespace manaka::sazpack
