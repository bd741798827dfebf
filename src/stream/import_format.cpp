#include "stream/import_format.h"

#include <cstdio>
#include <optional>

#include "core/bytes.h"
#include "sazpack/move16.h"
#include "shogi/apery_move16.h"
#include "shogi/huffman_coded_pos.h"
#include "shogi/packed_sfen.h"

namespace manaka::stream {

namespace {

constexpr const char* kFormatNames[] = {"psv", "hcpe", "hcpe3"};
constexpr const char* kNames[kImportRefusalCount] = {
    "none",         "bad_position",       "out_of_range", "no_move",  "illegal_move",
    "repeated_candidate", "no_visits",    "game_broken",  "truncated"};
constexpr const char* kTexts[kImportRefusalCount] = {
    "accepted",
    "the position code does not decode or breaks a rule",
    "a value is out of range",
    "the move is none or a special move",
    "a move is illegal in the position",
    "a candidate move is listed twice",
    "no candidate has a visit",
    "an earlier position of its game was refused",
    "the file ends inside it"};

ImportedRecord& refuse(ImportBuffer& out, ImportRefusal why, std::string detail) {
  ImportedRecord& r = out.records.back();
  r.why = why;
  r.cand_count = 0;
  out.details.emplace_back(uint32_t(out.records.size() - 1), std::move(detail));
  return r;
}

// value_z of the side to move from a dlshogi result (0 draw, 1 Black won,
// 2 White won); false for any other value.
bool dlshogi_value_z(uint8_t result, shogi::Color side, float* z) {
  if (result > 2) return false;
  *z = result == 0 ? 0.0f : ((result == 1) == (side == shogi::BLACK) ? 1.0f : -1.0f);
  return true;
}

std::string move_text(const char* what, uint16_t raw) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s 0x%04x", what, raw);
  return buf;
}

// The single-candidate record of psv and hcpe, after the position decoded.
void one_candidate(ImportBuffer& out, const shogi::Position& pos, shogi::Move m, uint16_t raw, const char* what,
                   int16_t score, const ScoreTable& scores) {
  if (m == shogi::MOVE_NONE) {
    refuse(out, ImportRefusal::NoMove, move_text(what, raw) + " is not a move");
    return;
  }
  if (!pos.is_legal(m)) {
    refuse(out, ImportRefusal::IllegalMove,
           move_text(what, raw) + " (" + m.to_usi() + ") is illegal in " + pos.sfen());
    return;
  }
  if (score == kNoCp) {
    refuse(out, ImportRefusal::OutOfRange, "score -32768, must be -32767..32767");
    return;
  }
  ImportedRecord& r = out.records.back();
  r.value_q = scores.value_q(score);
  r.packed = shogi::pack(pos);
  r.cand_begin = uint32_t(out.candidates.size());
  r.cand_count = 1;
  out.candidates.push_back(Candidate{m.raw, kNoVisits, score});
}

}  // namespace

const char* source_format_name(SourceFormat f) { return kFormatNames[static_cast<size_t>(f)]; }

Result<SourceFormat> parse_source_format(std::string_view name) {
  for (size_t i = 0; i < 3; ++i)
    if (name == kFormatNames[i]) return SourceFormat(i);
  return Status::usage("unknown format \"" + std::string(name) + "\": psv, hcpe or hcpe3");
}

const char* import_refusal_name(ImportRefusal r) { return kNames[static_cast<size_t>(r)]; }
const char* import_refusal_text(ImportRefusal r) { return kTexts[static_cast<size_t>(r)]; }

ScoreTable::ScoreTable(const std::function<float(int64_t)>& value_q) : q_(65536) {
  for (int cp = -32768; cp <= 32767; ++cp) q_[uint16_t(int16_t(cp))] = value_q(cp);
}

void import_psv(std::span<const uint8_t> bytes, const ScoreTable& scores, ImportBuffer& out) {
  const size_t n = bytes.size() / kPsvRecordSize;
  for (size_t i = 0; i < n; ++i) {
    const uint8_t* p = bytes.data() + i * kPsvRecordSize;
    ImportedRecord& r = out.records.emplace_back();
    r.source = uint32_t(i);
    r.ply = load_u16(p + 36);
    const int8_t result = int8_t(p[38]);
    auto pos = shogi::decode_packed_sfen(std::span<const uint8_t, 32>(p, 32));
    if (!pos.ok()) {
      refuse(out, ImportRefusal::BadPosition, pos.status().message());
      continue;
    }
    if (result < -1 || result > 1) {
      refuse(out, ImportRefusal::OutOfRange, "game_result " + std::to_string(result) + ", must be 1, -1 or 0");
      continue;
    }
    r.value_z = float(result);
    const uint16_t raw = load_u16(p + 34);
    one_candidate(out, *pos, shogi::Move{sazpack::Move16{raw}.mpk_raw()}, raw, "move", load_i16(p + 32), scores);
  }
}

void import_hcpe(std::span<const uint8_t> bytes, const ScoreTable& scores, ImportBuffer& out) {
  const size_t n = bytes.size() / kHcpeRecordSize;
  for (size_t i = 0; i < n; ++i) {
    const uint8_t* p = bytes.data() + i * kHcpeRecordSize;
    ImportedRecord& r = out.records.emplace_back();
    r.source = uint32_t(i);
    auto pos = shogi::decode_huffman_coded_pos(std::span<const uint8_t, 32>(p, 32));
    if (!pos.ok()) {
      refuse(out, ImportRefusal::BadPosition, pos.status().message());
      continue;
    }
    if (!dlshogi_value_z(p[36], pos->side_to_move(), &r.value_z)) {
      refuse(out, ImportRefusal::OutOfRange, "gameResult " + std::to_string(p[36]) + ", must be 0, 1 or 2");
      continue;
    }
    const uint16_t raw = load_u16(p + 34);
    one_candidate(out, *pos, shogi::move_from_apery16(raw), raw, "bestMove16", load_i16(p + 32), scores);
  }
}

Result<size_t> hcpe3_game_size(std::span<const uint8_t> bytes, size_t* needed) {
  size_t at = kHcpe3GameHeaderSize;
  *needed = at;
  if (bytes.size() < at) return size_t{0};
  const size_t moves = load_u16(bytes.data() + 32);
  for (size_t m = 0; m < moves; ++m) {
    *needed = at + kHcpe3MoveSize;
    if (bytes.size() < *needed) return size_t{0};
    const uint16_t n = load_u16(bytes.data() + at + 4);
    if (n > kHcpe3MaxCandidates)
      return Status::invalid("byte " + std::to_string(at + 4) + " of the game (move " + std::to_string(m) +
                             "): candidateNum " + std::to_string(n) + ", more than any position's " +
                             std::to_string(kHcpe3MaxCandidates) + " legal moves: not hcpe3");
    at += kHcpe3MoveSize + size_t(n) * kHcpe3CandidateSize;
  }
  *needed = at;
  return bytes.size() < at ? size_t{0} : at;
}

void import_hcpe3_game(std::span<const uint8_t> game, const ScoreTable& scores, ImportBuffer& out) {
  const uint8_t* p = game.data();
  const size_t moves = load_u16(p + 32);
  // Once the game cannot be followed (its start does not decode, its result
  // has no meaning, a played move is not legal), its first refused position
  // says why and every later one is refused as GameBroken.
  ImportRefusal broken = ImportRefusal::None;
  std::string why_broken;
  bool reason_given = false;  // a refused record already names `broken`
  std::optional<shogi::Position> pos;
  auto decoded = shogi::decode_huffman_coded_pos(std::span<const uint8_t, 32>(p, 32));
  const uint8_t result = p[34] & kHcpe3ResultMask;
  float black_z = 0.0f;  // value_z when Black is to move
  if (!decoded.ok()) {
    broken = ImportRefusal::BadPosition;
    why_broken = decoded.status().message();
  } else if (!dlshogi_value_z(result, shogi::BLACK, &black_z)) {
    broken = ImportRefusal::OutOfRange;
    why_broken = "result " + std::to_string(p[34]) + ": bits 0-1 must be 0, 1 or 2";
  } else {
    pos.emplace(*decoded);
  }
  std::vector<shogi::StateInfo> states(moves);
  size_t at = kHcpe3GameHeaderSize;
  for (size_t m = 0; m < moves; ++m) {
    const uint8_t* mi = p + at;
    const uint16_t selected = load_u16(mi);
    const int16_t eval = load_i16(mi + 2);
    const size_t n = load_u16(mi + 4);
    const uint8_t* cand = mi + kHcpe3MoveSize;
    at += kHcpe3MoveSize + n * kHcpe3CandidateSize;
    if (n == 0) {
      ++out.unsearched;  // dlshogi writes book and forced moves unsearched
    } else {
      ImportedRecord& r = out.records.emplace_back();
      r.source = uint32_t(m);
      r.ply = uint16_t(m);
      if (broken != ImportRefusal::None) {
        refuse(out, reason_given ? ImportRefusal::GameBroken : broken,
               reason_given ? "move " + std::to_string(m) + " follows a break: " + why_broken : why_broken);
        reason_given = true;
      } else {
        ImportRefusal why = ImportRefusal::None;
        std::string detail;
        const shogi::Bitboard pinned = pos->pinned(pos->side_to_move(), pos->pieces());
        r.cand_begin = uint32_t(out.candidates.size());
        for (size_t c = 0; c < n && why == ImportRefusal::None; ++c) {
          const uint16_t raw = load_u16(cand + c * kHcpe3CandidateSize);
          const uint16_t visits = load_u16(cand + c * kHcpe3CandidateSize + 2);
          const shogi::Move cm = shogi::move_from_apery16(raw);
          if (cm == shogi::MOVE_NONE) {
            why = ImportRefusal::NoMove;
            detail = "candidate " + std::to_string(c) + ": " + move_text("move16", raw) + " is not a move";
          } else if (!pos->is_legal(cm, pinned)) {
            why = ImportRefusal::IllegalMove;
            detail = "candidate " + std::to_string(c) + ": " + cm.to_usi() + " is illegal in " + pos->sfen();
          } else if (visits == 0) {
            ++out.dropped_candidates;  // no visit is no policy: NO_VISITS cannot say 0
          } else {
            for (size_t e = r.cand_begin; e < out.candidates.size(); ++e) {
              if (out.candidates[e].mv == cm.raw) {
                why = ImportRefusal::RepeatedCandidate;
                detail = "candidate " + std::to_string(c) + ": " + cm.to_usi() + " is listed twice";
              }
            }
            out.candidates.push_back(Candidate{cm.raw, visits, kNoCp});
          }
        }
        r.cand_count = uint32_t(out.candidates.size() - r.cand_begin);
        if (why == ImportRefusal::None && r.cand_count == 0) {
          why = ImportRefusal::NoVisits;
          detail = std::to_string(n) + " candidates, none visited";
        }
        if (why == ImportRefusal::None && eval == kNoCp) {
          why = ImportRefusal::OutOfRange;
          detail = "eval -32768, must be -32767..32767";
        }
        if (why != ImportRefusal::None) {
          out.candidates.resize(r.cand_begin);
          refuse(out, why, "move " + std::to_string(m) + ": " + detail);
        } else {
          r.value_z = pos->side_to_move() == shogi::BLACK ? black_z : -black_z;
          r.value_q = scores.value_q(eval);
          r.packed = shogi::pack(*pos);
        }
      }
    }
    if (broken != ImportRefusal::None) continue;
    const shogi::Move played = shogi::move_from_apery16(selected);
    if (played == shogi::MOVE_NONE || !pos->is_legal(played)) {
      broken = played == shogi::MOVE_NONE ? ImportRefusal::NoMove : ImportRefusal::IllegalMove;
      why_broken = "move " + std::to_string(m) + "'s " + move_text("selectedMove16", selected) +
                   (played == shogi::MOVE_NONE ? " is not a move"
                                               : " (" + played.to_usi() + ") is illegal in " + pos->sfen());
      // The position itself was fine; the next one cannot be reached. The
      // first later position refused carries the reason.
      reason_given = false;
      continue;
    }
    pos->do_move(played, states[m]);
  }
}

}  // namespace manaka::stream
