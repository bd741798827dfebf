// SAZ2 v4 "sazpack": AlphaZero-style self-play stored by game. Constants,
// the enumerations and the in-memory structs of one chunk. Specified in
// shared/spec/saz2-sazpack-v4.ja.txt and saz2-wire-layout.md; every field
// below was confirmed against rsshogi 1.7.0 (docs/sazpack.md). Fixed-width
// integers are little-endian; counts and visits are ULEB128 bounded to u32.
//
// Chunk header, 10 bytes:
//   off size field
//     0   4  magic        "SAZ2"
//     4   1  version      u8  4, the only version read
//     5   1  flags        u8  0, anything else refused
//     6   4  payload_len  u32 bytes after the header; the chunk ends exactly there
// then games back to back until payload_len is used up.
//
// Game, 35 bytes + ULEB128 + positions:
//     0  32  stem                YaneuraOu PackedSfen of the start position
//    32   1  game_result         GameResult below
//    33   1  termination_reason  TerminationReason below (<= 9)
//    34   1  entering_king_rule  EnteringKingRule below (<= 6)
//    35   *  position_count      ULEB128
//
// Position, 34 fixed bytes (36 with a mate), then the policy:
//     0   2  played               Move16 (YaneuraOu layout, sazpack/move16.h)
//     2   6  root_wdl             win, draw, loss u16; sum exactly 65535
//     8   6  outcome_wdl          same rule
//    14   6  raw_wdl              same rule
//    20   2  raw_mate             u16, mate-head probability * 65535
//    22   2  raw_moves_left       u16, plies * 32
//    24   2  plies_left           u16
//    26   4  requested_visits     u32
//    30   2  target_weight_milli  u16, 1000 = weight 1.0
//    32   1  exploration_flags    u8
//    33   1  mate tag             u8, 0 none / 1 present
//   [34   2  mate                 i16, only when the tag is 1]
//     *   *  policy_count         ULEB128, >= 1
//
// Policy entry, 9 bytes at least:
//     0   2  mv         Move16
//     2   2  prior      u16; a position's priors sum to exactly 65535
//     4   2  raw_prior  u16; same rule, on their own
//     6   *  visits     ULEB128 (u32)
//     *   1  lower      OutcomeBound (<= 2)
//     *   1  upper      OutcomeBound (<= 2)
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "sazpack/move16.h"

namespace manaka::sazpack {

inline constexpr std::array<uint8_t, 4> kMagic = {'S', 'A', 'Z', '2'};
inline constexpr uint8_t kVersion = 4;
inline constexpr size_t kHeaderSize = 10;
inline constexpr size_t kStemSize = 32;
inline constexpr size_t kGameFixedSize = kStemSize + 3;  // stem, result, reason, rule
inline constexpr size_t kPositionFixedSize = 34;         // up to and with the mate tag
inline constexpr size_t kMateSize = 2;
inline constexpr size_t kPolicyEntryMinSize = 9;         // visits as one ULEB128 byte
inline constexpr size_t kMaxUleb128Size = 5;             // u32
// Each WDL triple and each of a position's two prior distributions sums to this.
inline constexpr uint32_t kDistributionTotal = 65535;

// rsshogi's GameResult numbering. 15, 18, 19 and everything above 21 are
// unknown and refused.
enum class GameResult : uint8_t {
  BlackWin = 0,
  WhiteWin = 1,
  DrawByRepetition = 2,
  Error = 3,
  BlackWinByDeclaration = 4,
  WhiteWinByDeclaration = 5,
  DrawByMaxPlies = 6,
  Invalid = 7,
  BlackWinByForfeit = 8,
  WhiteWinByForfeit = 9,
  DrawByImpasse = 10,
  Paused = 11,
  BlackWinByIllegalMove = 12,
  WhiteWinByIllegalMove = 13,
  DrawByAdjudication = 14,
  BlackWinByTimeout = 16,
  WhiteWinByTimeout = 17,
  BlackWinByTryRule = 20,
  WhiteWinByTryRule = 21,
};

// Why the game ended. The names of 8 and 9 are the v4 document's; the
// reference package exposes the value as an int only (docs/sazpack.md).
enum class TerminationReason : uint8_t {
  NoLegalMoves = 0,
  RepetitionDraw = 1,
  PerpetualCheckWin = 2,
  PerpetualCheckLoss = 3,
  RepetitionSuperior = 4,
  RepetitionInferior = 5,
  EnteringKingDeclaration = 6,
  MaxGamePlies = 7,
  Resignation = 8,
  Adjudication = 9,
};
inline constexpr uint8_t kMaxTerminationReason = 9;

enum class EnteringKingRule : uint8_t {
  None = 0,
  Point24 = 1,
  Point24Handicap = 2,
  Point27 = 3,
  Point27Handicap = 4,
  TryRule = 5,
  Unset = 6,
};
inline constexpr uint8_t kMaxEnteringKingRule = 6;

// A game-theoretic bound on a move's value, from the mover's side.
enum class OutcomeBound : uint8_t { Loss = 0, Draw = 1, Win = 2 };
inline constexpr uint8_t kMaxOutcomeBound = 2;

// What a result means for training: who won, a draw, or nothing (Error,
// Invalid, Paused carry no outcome).
enum class Outcome : uint8_t { BlackWin, WhiteWin, Draw, None };

bool is_known_game_result(uint8_t value);
Outcome outcome_of(GameResult result);
// "BlackWin", "DrawByAdjudication", ...; "unknown" outside the enumeration.
const char* to_string(GameResult result);
const char* to_string(TerminationReason reason);
const char* to_string(EnteringKingRule rule);
const char* to_string(Outcome outcome);

struct SazWdl {
  uint16_t win = 0;
  uint16_t draw = 0;
  uint16_t loss = 0;

  uint32_t sum() const { return uint32_t{win} + draw + loss; }
  bool operator==(const SazWdl&) const = default;
};

// 12 bytes in memory (the bounds before visits, unlike the wire).
struct SazPolicyEntry {
  Move16 mv;
  uint16_t prior = 0;      // the prior the search used (after root noise)
  uint16_t raw_prior = 0;  // the network's prior before noise
  OutcomeBound lower = OutcomeBound::Loss;
  OutcomeBound upper = OutcomeBound::Win;
  uint32_t visits = 0;

  bool operator==(const SazPolicyEntry&) const = default;
};

// The position before `played`: position i + 1 of a game is position i after
// its played move, position 0 is the stem.
struct SazPosition {
  Move16 played;
  SazWdl root_wdl;     // the search's root WDL, side to move
  SazWdl outcome_wdl;  // the game's result, side to move
  SazWdl raw_wdl;      // the network's WDL before search
  uint16_t raw_mate = 0;
  uint16_t raw_moves_left = 0;
  uint16_t plies_left = 0;
  uint32_t requested_visits = 0;
  uint16_t target_weight_milli = 0;
  uint8_t exploration_flags = 0;
  std::optional<int16_t> mate;  // proven mate distance
  std::vector<SazPolicyEntry> policy;

  bool operator==(const SazPosition&) const = default;
};

using PackedSfen = std::array<uint8_t, kStemSize>;

struct SazGame {
  PackedSfen stem{};
  GameResult game_result = GameResult::BlackWin;
  TerminationReason termination_reason = TerminationReason::NoLegalMoves;
  EnteringKingRule entering_king_rule = EnteringKingRule::None;
  std::vector<SazPosition> positions;

  bool operator==(const SazGame&) const = default;
};

// A decoded game with the bytes it came from: [begin, end) in the chunk
// (offsets from the chunk's first byte, header included).
struct IndexedSazGame {
  SazGame game;
  size_t begin = 0;
  size_t end = 0;
};

}  // namespace manaka::sazpack
