#include "engine/usi_protocol.h"

#include <charconv>

namespace manaka::engine {

namespace {

// Splits on spaces and tabs, one token at a time.
class Tokens {
 public:
  explicit Tokens(std::string_view s) : s_(s) {}
  bool next(std::string_view* out) {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t')) ++i_;
    if (i_ >= s_.size()) return false;
    size_t start = i_;
    while (i_ < s_.size() && s_[i_] != ' ' && s_[i_] != '\t') ++i_;
    *out = s_.substr(start, i_ - start);
    return true;
  }

 private:
  std::string_view s_;
  size_t i_ = 0;
};

template <typename T>
bool parse_number(std::string_view s, T* out) {
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && ptr == s.data() + s.size();
}

}  // namespace

std::string Score::to_string() const {
  if (kind == Kind::Cp) return "cp " + std::to_string(value);
  if (!mate_distance_known) return value < 0 ? "mate -" : "mate +";
  return "mate " + std::to_string(value);
}

std::optional<InfoLine> parse_info(std::string_view line) {
  Tokens t(line);
  std::string_view tok;
  if (!t.next(&tok) || tok != "info") return std::nullopt;
  InfoLine info;
  bool have_score = false;
  while (t.next(&tok)) {
    if (tok == "string") return std::nullopt;  // free text to the end of the line
    if (tok == "depth") {
      if (!t.next(&tok) || !parse_number(tok, &info.depth)) return std::nullopt;
    } else if (tok == "multipv") {
      if (!t.next(&tok) || !parse_number(tok, &info.multipv) || info.multipv < 1) return std::nullopt;
    } else if (tok == "nodes") {
      if (!t.next(&tok) || !parse_number(tok, &info.nodes)) return std::nullopt;
    } else if (tok == "score") {
      if (!t.next(&tok)) return std::nullopt;
      if (tok == "cp") {
        if (!t.next(&tok) || !parse_number(tok, &info.score.value)) return std::nullopt;
        info.score.kind = Score::Kind::Cp;
      } else if (tok == "mate") {
        if (!t.next(&tok)) return std::nullopt;
        info.score.kind = Score::Kind::Mate;
        if (tok == "+" || tok == "-") {
          info.score.value = tok == "+" ? 1 : -1;
          info.score.mate_distance_known = false;
        } else if (!parse_number(tok, &info.score.value)) {
          return std::nullopt;
        }
      } else {
        return std::nullopt;
      }
      have_score = true;
    } else if (tok == "lowerbound" || tok == "upperbound") {
      info.bound = true;
    } else if (tok == "pv") {
      if (!t.next(&tok)) return std::nullopt;
      info.first_move = std::string(tok);
      break;  // the rest of the line is the variation
    }
    // Every other keyword (seldepth, time, nps, hashfull, ...) and its
    // argument are skipped as plain tokens: none of them is a keyword above.
  }
  if (!have_score || info.first_move.empty()) return std::nullopt;
  return info;
}

std::optional<std::string> parse_bestmove(std::string_view line) {
  Tokens t(line);
  std::string_view tok;
  if (!t.next(&tok) || tok != "bestmove") return std::nullopt;
  if (!t.next(&tok)) return std::string();
  return std::string(tok);
}

bool bestmove_is_move(std::string_view token) {
  return !(token.empty() || token == "resign" || token == "win" || token == "none" ||
           token == "(none)" || token == "0000");
}

}  // namespace manaka::engine
