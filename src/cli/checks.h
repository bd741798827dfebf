// Checks of option values at the command's edge, one validator per kind of
// value, so that every command refuses the same way.
//
// CLI11 runs a validator on the option's text before converting it, and
// prints a refusal as "<option>: <message>". The messages here name the text
// given and what is allowed, in one line and in plain numbers:
//
//   --seed: -1 is not a seed; give an integer in 0..18446744073709551615
//   --count: 0 is out of range; give an integer of at least 1
//   --eval-coef: 1e40 is out of range; give a number greater than 0 that a float holds (at most 3.40282e+38)
//
// Integers are decimal digits with an optional sign, nothing else: CLI11's
// own conversion (strtoull with base 0) reads "010" as octal, wraps "-1" to
// 2^64 - 1 and clamps what overflows, so an accepted text is rewritten to
// its canonical decimal form before CLI11 converts it. Numbers are what
// strtod reads, finite and inside the range, rewritten as the shortest text
// that reads back as the same double.
//
// Attach them with ->transform(...), not ->check(...): CLI11 runs a check on
// a copy of the text, so the rewrite would be lost.
#pragma once

#include <cstdint>
#include <limits>
#include <string>

#include <CLI/CLI.hpp>

namespace manaka::cli::checks {

inline constexpr uint64_t kNoUpperBound = std::numeric_limits<uint64_t>::max();

// An integer in lo..hi; hi = the bound type's maximum reads "of at least lo".
CLI::Validator integer(int64_t lo, int64_t hi);
CLI::Validator unsigned_integer(uint64_t lo, uint64_t hi = kNoUpperBound);

// A 64-bit seed: 0..2^64 - 1, never wrapped.
CLI::Validator seed();

// A finite number in [lo, hi] (lo excluded when lo_open, hi when hi_open);
// `what` names the unit in the message ("a number", "a number of seconds").
CLI::Validator number(double lo, double hi, bool lo_open, const std::string& what = "a number", bool hi_open = false);

// The text a message quotes: the value as given, cut after 40 characters.
std::string quoted_value(const std::string& text);

}  // namespace manaka::cli::checks
