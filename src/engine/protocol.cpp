#include "engine/protocol.h"

#include <cctype>
#include <charconv>

namespace manaka::engine {

namespace {

// A "mate N" in moves beyond this is malformed (2N would overflow).
constexpr int kMaxMateMoves = 1'000'000'000;

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
  // What is left, without its leading blanks.
  std::string_view rest() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t')) ++i_;
    return s_.substr(i_);
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

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  }
  return true;
}

}  // namespace

std::optional<Protocol> parse_protocol(std::string_view name) {
  if (iequals(name, kUsi.hello)) return Protocol::Usi;
  if (iequals(name, kUci.hello)) return Protocol::Uci;
  return std::nullopt;
}

std::string Score::to_string() const {
  if (kind == Kind::Cp) return "cp " + std::to_string(value);
  if (!mate_distance_known) return value < 0 ? "mate -" : "mate +";
  return "mate " + std::to_string(value);
}

std::optional<InfoLine> parse_info(std::string_view line, MateUnit mate_unit) {
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
        } else if (mate_unit == MateUnit::Moves) {
          if (info.score.value > kMaxMateMoves || info.score.value < -kMaxMateMoves) return std::nullopt;
          info.score.value = mate_plies_from_moves(info.score.value);
        }
      } else {
        return std::nullopt;
      }
      have_score = true;
    } else if (tok == "wdl") {
      Wdl wdl;
      if (!t.next(&tok) || !parse_number(tok, &wdl.win)) return std::nullopt;
      if (!t.next(&tok) || !parse_number(tok, &wdl.draw)) return std::nullopt;
      if (!t.next(&tok) || !parse_number(tok, &wdl.loss)) return std::nullopt;
      info.wdl = wdl;
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

std::optional<EngineOption> parse_option(std::string_view line) {
  Tokens t(line);
  std::string_view tok;
  if (!t.next(&tok) || tok != "option") return std::nullopt;
  if (!t.next(&tok) || tok != "name") return std::nullopt;
  EngineOption option;
  // The name runs to "type"; it may hold spaces ("Clear Hash").
  for (;;) {
    if (!t.next(&tok)) return std::nullopt;
    if (tok == "type") break;
    if (!option.name.empty()) option.name += ' ';
    option.name += tok;
  }
  if (option.name.empty() || !t.next(&tok)) return std::nullopt;
  option.type = std::string(tok);
  const bool text = option.type == "string" || option.type == "filename";
  auto is_keyword = [](std::string_view w) { return w == "default" || w == "min" || w == "max" || w == "var"; };
  bool have = t.next(&tok);
  while (have) {
    if (tok == "default" && text) {
      option.default_value = std::string(t.rest());
      break;
    }
    if (tok == "min" || tok == "max") {
      std::optional<int64_t>& bound = tok == "min" ? option.min : option.max;
      int64_t v = 0;
      if (!t.next(&tok) || !parse_number(tok, &v)) return std::nullopt;
      bound = v;
      have = t.next(&tok);
      continue;
    }
    if (tok == "default" || tok == "var") {
      const bool is_default = tok == "default";
      std::string words;
      while ((have = t.next(&tok)) && !is_keyword(tok)) {
        if (!words.empty()) words += ' ';
        words += tok;
      }
      if (is_default) option.default_value = std::move(words);
      else option.vars.push_back(std::move(words));
      continue;
    }
    have = t.next(&tok);  // a word this grammar does not know: skipped
  }
  return option;
}

const EngineOption* find_option(const std::vector<EngineOption>& options, std::string_view name) {
  for (const EngineOption& o : options) {
    if (iequals(o.name, name)) return &o;
  }
  return nullptr;
}

Status check_option_value(const EngineOption& option, std::string_view value) {
  const std::string said = option.name + " " + std::string(value);
  if (option.type == "spin") {
    int64_t v = 0;
    if (!parse_number(value, &v)) return Status::invalid(said + " is not an integer (a spin option)");
    if ((option.min && v < *option.min) || (option.max && v > *option.max)) {
      std::string lo = option.min ? std::to_string(*option.min) : "";
      std::string hi = option.max ? std::to_string(*option.max) : "";
      return Status::invalid(said + " is out of range " + lo + ".." + hi);
    }
    return Status();
  }
  if (option.type == "check") {
    if (value == "true" || value == "false") return Status();
    return Status::invalid(said + " is neither true nor false (a check option)");
  }
  if (option.type == "combo") {
    std::string choices;
    for (const std::string& var : option.vars) {
      if (iequals(var, value)) return Status();
      choices += choices.empty() ? var : ", " + var;
    }
    return Status::invalid(said + " is not one of its choices (" + choices + ")");
  }
  return Status();
}

}  // namespace manaka::engine
