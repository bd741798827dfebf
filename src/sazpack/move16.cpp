#include "sazpack/move16.h"

#include <array>
#include <cstdio>

namespace manaka::sazpack {
namespace {

using shogi::HandKind;

constexpr int kSquares = 81;
// YaneuraOu drop piece types 1..7 and their USI letters.
constexpr char kDropLetter[8] = {'?', 'P', 'L', 'N', 'S', 'B', 'R', 'G'};
constexpr uint8_t kDropOfHand[shogi::HAND_KIND_NB] = {1, 2, 3, 4, 7, 5, 6};  // P L N S G B R

struct Special {
  uint16_t raw;
  const char* name;
};
constexpr Special kSpecials[] = {{Move16::kNone, "none"},     {Move16::kNull, "null"}, {Move16::kResign, "resign"},
                                 {Move16::kWin, "win"},       {Move16::kEnd, "end"}};

std::string yo_square_name(int sq) { return {char('1' + sq / 9), char('a' + sq % 9)}; }

bool is_file(char c) { return c >= '1' && c <= '9'; }
bool is_rank(char c) { return c >= 'a' && c <= 'i'; }
int yo_square_at(std::string_view s) { return (s[0] - '1') * 9 + (s[1] - 'a'); }

std::string hex16(uint16_t v) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%04x", v);
  return buf;
}

Status usi_error(std::string_view usi) {
  return Status::invalid("move \"" + std::string(usi) +
                         "\" is not USI (\"7g7f\", \"8h2b+\", \"P*5e\", or none/null/resign/win/end)");
}

}  // namespace

bool Move16::is_move() const {
  if (to_field() >= kSquares) return false;
  if (drop_bit()) return !promote_bit() && from_field() >= 1 && from_field() <= 7;
  return from_field() < kSquares && from_field() != to_field();
}

std::string Move16::to_usi() const {
  if (is_move()) {
    if (drop_bit()) return std::string{kDropLetter[from_field()], '*'} + yo_square_name(to_field());
    return yo_square_name(from_field()) + yo_square_name(to_field()) + (promote_bit() ? "+" : "");
  }
  for (const Special& s : kSpecials)
    if (s.raw == raw) return s.name;
  return "none";
}

Result<Move16> Move16::parse_usi(std::string_view usi) {
  for (const Special& s : kSpecials)
    if (usi == s.name) return Move16{s.raw};
  if (usi == "0000") return Move16{kNull};
  if (usi.size() == 4 && usi[1] == '*') {
    char letter = usi[0] >= 'a' ? char(usi[0] - 'a' + 'A') : usi[0];
    int pt = 1;
    while (pt <= 7 && kDropLetter[pt] != letter) ++pt;
    if (pt > 7 || !is_file(usi[2]) || !is_rank(usi[3])) return usi_error(usi);
    return Move16{uint16_t(yo_square_at(usi.substr(2)) | pt << kFromShift | 1 << kDropBit)};
  }
  if (usi.size() != 4 && usi.size() != 5) return usi_error(usi);
  if (!is_file(usi[0]) || !is_rank(usi[1]) || !is_file(usi[2]) || !is_rank(usi[3])) return usi_error(usi);
  if (usi.size() == 5 && usi[4] != '+') return usi_error(usi);
  int from = yo_square_at(usi.substr(0, 2)), to = yo_square_at(usi.substr(2, 2));
  if (from == to) return usi_error(usi);
  return Move16{uint16_t(to | from << kFromShift | int(usi.size() == 5) << kPromoteBit)};
}


Result<shogi::Move> Move16::to_mpk() const {
  if (const uint16_t m = mpk_raw()) return shogi::Move{m};
  return Status::invalid("move16 " + hex16(raw) + " (\"" + to_usi() + "\") is not a board move or a drop");
}

Move16 Move16::from_mpk(shogi::Move m) {
  int to = convert_square(m.to_square());
  if (m.is_drop()) return Move16{uint16_t(to | kDropOfHand[m.dropped_kind()] << kFromShift | 1 << kDropBit)};
  return Move16{uint16_t(to | convert_square(m.from_square()) << kFromShift | int(m.is_promote()) << kPromoteBit)};
}

}  // namespace manaka::sazpack
