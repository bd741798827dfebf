#include "teacher/row_convert.h"

#include <limits>

#include "teacher/corpus_batch.h"
#include "shogi/position.h"

namespace manaka::teacher {

namespace {

constexpr const char* kNames[kRefusalCount] = {
    "none",           "missing_value", "out_of_range",  "bad_sfen",     "side_mismatch",
    "length_mismatch", "no_candidates", "unparsable_move", "repeated_move", "illegal_move",
    "played_not_candidate"};
constexpr const char* kTexts[kRefusalCount] = {
    "accepted",
    "a field is null, absent or of the wrong type",
    "a value is out of range",
    "the SFEN does not parse or breaks a rule",
    "side disagrees with its SFEN",
    "its candidate lists differ in length",
    "it has no candidates",
    "a move does not parse",
    "a candidate move is repeated",
    "a move is illegal in the position",
    "its played move is not among its candidates"};

Refusal refuse(Refusal r, std::string* detail, std::string text) {
  *detail = std::move(text);
  return r;
}

std::string quoted(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out.push_back('"');
  out.append(s);
  out.push_back('"');
  return out;
}

}  // namespace

const char* refusal_name(Refusal r) { return kNames[static_cast<size_t>(r)]; }
const char* refusal_text(Refusal r) { return kTexts[static_cast<size_t>(r)]; }

namespace {

// The rules that need no position.
Refusal check_fields(const RowView& row, std::string* detail) {
  if (row.missing >= 0)
    return refuse(Refusal::MissingValue, detail,
                  std::string("field ") + kCorpusFieldNames[size_t(row.missing)] +
                      " is null, absent or of the wrong type");
  if (row.side != 0 && row.side != 1)
    return refuse(Refusal::OutOfRange, detail, "side " + std::to_string(row.side) + ", must be 0 or 1");
  if (row.result < -1 || row.result > 1)
    return refuse(Refusal::OutOfRange, detail,
                  "result " + std::to_string(row.result) + ", must be 1, -1 or 0");
  if (row.ply < 0 || row.ply > std::numeric_limits<uint16_t>::max())
    return refuse(Refusal::OutOfRange, detail, "ply " + std::to_string(row.ply) + ", must be 0..65535");
  if (row.cand_moves.size() > stream::kMaxCandidates)
    return refuse(Refusal::OutOfRange, detail,
                  std::to_string(row.cand_moves.size()) + " candidates, at most 65535 fit a record");
  for (int64_t cp : row.cand_cp) {
    if (cp <= stream::kNoCp || cp > std::numeric_limits<int16_t>::max())
      return refuse(Refusal::OutOfRange, detail,
                    "candidate cp " + std::to_string(cp) + ", must be -32767..32767");
  }
  return Refusal::None;
}

// The rules that need the position, and the record.
Refusal check_moves(const RowView& row, const Conventions& conv, const shogi::Position& pos,
                    ConvertedRow* out, std::string* detail, shogi::Move* played_move) {
  using shogi::Move;
  const int sfen_side = pos.side_to_move() == shogi::BLACK ? 0 : 1;
  if (row.side != sfen_side)
    return refuse(Refusal::SideMismatch, detail,
                  "side " + std::to_string(row.side) + " but the SFEN has " +
                      shogi::COLOR_NAME[sfen_side] + " to move");
  if (row.cand_moves.size() != row.cand_cp.size())
    return refuse(Refusal::LengthMismatch, detail,
                  std::to_string(row.cand_moves.size()) + " cand_moves but " +
                      std::to_string(row.cand_cp.size()) + " cand_cp");
  if (row.cand_moves.empty()) return refuse(Refusal::NoCandidates, detail, "no candidates");

  const size_t n = row.cand_moves.size();
  out->candidates.resize(n);
  for (size_t i = 0; i < n; ++i) {
    auto m = Move::parse_usi(row.cand_moves[i]);
    if (!m.ok())
      return refuse(Refusal::UnparsableMove, detail, "candidate " + std::to_string(i) + ": " + m.status().message());
    out->candidates[i] = stream::Candidate{m->raw, stream::kNoVisits, static_cast<int16_t>(row.cand_cp[i])};
  }
  auto played = Move::parse_usi(row.move);
  if (!played.ok()) return refuse(Refusal::UnparsableMove, detail, "played move: " + played.status().message());
  for (size_t i = 1; i < n; ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (out->candidates[i].mv == out->candidates[j].mv)
        return refuse(Refusal::RepeatedMove, detail,
                      "candidate " + quoted(row.cand_moves[i]) + " appears at " + std::to_string(j) +
                          " and " + std::to_string(i));
    }
  }
  bool played_found = false;
  const shogi::Bitboard pinned = pos.pinned(pos.side_to_move(), pos.pieces());
  for (size_t i = 0; i < n; ++i) {
    Move m{out->candidates[i].mv};
    if (!pos.is_legal(m, pinned))
      return refuse(Refusal::IllegalMove, detail,
                    "candidate " + quoted(row.cand_moves[i]) + " is illegal in " + quoted(row.sfen));
    played_found |= m == *played;
  }
  if (!played_found)
    return refuse(Refusal::PlayedNotCandidate, detail,
                  "played move " + quoted(row.move) + " is not among the " + std::to_string(n) +
                      " candidates");

  out->ply = static_cast<uint16_t>(row.ply);
  out->value_z = static_cast<float>(row.side == 0 ? row.result : -row.result);
  out->value_q = conv.value_q(row.cp);
  out->packed = shogi::pack(pos);
  *played_move = *played;
  return Refusal::None;
}

}  // namespace

Refusal convert_row(const RowView& row, const Conventions& conv, ConvertedRow* out,
                    std::string* detail, RowChain* chain) {
  // The previous row's position after its played move, made in place.
  bool continued = false;
  if (chain && chain->pos && row.ply == chain->ply + 1) {
    chain->flip ^= 1;
    chain->pos->do_move(chain->played, chain->states[chain->flip]);
    char text[shogi::Position::SFEN_MAX];
    continued = std::string_view(text, chain->pos->write_sfen(text)) == row.sfen;
  }
  Refusal why = check_fields(row, detail);
  std::optional<Result<shogi::Position>> parsed;
  const shogi::Position* pos = continued ? &*chain->pos : nullptr;
  if (why == Refusal::None && !continued) {
    parsed.emplace(shogi::Position::from_sfen(row.sfen));
    if (parsed->ok()) {
      pos = &parsed->value();
    } else {
      why = refuse(Refusal::BadSfen, detail, parsed->status().message());
    }
  }
  shogi::Move played;
  if (why == Refusal::None) why = check_moves(row, conv, *pos, out, detail, &played);
  if (chain) {
    if (why != Refusal::None) {
      chain->pos.reset();
    } else {
      if (!continued) chain->pos.emplace(*pos);
      chain->played = played;
      chain->ply = row.ply;
    }
  }
  return why;
}

}  // namespace manaka::teacher
