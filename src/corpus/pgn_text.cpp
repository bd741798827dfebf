#include "corpus/pgn_text.h"

#include "chess/san.h"

namespace manaka::corpus {

namespace {

constexpr size_t kLineWidth = 79;

void tag(std::string& out, const char* name, const std::string& value) {
  out += '[';
  out += name;
  out += " \"" + value + "\"]\n";
}

}  // namespace

std::string game_pgn(const PlayedGame& g, const std::string& engine_name) {
  const std::string result = g.outcome.result();
  std::string out;
  tag(out, "Event", "manaka chess corpus");
  tag(out, "Site", "?");
  tag(out, "Date", "????.??.??");
  tag(out, "Round", std::to_string(g.index + 1));
  tag(out, "White", engine_name);
  tag(out, "Black", engine_name);
  tag(out, "Result", result);
  tag(out, "Opening", "random, " + std::to_string(g.opening_plies) + " plies");
  tag(out, "ManakaTermination", chess::termination_name(g.outcome.termination));
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
  chess::Position pos = g.start;
  for (size_t i = 0; i < g.moves.size(); ++i) {
    if (pos.side_to_move() == chess::WHITE) word(std::to_string(pos.fullmove_number()) + ".");
    else if (i == 0) word(std::to_string(pos.fullmove_number()) + "...");
    word(chess::to_san(pos, g.moves[i]));
    pos.do_move(g.moves[i]);
    if (int(i) + 1 == g.opening_plies) word("{ random opening ends }");
  }
  word(result);
  out += line + "\n\n";
  return out;
}

}  // namespace manaka::corpus
