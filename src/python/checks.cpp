#include "python/checks.h"
#include "python/errors.h"

#include <cfloat>
#include <charconv>
#include <cmath>

namespace nb = nanobind;

namespace manaka::python {
namespace {

constexpr size_t kQuotedMax = 40;
// Beyond every bound here; an integer this large or larger compares as it.
constexpr __int128 kHuge = static_cast<__int128>(1) << 100;

// str(value), cut after 40 characters.
std::string text_of(nb::handle value) {
  PyObject* s = PyObject_Str(value.ptr());
  const char* c = s ? PyUnicode_AsUTF8(s) : nullptr;
  std::string out = c ? c : "?";
  if (!c) PyErr_Clear();
  Py_XDECREF(s);
  if (out.size() > kQuotedMax) out = out.substr(0, kQuotedMax) + "... (" + std::to_string(out.size()) + " characters)";
  return out;
}

template <typename Name>
[[noreturn]] void type_error(const Name& name, const char* wanted, nb::handle value) {
  const std::string msg = std::string(name) + ": must be " + wanted + ", not " + Py_TYPE(value.ptr())->tp_name +
                          " (" + text_of(value) + ")";
  throw nb::type_error(msg.c_str());
}

template <typename T>
std::string shortest(T v) {
  char buf[32];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, res.ptr);
}

std::string decimal(__int128 v) {
  if (v < 0) return "-" + decimal(-v);
  std::string digits;
  do {
    digits.insert(digits.begin(), char('0' + static_cast<int>(v % 10)));
    v /= 10;
  } while (v != 0);
  return digits;
}

// The value of an int (or of an object with __index__, as numpy's integers),
// clamped to +-2^100; TypeError for anything else, bool included.
template <typename Name>
__int128 integer_of(nb::handle value, const Name& name) {
  int overflow = 0;
  if (PyLong_CheckExact(value.ptr())) {  // the common case, without a new reference
    const long long v = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
    if (overflow == 0) return v;
  }
  if (PyBool_Check(value.ptr())) type_error(name, "an int", value);
  PyObject* index = PyNumber_Index(value.ptr());
  if (!index) {
    PyErr_Clear();
    type_error(name, "an int", value);
  }
  const long long v = PyLong_AsLongLongAndOverflow(index, &overflow);
  __int128 out = v;
  if (overflow < 0) {
    out = -kHuge;
  } else if (overflow > 0) {
    const unsigned long long u = PyLong_AsUnsignedLongLong(index);
    if (PyErr_Occurred()) {
      PyErr_Clear();
      out = kHuge;
    } else {
      out = static_cast<__int128>(u);
    }
  }
  Py_DECREF(index);
  return out;
}

template <typename Name>
__int128 integer_in(nb::handle value, const Name& name, __int128 lo, __int128 hi, bool unbounded,
                    const char* refusal = "is out of range") {
  const __int128 v = integer_of(value, name);
  if (v >= lo && v <= hi) return v;
  std::string allowed = unbounded && v < lo ? "give an integer of at least " + decimal(lo)
                                            : "give an integer in " + decimal(lo) + ".." + decimal(hi);
  const std::string msg = std::string(name) + ": " + text_of(value) + " " + refusal + "; " + allowed;
  throw StatusError{Status::usage(msg)};  // manaka.UsageError, a ValueError
}

// A real number: a float, an int, or an object with __float__ (numpy's
// floats); TypeError for anything else, str and bool included. An int too
// large for a double reads as +-infinity, out of every range.
double real_of(nb::handle value, const char* name) {
  PyObject* o = value.ptr();
  PyNumberMethods* num = Py_TYPE(o)->tp_as_number;
  if (PyBool_Check(o) || !(PyFloat_Check(o) || PyLong_Check(o) || (num && num->nb_float)))
    type_error(name, "a number", value);
  const double v = PyFloat_AsDouble(o);
  if (v == -1.0 && PyErr_Occurred()) {
    if (!PyErr_ExceptionMatches(PyExc_OverflowError)) throw nb::python_error();
    PyErr_Clear();
    PyObject* zero = PyLong_FromLong(0);
    const int negative = PyObject_RichCompareBool(o, zero, Py_LT);
    Py_DECREF(zero);
    if (negative < 0) throw nb::python_error();
    return negative ? -HUGE_VAL : HUGE_VAL;
  }
  return v;
}

[[noreturn]] void number_refused(const char* name, nb::handle value, const char* why, const std::string& allowed) {
  const std::string msg = std::string(name) + ": " + text_of(value) + " " + why + "; " + allowed;
  throw StatusError{Status::usage(msg)};  // manaka.UsageError, a ValueError
}

}  // namespace

int64_t int_arg(nb::handle value, const char* name, int64_t lo, int64_t hi) {
  return static_cast<int64_t>(integer_in(value, name, lo, hi, false));
}

uint64_t uint_arg(nb::handle value, const char* name, uint64_t lo, uint64_t hi) {
  return static_cast<uint64_t>(integer_in(value, name, lo, hi, hi == kNoUpperBound));
}

uint64_t seed_arg(nb::handle value, const char* name) {
  return static_cast<uint64_t>(integer_in(value, name, 0, kNoUpperBound, false, "is not a seed"));
}

namespace {

// NaN, and an infinity given as a float, are "not finite"; an int too large
// for a double is out of range instead.
bool not_finite(nb::handle value, double v) { return std::isnan(v) || (std::isinf(v) && !PyLong_Check(value.ptr())); }

}  // namespace

double number_arg(nb::handle value, const char* name, double lo, double hi, bool lo_open, const char* what) {
  const double v = real_of(value, name);
  const bool bad = not_finite(value, v);
  if (!bad && !(lo_open ? v <= lo : v < lo) && !(v > hi)) return v;
  // The message is built only for a refusal (value_q is checked per record).
  std::string allowed = std::string("give ") + what + (lo_open ? " greater than " : " of at least ") + shortest(lo);
  if (hi < DBL_MAX) allowed += " and at most " + shortest(hi);
  number_refused(name, value, bad ? "is not a finite number" : "is out of range", allowed);
}

double real_arg(nb::handle value, const char* name) { return real_of(value, name); }

float float_arg(nb::handle value, const char* name) {
  const double v = real_of(value, name);
  const bool bad = not_finite(value, v);
  if (!bad && std::fabs(v) <= double(FLT_MAX)) return static_cast<float>(v);
  number_refused(name, value, bad ? "is not a finite number" : "is out of range",
                 "give a number that a float holds (" + shortest(-FLT_MAX) + ".." + shortest(FLT_MAX) + ")");
}

template <typename T>
std::vector<T> int_list_arg(nb::handle value, const char* name, int64_t lo, int64_t hi) {
  if (PyUnicode_Check(value.ptr()) || PyBytes_Check(value.ptr()) || PyByteArray_Check(value.ptr()))
    type_error(name, "a sequence of ints", value);
  PyObject* seq = PySequence_Fast(value.ptr(), "");
  if (!seq) {
    PyErr_Clear();
    type_error(name, "a sequence of ints", value);
  }
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  PyObject** items = PySequence_Fast_ITEMS(seq);
  std::vector<T> out;
  out.reserve(static_cast<size_t>(n));
  try {
    for (Py_ssize_t i = 0; i < n; ++i) {
      nb::handle item(items[i]);
      // The element's name is built only when it is refused.
      struct ElementName {
        const char* list;
        Py_ssize_t index;
        operator std::string() const { return std::string(list) + "[" + std::to_string(index) + "]"; }
      };
      out.push_back(static_cast<T>(integer_in(item, ElementName{name, i}, lo, hi, false)));
    }
  } catch (...) {
    Py_DECREF(seq);
    throw;
  }
  Py_DECREF(seq);
  return out;
}

template std::vector<uint16_t> int_list_arg<uint16_t>(nb::handle, const char*, int64_t, int64_t);
template std::vector<uint32_t> int_list_arg<uint32_t>(nb::handle, const char*, int64_t, int64_t);
template std::vector<int16_t> int_list_arg<int16_t>(nb::handle, const char*, int64_t, int64_t);

void bind_checks(nb::module_ m) {
  using namespace nb::literals;
  m.def("seed", [](nb::handle value, const char* name) { return seed_arg(value, name); }, "value"_a.none(),
        "name"_a = "seed", "value as a 64-bit seed, or ValueError / TypeError naming `name`.");
  m.def("at_least", [](nb::handle value, const char* name, uint64_t lo) { return uint_arg(value, name, lo); },
        "value"_a.none(), "name"_a, "lo"_a, "value as an integer >= lo, or ValueError / TypeError naming `name`.");
}

}  // namespace manaka::python
