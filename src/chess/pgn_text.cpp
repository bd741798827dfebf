#include "chess/pgn_text.h"

#include "chess/san.h"

namespace manaka::chess {

namespace {

constexpr size_t kLineWidth = 79;

std::string escaped(const std::string& value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\\' || c == '"') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

std::string game_pgn(const Position& start, std::span<const Move> moves, const PgnTags& tags,
                     const std::string& result, const PgnComments& comments) {
  std::string out;
  bool has_fen = false;
  for (const auto& [name, value] : tags) {
    out += '[' + name + " \"" + escaped(value) + "\"]\n";
    has_fen = has_fen || name == "FEN";
  }
  const std::string fen = start.fen();
  if (!has_fen && fen != Position::startpos().fen()) out += "[SetUp \"1\"]\n[FEN \"" + fen + "\"]\n";
  out += '\n';

  std::string line;
  auto word = [&](const std::string& w) {
    if (!line.empty() && line.size() + 1 + w.size() > kLineWidth) {
      out += line + '\n';
      line.clear();
    }
    if (!line.empty()) line += ' ';
    line += w;
  };
  auto comments_after = [&](int ply) {
    for (const auto& [at, text] : comments) {
      if (at != ply) continue;
      std::string body = text;
      for (char& c : body)
        if (c == '}') c = ')';
      word("{ " + body + " }");
    }
  };
  comments_after(0);
  Position pos = start;
  bool number_due = true;  // after a comment, Black's move is numbered again ("3...")
  for (size_t i = 0; i < moves.size(); ++i) {
    if (pos.side_to_move() == WHITE) word(std::to_string(pos.fullmove_number()) + ".");
    else if (number_due) word(std::to_string(pos.fullmove_number()) + "...");
    word(to_san(pos, moves[i]));
    pos.do_move(moves[i]);
    const size_t before = out.size() + line.size();
    comments_after(int(i) + 1);
    number_due = out.size() + line.size() != before;
  }
  word(result);
  out += line + "\n\n";
  return out;
}

PgnTags random_opening_tags(const std::string& event, uint64_t round, const std::string& white,
                            const std::string& black, const Outcome& outcome, int opening_plies) {
  return {{"Event", event},
          {"Site", "?"},
          {"Date", "????.??.??"},
          {"Round", std::to_string(round)},
          {"White", white},
          {"Black", black},
          {"Result", outcome.result()},
          {"Opening", "random, " + std::to_string(opening_plies) + " plies"},
          {"ManakaTermination", termination_name(outcome.termination)}};
}

PgnComments opening_comment(int opening_plies) {
  if (opening_plies <= 0) return {};
  return {{opening_plies, "random opening ends"}};
}

}  // namespace manaka::chess
