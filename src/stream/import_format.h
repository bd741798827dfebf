// The shogi training formats other tools write, and how one of their records
// becomes MPK1 records (docs/import.md). Little-endian throughout.
//
// PackedSfenValue (YaneuraOu gensfen, "psv"), 40 bytes:
//    0  32  sfen         PackedSfen (shogi/packed_sfen.h)
//   32   2  score        i16, the side to move's view
//   34   2  move         u16, YaneuraOu Move16 (sazpack/move16.h)
//   36   2  gamePly      u16
//   38   1  game_result  i8, the side to move's view: 1 won, -1 lost, 0 draw
//   39   1  padding
// HuffmanCodedPosAndEval (dlshogi, "hcpe"), 38 bytes:
//    0  32  hcp          HuffmanCodedPos (shogi/huffman_coded_pos.h)
//   32   2  eval         i16, the side to move's view
//   34   2  bestMove16   u16, Apery move16 (shogi/apery_move16.h)
//   36   1  gameResult   u8, 0 draw, 1 Black won, 2 White won
//   37   1  dummy
// hcpe3 (dlshogi), games one after another, each:
//    0  32  hcp          the game's first position
//   32   2  moveNum      u16, positions that follow
//   34   1  result       u8: bits 0-1 0 draw, 1 Black won, 2 White won;
//                        0x04 repetition, 0x08 declaration, 0x10 max moves
//   35   1  opponent     u8 (not carried)
//   then moveNum times:
//    +0  2  selectedMove16  u16, Apery move16, the move played
//    +2  2  eval            i16, the side to move's view
//    +4  2  candidateNum    u16, then that many (move16 u16, visitNum u16)
//
// Each psv / hcpe record and each hcpe3 position becomes one MPK1 record, or
// is refused for the first rule it breaks (ImportRefusal); nothing is
// repaired. value_q is score/eval through the caller's ScoreTable (the
// teacher conversion's squash), value_z the result in the side to move's view.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "shogi/pack.h"
#include "shogi/position.h"
#include "stream/format.h"

namespace manaka::stream {

enum class SourceFormat : uint8_t { Psv, Hcpe, Hcpe3 };
// "psv", "hcpe", "hcpe3".
const char* source_format_name(SourceFormat f);
Result<SourceFormat> parse_source_format(std::string_view name);

inline constexpr size_t kPsvRecordSize = 40;
inline constexpr size_t kHcpeRecordSize = 38;
inline constexpr size_t kHcpe3GameHeaderSize = 36;
inline constexpr size_t kHcpe3MoveSize = 6;
inline constexpr size_t kHcpe3CandidateSize = 4;
// No shogi position has more legal moves: a larger candidateNum is a file
// that is not hcpe3 (and the cap bounds a game's bytes before they are read).
inline constexpr uint16_t kHcpe3MaxCandidates = 593;
inline constexpr uint8_t kHcpe3ResultMask = 0x03;

enum class ImportRefusal : uint8_t {
  None,
  BadPosition,        // the 32-byte code does not decode, or breaks a rule
  OutOfRange,         // a result outside its values, a score of -32768
  NoMove,             // the move is none or a special (resign, win, ...)
  IllegalMove,        // the move (a candidate, the played move) is illegal
  RepeatedCandidate,  // hcpe3: a candidate move listed twice
  NoVisits,           // hcpe3: no candidate with a visit
  GameBroken,         // hcpe3: an earlier position of the game was refused
  Truncated,          // the file ends inside a record or game
  Count
};
inline constexpr size_t kImportRefusalCount = static_cast<size_t>(ImportRefusal::Count);
const char* import_refusal_name(ImportRefusal r);  // snake_case (JSON keys)
const char* import_refusal_text(ImportRefusal r);  // for the printed summary

// value_q by i16 score, computed once for all 65536 values.
class ScoreTable {
 public:
  explicit ScoreTable(const std::function<float(int64_t cp)>& value_q);
  float value_q(int16_t cp) const { return q_[uint16_t(cp)]; }

 private:
  std::vector<float> q_;
};

// One record made, its candidates elsewhere (ImportBuffer::candidates).
struct ImportedRecord {
  uint16_t ply = 0;
  float value_z = 0.0f, value_q = 0.0f;
  shogi::Packed packed{};
  uint32_t cand_begin = 0, cand_count = 0;
  ImportRefusal why = ImportRefusal::None;
  uint32_t source = 0;  // psv / hcpe: the record's index in the run; hcpe3: the move's index in its game
};

// What a run of source positions became: a record (accepted or refused) per
// source position in order, and the message of each refused one.
struct ImportBuffer {
  std::vector<ImportedRecord> records;
  std::vector<Candidate> candidates;
  std::vector<std::pair<uint32_t, std::string>> details;  // (index in records, message)
  uint64_t dropped_candidates = 0;  // hcpe3 candidates with no visit, left out
  uint64_t unsearched = 0;          // hcpe3 positions with no candidate, skipped

  void clear() {
    records.clear();
    candidates.clear();
    details.clear();
    dropped_candidates = unsearched = 0;
  }
  RecordView view(const ImportedRecord& r) const {
    return {r.ply, r.value_z, r.value_q, r.packed,
            std::span<const Candidate>(candidates).subspan(r.cand_begin, r.cand_count)};
  }
};

// Appends one record (refused or not) for each psv / hcpe record in `bytes`
// (a whole number of records).
void import_psv(std::span<const uint8_t> bytes, const ScoreTable& scores, ImportBuffer& out);
void import_hcpe(std::span<const uint8_t> bytes, const ScoreTable& scores, ImportBuffer& out);

// The length of the hcpe3 game at the start of `bytes`: 0 when bytes end
// inside it (*needed: the bytes it needs so far), or an error for a
// candidateNum over kHcpe3MaxCandidates.
Result<size_t> hcpe3_game_size(std::span<const uint8_t> bytes, size_t* needed);
// Appends one record per position of the hcpe3 game `game` (exactly
// hcpe3_game_size bytes), skipping positions with no candidate
// (out.unsearched); after a refused position, the game's later positions
// are refused as GameBroken.
void import_hcpe3_game(std::span<const uint8_t> game, const ScoreTable& scores, ImportBuffer& out);

}  // namespace manaka::stream
