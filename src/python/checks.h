// Arguments checked at the binding edge, before any work: a value of the
// wrong type raises TypeError, a value outside its range ValueError, each in
// one line naming the parameter, the value given and what is allowed, as the
// command's option checks do (src/cli/checks.h):
//
//   ValueError: seed: -1 is not a seed; give an integer in 0..18446744073709551615
//   ValueError: batch_size: 0 is out of range; give an integer of at least 1
//   TypeError: games: must be an int, not float (1.5)
//
// nanobind's own conversion of a typed parameter refuses a value that does
// not fit the C++ type with a TypeError that lists the signature and names
// nothing, and accepts what fits but is meaningless (a batch size of 0);
// parameters with a range are therefore taken as nb::handle and converted
// here. A bool is refused where an int is wanted (True is an int to Python,
// never a count or a seed); numpy integers and floats are accepted.
#pragma once

#include <nanobind/nanobind.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace manaka::python {

inline constexpr uint64_t kNoUpperBound = std::numeric_limits<uint64_t>::max();
// The deepest perft a binding runs (as the command: beyond it, no answer
// comes in a lifetime).
inline constexpr int kMaxPerftDepth = 12;
// Thread counts beyond this are refused as typos (the work uses 16 at most).
inline constexpr int kMaxThreadsAsked = 256;

// An integer in lo..hi.
int64_t int_arg(nanobind::handle value, const char* name, int64_t lo, int64_t hi);
// An integer in lo..hi; hi = kNoUpperBound reads "of at least lo".
uint64_t uint_arg(nanobind::handle value, const char* name, uint64_t lo, uint64_t hi = kNoUpperBound);
// A 64-bit seed, 0..2^64 - 1, never wrapped.
uint64_t seed_arg(nanobind::handle value, const char* name = "seed");
// None, or an integer in lo..hi.
template <typename T>
std::optional<T> optional_int_arg(nanobind::handle value, const char* name, int64_t lo, int64_t hi) {
  if (value.is_none()) return std::nullopt;
  return static_cast<T>(int_arg(value, name, lo, hi));
}

// A finite number in [lo, hi], or (lo, hi] when lo_open; `what` is the
// unit in the message ("a number of seconds").
double number_arg(nanobind::handle value, const char* name, double lo, double hi, bool lo_open,
                  const char* what = "a number");
// Any number (its range is the caller's check); TypeError otherwise.
double real_arg(nanobind::handle value, const char* name);
// A finite number a float holds (|v| <= FLT_MAX), returned as that float.
float float_arg(nanobind::handle value, const char* name);

// A sequence (list, tuple, numpy array) of integers in lo..hi; an element
// out of range is named by its index ("mv[3]: 70000 is out of range; ...").
template <typename T>
std::vector<T> int_list_arg(nanobind::handle value, const char* name, int64_t lo, int64_t hi);
extern template std::vector<uint16_t> int_list_arg<uint16_t>(nanobind::handle, const char*, int64_t, int64_t);
extern template std::vector<uint32_t> int_list_arg<uint32_t>(nanobind::handle, const char*, int64_t, int64_t);
extern template std::vector<int16_t> int_list_arg<int16_t>(nanobind::handle, const char*, int64_t, int64_t);

}  // namespace manaka::python
