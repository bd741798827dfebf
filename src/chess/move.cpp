#include "chess/move.h"

#include <cstdio>

namespace manaka::chess {
namespace {

// UCI promotion letters by piece type; only n b r q are valid.
constexpr char PROMOTION_LETTER[PIECE_TYPE_NB] = {0, 0, 'n', 'b', 'r', 'q', 0};

bool is_file_char(char c) { return c >= 'a' && c <= 'h'; }
bool is_rank_char(char c) { return c >= '1' && c <= '8'; }
Square square_at(std::string_view s) { return make_square(s[0] - 'a', s[1] - '1'); }

Status uci_error(std::string_view uci, const std::string& why) {
  return Status::invalid("uci move \"" + std::string(uci) + "\": " + why);
}

}  // namespace

bool Move::well_formed() const {
  if (raw >> 15) return false;
  Square from = from_square(), to = to_square();
  if (from == to) return false;
  PieceType pt = promotion();
  if (pt == NO_PIECE_TYPE) return true;
  if (pt < KNIGHT || pt > QUEEN) return false;
  return (rank_of(from) == 6 && rank_of(to) == 7) || (rank_of(from) == 1 && rank_of(to) == 0);
}

std::string Move::to_uci() const {
  if (raw == MOVE_NONE.raw) return "0000";
  if (!well_formed()) {
    char buf[20];
    std::snprintf(buf, sizeof buf, "(raw 0x%04x)", raw);
    return buf;
  }
  std::string out = square_name(from_square()) + square_name(to_square());
  if (promotion() != NO_PIECE_TYPE) out += PROMOTION_LETTER[promotion()];
  return out;
}

Result<Move> Move::parse_uci(std::string_view uci) {
  if (uci.size() < 4 || uci.size() > 5)
    return uci_error(uci, "expected 4 or 5 characters (\"e2e4\", \"e7e8q\"), got " + std::to_string(uci.size()));
  if (uci == "0000") return MOVE_NONE;
  for (size_t at : {size_t(0), size_t(2)}) {
    const char* what = at == 0 ? "the square moved from" : "the square moved to";
    if (!is_file_char(uci[at]))
      return uci_error(uci, "offset " + std::to_string(at) + ": expected the file a-h of " + what + ", got '" +
                                uci[at] + "'");
    if (!is_rank_char(uci[at + 1]))
      return uci_error(uci, "offset " + std::to_string(at + 1) + ": expected the rank 1-8 of " + what +
                                ", got '" + uci[at + 1] + "'");
  }
  Square from = square_at(uci.substr(0, 2)), to = square_at(uci.substr(2, 2));
  if (from == to) return uci_error(uci, "the move ends on the square it starts from");
  PieceType promotion = NO_PIECE_TYPE;
  if (uci.size() == 5) {
    for (int pt = KNIGHT; pt <= QUEEN; ++pt)
      if (uci[4] == PROMOTION_LETTER[pt]) promotion = PieceType(pt);
    if (promotion == NO_PIECE_TYPE)
      return uci_error(uci, std::string("offset 4: expected a promotion piece n, b, r or q, got '") + uci[4] + "'");
  }
  Move m = make(from, to, promotion);
  if (!m.well_formed())
    return uci_error(uci, "a promotion must move from rank 7 to rank 8 or from rank 2 to rank 1");
  return m;
}

}  // namespace manaka::chess
