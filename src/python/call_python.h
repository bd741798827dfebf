// Calls into Python from C++ work running with the GIL released (a match's
// player, the search's network): the GIL taken for the call, a Python
// exception kept so the binding re-raises that very exception when the work
// is over, any other refusal a Status that ends the work.
#pragma once

#include <nanobind/nanobind.h>

#include <exception>
#include <optional>
#include <utility>

#include "core/status.h"
#include "python/errors.h"

namespace manaka::python {

template <typename F>
auto call_python(std::optional<nanobind::python_error>& raised, F&& f) -> decltype(f()) {
  nanobind::gil_scoped_acquire acquire;
  try {
    return f();
  } catch (nanobind::python_error& e) {
    raised.emplace(std::move(e));
    return Status::invalid("a Python exception");  // replaced by the exception itself
  } catch (StatusError& e) {
    return std::move(e.status);
  } catch (const std::exception& e) {
    return Status::usage(e.what());
  }
}

}  // namespace manaka::python
