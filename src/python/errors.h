// The binding edge: a manaka::Status becomes a Python exception of the
// manaka.Error tree (all ValueError subclasses) here and nowhere else.
#pragma once

#include <nanobind/nanobind.h>

#include <utility>

#include "core/status.h"

namespace manaka::python {

// Carries a failed Status through nanobind to the registered translator.
struct StatusError {
  Status status;
};

inline void raise_if_error(Status st) {
  if (!st.ok()) throw StatusError{std::move(st)};
}

// f() with the GIL released (a long native job; Python threads run meanwhile).
template <typename F>
auto without_gil(F&& f) {
  nanobind::gil_scoped_release release;
  return f();
}

template <typename T>
T unwrap(Result<T>&& r) {
  if (!r.ok()) throw StatusError{std::move(r).take_status()};
  return std::move(r).value();
}

// Creates manaka._core.Error and its subclasses and the translator.
void register_errors(nanobind::module_& m);

}  // namespace manaka::python
