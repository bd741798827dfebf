#include "shogi/csa.h"

#include <deque>

namespace manaka::shogi {
namespace {

// CSA's two-letter names, in Kind order (types.h): K R B G S N L P +R +B +S +N +L +P.
constexpr const char* CSA_KIND[KIND_NB] = {"OU", "HI", "KA", "KI", "GI", "KE", "KY", "FU",
                                           "RY", "UM", "NG", "NK", "NY", "TO"};

char sign(Color c) { return c == BLACK ? '+' : '-'; }
int file_of(Square s) { return 9 - s / 9; }
int rank_of(Square s) { return s % 9 + 1; }

std::string square_digits(Square s) { return {char('0' + file_of(s)), char('0' + rank_of(s))}; }

Status one_line(const std::string& what, const std::string& text) {
  if (text.find_first_of("\r\n") != std::string::npos)
    return Status::usage("a CSA " + what + " is one line; this one holds a line break: \"" + text + "\"");
  return Status();
}

void write_start(const Position& pos, std::string& out) {
  if (pos.sfen() == Position::startpos().sfen()) {
    out += "PI\n";
  } else {
    for (int rank = 1; rank <= 9; ++rank) {
      out += "P" + std::to_string(rank);
      for (int file = 9; file >= 1; --file) {
        const Piece p = pos.piece_on(Square((9 - file) * 9 + rank - 1));
        out += p == NO_PIECE ? std::string(" * ") : std::string(1, sign(color_of(p))) + CSA_KIND[kind_of(p)];
      }
      out += "\n";
    }
    for (int c = 0; c < COLOR_NB; ++c) {
      std::string line = std::string("P") + sign(Color(c));
      for (int hk = HAND_KIND_NB - 1; hk >= 0; --hk)  // rook first, as records list them
        for (int n = 0; n < pos.hand_count(Color(c), HandKind(hk)); ++n)
          line += std::string("00") + CSA_KIND[KIND_OF_HAND[hk]];
      if (line.size() > 2) out += line + "\n";
    }
  }
  out += std::string(1, sign(pos.side_to_move())) + "\n";
}

std::string ending(const std::optional<Outcome>& o) {
  if (!o) return "%CHUDAN";
  switch (o->termination) {
    case Termination::NoLegalMove: return "%TORYO";
    case Termination::Repetition: return "%SENNICHITE";
    case Termination::PerpetualCheck:
      // The foul is the loser's: the side that gave every check.
      return std::string("%") + sign(o->winner ? ~*o->winner : BLACK) + "ILLEGAL_ACTION";
    case Termination::PlyLimit: return "%MAX_MOVES";
  }
  return "%CHUDAN";
}

}  // namespace

Result<std::string> csa_text(const CsaRecord& r) {
  MANAKA_RETURN_NOT_OK(one_line("name", r.black));
  MANAKA_RETURN_NOT_OK(one_line("name", r.white));
  MANAKA_RETURN_NOT_OK(one_line("event", r.event));
  for (const auto& c : r.comments) MANAKA_RETURN_NOT_OK(one_line("comment", c));
  std::string out = "V2.2\nN+" + r.black + "\nN-" + r.white + "\n";
  if (!r.event.empty()) out += "$EVENT:" + r.event + "\n";
  for (const auto& c : r.comments) out += "'" + c + "\n";
  Position pos = r.start;
  write_start(pos, out);
  std::deque<StateInfo> states;
  for (size_t i = 0; i < r.moves.size(); ++i) {
    const Move m = r.moves[i];
    if (!pos.is_legal(m))
      return Status::invalid("CSA record: move " + std::to_string(i + 1) + " (" + m.to_usi() + ") is not legal in " +
                             pos.sfen());
    const Color us = pos.side_to_move();
    Kind after;
    std::string from = "00";
    if (m.is_drop()) {
      after = KIND_OF_HAND[m.dropped_kind()];
    } else {
      const Kind k = kind_of(pos.piece_on(m.from_square()));
      after = m.is_promote() ? PROMOTED[k] : k;
      from = square_digits(m.from_square());
    }
    out += std::string(1, sign(us)) + from + square_digits(m.to_square()) + CSA_KIND[after] + "\n";
    states.emplace_back();
    pos.do_move(m, states.back());
  }
  if (r.outcome && r.outcome->termination == Termination::PerpetualCheck)
    out += "'perpetual check: the side that gave every check loses (oute sennichite)\n";
  out += ending(r.outcome) + "\n";
  return out;
}

}  // namespace manaka::shogi
