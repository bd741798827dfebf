#include "shogi/move.h"

#include <cstdio>

namespace manaka::shogi {
namespace {

constexpr int ORIGIN_MAX = Move::DROP_BASE + HAND_KIND_NB - 1;  // 87: a rook drop

bool is_file_char(char c) { return c >= '1' && c <= '9'; }
bool is_rank_char(char c) { return c >= 'a' && c <= 'i'; }
Square square_at(std::string_view s) { return make_square(s[0] - '0', s[1] - 'a' + 1); }

Status usi_error(std::string_view usi, const std::string& why) {
  return Status::invalid("usi move \"" + std::string(usi) + "\": " + why);
}

}  // namespace

bool Move::well_formed() const {
  if (raw >> 15) return false;
  if (to_square() >= SQUARE_NB || origin() > ORIGIN_MAX) return false;
  return is_drop() ? !is_promote() : from_square() != to_square();
}

std::string Move::to_usi() const {
  if (!well_formed()) {
    char buf[20];
    std::snprintf(buf, sizeof buf, "(raw 0x%04x)", raw);
    return buf;
  }
  if (is_drop()) return std::string{HAND_LETTER[dropped_kind()], '*'} + square_name(to_square());
  return square_name(from_square()) + square_name(to_square()) + (is_promote() ? "+" : "");
}

Result<Move> Move::parse_usi(std::string_view usi) {
  if (usi.size() < 4 || usi.size() > 5)
    return usi_error(usi, "expected 4 or 5 characters (\"7g7f\", \"8h2b+\", \"P*5e\"), got " +
                              std::to_string(usi.size()));
  auto square_ok = [](std::string_view s) { return is_file_char(s[0]) && is_rank_char(s[1]); };
  if (usi[1] == '*') {
    int hk = 0;
    while (hk < HAND_KIND_NB && HAND_LETTER[hk] != usi[0]) ++hk;
    if (hk == HAND_KIND_NB)
      return usi_error(usi, std::string("offset 0: expected a drop piece letter P L N S G B R, got '") +
                                usi[0] + "'");
    if (usi.size() != 4 || !square_ok(usi.substr(2)))
      return usi_error(usi, "offset 2: expected a square from 1a to 9i after '*'");
    return Move::drop(HandKind(hk), square_at(usi.substr(2)));
  }
  if (!square_ok(usi.substr(0, 2)))
    return usi_error(usi, "offset 0: expected a square from 1a to 9i or a drop like \"P*\"");
  if (!square_ok(usi.substr(2, 2)))
    return usi_error(usi, "offset 2: expected a destination square from 1a to 9i");
  if (usi.size() == 5 && usi[4] != '+')
    return usi_error(usi, std::string("offset 4: expected '+' or the end, got '") + usi[4] + "'");
  Square from = square_at(usi.substr(0, 2)), to = square_at(usi.substr(2, 2));
  if (from == to) return usi_error(usi, "the move ends on the square it starts from");
  return Move::normal(from, to, usi.size() == 5);
}

}  // namespace manaka::shogi
