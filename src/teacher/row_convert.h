// One teacher corpus row -> one MPK1 record (spec: mpk1-training-data-formats,
// "Teacher generation"):
//
//   value_z  result (Black's view) turned to the side to move's with `side`:
//            result when side is 0 (Black), -result when side is 1 (White)
//   value_q  tanh(cp / (2 * eval_coef)), or sign(cp) in the mate band
//   packed   the SFEN's position (shogi::pack)
//   cands    each candidate: mv = move16 of the USI move, cp = its score
//            unshifted, visits = NO_VISITS; in the corpus's order
//   ply      carried as it is
//
// A row is refused, not encoded, for the first rule it breaks, in this order:
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "shogi/move.h"
#include "shogi/pack.h"
#include "shogi/position.h"
#include "stream/format.h"
#include "teacher/score.h"

namespace manaka::teacher {

enum class Refusal : uint8_t {
  None,
  MissingValue,        // a field is null, absent, or not of its type
  OutOfRange,          // side not 0/1, result not -1/0/1, ply not 0..65535,
                       // a candidate cp outside -32767..32767, > 65535 candidates
  BadSfen,             // the SFEN does not parse, or breaks a rule of the game
  SideMismatch,        // side disagrees with the SFEN's side to move
  LengthMismatch,      // cand_moves and cand_cp differ in length
  NoCandidates,        // both candidate lists are empty
  UnparsableMove,      // a candidate or the played move is not a USI move
  RepeatedMove,        // a candidate move appears twice
  IllegalMove,         // a candidate move is illegal in the position
  PlayedNotCandidate,  // the played move is not among the candidates
  Count
};
inline constexpr size_t kRefusalCount = static_cast<size_t>(Refusal::Count);

// "missing_value", "side_mismatch", ... (snake_case, as the JSON summary keys)
const char* refusal_name(Refusal r);
// "side disagrees with its SFEN", ... (for the printed summary)
const char* refusal_text(Refusal r);

// One row, borrowed from a CorpusBatch.
struct RowView {
  std::string_view sfen, move;
  int64_t ply = 0, side = 0, cp = 0, result = 0;
  int missing = -1;  // a CorpusField, or -1
  std::span<const std::string_view> cand_moves;
  std::span<const int64_t> cand_cp;
};

// The record, owned, with buffers reused from row to row.
struct ConvertedRow {
  uint16_t ply = 0;
  float value_z = 0.0f, value_q = 0.0f;
  shogi::Packed packed{};
  std::vector<stream::Candidate> candidates;

  stream::RecordView view() const { return {ply, value_z, value_q, packed, candidates}; }
};

// Carries an accepted row's position and played move to the next row. A
// corpus is made of games in ply order, so a row is usually the previous
// row's position after its played move; when the row's ply is the next one
// and its SFEN text is exactly that position's SFEN (board, side, hands and
// move number, as Position::sfen writes them), the position is taken from
// here instead of being parsed again: the same position, checked by a render
// and a string compare at about a third of the cost of a parse. Any other
// row is parsed. One chain per thread, over consecutive rows.
// Not copyable: pos refers to states.
struct RowChain {
  std::optional<shogi::Position> pos;  // the last accepted row's position
  shogi::Move played;                  // ... and its played move
  int64_t ply = 0;
  shogi::StateInfo states[2];          // do_move's records, used in turn
  int flip = 0;

  RowChain() = default;
  RowChain(const RowChain&) = delete;
  RowChain& operator=(const RowChain&) = delete;
};

// Converts `row` into *out; on a refusal returns its reason and puts what was
// wrong into *detail ("side 1 but the SFEN has Black to move"). chain may be
// null.
Refusal convert_row(const RowView& row, const Conventions& conv, ConvertedRow* out,
                    std::string* detail, RowChain* chain = nullptr);

}  // namespace manaka::teacher
