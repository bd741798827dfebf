#include "cli/checks.h"

#include <charconv>
#include <cfloat>
#include <cmath>
#include <cstdlib>

namespace manaka::cli::checks {
namespace {

constexpr size_t kQuotedMax = 40;

// Decimal text: an optional sign, then digits only. Values beyond 128 bits
// set overflow (they are out of every range here).
struct ParsedInteger {
  bool ok = false;
  bool negative = false;
  bool overflow = false;
  unsigned __int128 magnitude = 0;
};

ParsedInteger parse_integer(const std::string& text) {
  ParsedInteger p;
  size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) p.negative = text[i++] == '-';
  if (i == text.size()) return p;
  constexpr unsigned __int128 kLimit = ~static_cast<unsigned __int128>(0) / 10 - 1;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c < '0' || c > '9') return p;
    if (p.magnitude > kLimit) p.overflow = true;
    else p.magnitude = p.magnitude * 10 + static_cast<unsigned>(c - '0');
  }
  p.ok = true;
  if (p.magnitude == 0) p.negative = false;  // "-0" is 0
  return p;
}

template <typename T>
std::string shortest(T v) {
  char buf[32];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, res.ptr);
}

// Where the value falls against lo..hi, exact for every 64-bit bound.
enum class Place { Below, Within, Above };

Place place(const ParsedInteger& p, __int128 lo, __int128 hi) {
  if (p.overflow || (p.magnitude >> 100) != 0) return p.negative ? Place::Below : Place::Above;
  const __int128 v = p.negative ? -static_cast<__int128>(p.magnitude) : static_cast<__int128>(p.magnitude);
  return v < lo ? Place::Below : v > hi ? Place::Above : Place::Within;
}

std::string canonical(const ParsedInteger& p) {
  std::string digits;
  unsigned __int128 m = p.magnitude;
  do {
    digits.insert(digits.begin(), char('0' + static_cast<int>(m % 10)));
    m /= 10;
  } while (m != 0);
  return p.negative ? "-" + digits : digits;
}

std::string integer_range(const std::string& lo, const std::string& hi, bool unbounded, bool below) {
  if (unbounded && below) return "give an integer of at least " + lo;
  return "give an integer in " + lo + ".." + hi;
}

CLI::Validator integer_validator(__int128 lo, __int128 hi, std::string lo_text, std::string hi_text, bool unbounded,
                                 std::string refusal) {
  auto op = [=](std::string& text) -> std::string {
    const ParsedInteger p = parse_integer(text);
    const Place where = p.ok ? place(p, lo, hi) : Place::Below;
    if (p.ok && where == Place::Within) {
      text = canonical(p);
      return "";
    }
    const std::string what = p.ok ? refusal : "is not an integer";
    return quoted_value(text) + " " + what + "; " +
           integer_range(lo_text, hi_text, unbounded, where == Place::Below);
  };
  return CLI::Validator(op, unbounded ? ">= " + lo_text : "in " + lo_text + ".." + hi_text);
}

}  // namespace

std::string quoted_value(const std::string& text) {
  if (text.empty()) return "\"\"";
  if (text.size() <= kQuotedMax) return text;
  return text.substr(0, kQuotedMax) + "... (" + std::to_string(text.size()) + " characters)";
}

CLI::Validator integer(int64_t lo, int64_t hi) {
  return integer_validator(lo, hi, std::to_string(lo), std::to_string(hi), false, "is out of range");
}

CLI::Validator unsigned_integer(uint64_t lo, uint64_t hi) {
  return integer_validator(lo, hi, std::to_string(lo), std::to_string(hi), hi == kNoUpperBound,
                           "is out of range");
}

CLI::Validator seed() {
  return integer_validator(0, kNoUpperBound, "0", std::to_string(kNoUpperBound), false, "is not a seed")
      .description("in 0..2^64-1");
}

CLI::Validator number(double lo, double hi, bool lo_open, const std::string& what, bool hi_open) {
  const bool unbounded = hi >= DBL_MAX;
  std::string allowed = "give " + what + (lo_open ? " greater than " : " of at least ") + shortest(lo);
  if (!unbounded) allowed += (hi_open ? " and below " : " and at most ") + shortest(hi);
  auto op = [=](std::string& text) -> std::string {
    char* end = nullptr;
    const double v = text.empty() ? 0.0 : std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size())
      return quoted_value(text) + " is not a number; " + allowed;
    if (!std::isfinite(v))
      return quoted_value(text) + " is not a finite number; " + allowed;
    if ((lo_open ? v <= lo : v < lo) || (hi_open ? v >= hi : v > hi))
      return quoted_value(text) + " is out of range; " + allowed;
    text = shortest(v);
    return "";
  };
  std::string desc = (lo_open ? "> " : ">= ") + shortest(lo);
  if (!unbounded) desc += (hi_open ? ", < " : ", <= ") + shortest(hi);
  return CLI::Validator(op, desc);
}

}  // namespace manaka::cli::checks
