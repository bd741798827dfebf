// manaka._core.files: the output rules of core/output.h and core/temporary.h
// for the Python code that writes files itself (checkpoints, match records,
// reports), so that each rule is written once, in C++.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <filesystem>
#include <string>
#include <system_error>

#include "core/output.h"
#include "core/temporary.h"
#include "python/bindings.h"
#include "python/errors.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace manaka::python {

void bind_files(nb::module_ m) {
  m.def("remove_stale_temporaries", [](const std::string& dir) {
        int removed = 0;
        for (const std::string& p : stale_temporaries(dir, [](std::string_view) { return true; })) {
          std::error_code ec;
          removed += std::filesystem::remove_all(p, ec) > 0 ? 1 : 0;
        }
        return removed;
      }, "dir"_a,
      "Removes the '<final>.tmp-<pid>' files and directories in dir whose process no longer exists; "
      "returns how many.");
  m.def("check_output", [](const std::string& output, const std::vector<std::string>& inputs, bool overwrite) {
        raise_if_error(check_output(output, inputs, overwrite));
      }, "output"_a, "inputs"_a, "overwrite"_a = false,
      "Raises UsageError when output is one of inputs (the same file by any path), or exists and "
      "overwrite is false.");
  m.def("check_output_dir", [](const std::string& output, const std::vector<std::string>& inputs, bool overwrite,
                               const std::string& marker) {
        raise_if_error(check_output_dir(output, inputs, overwrite, marker));
      }, "output"_a, "inputs"_a, "overwrite"_a, "marker"_a,
      "The same for an output directory: an existing one is replaced only with overwrite and when it is empty "
      "or holds marker (the manifest the command writes there); one that is or holds an input, never.");
  m.def("check_distinct_inputs", [](const std::vector<std::string>& inputs) {
        raise_if_error(check_distinct_inputs(inputs));
      }, "inputs"_a, "Raises UsageError when one file is named twice among inputs (by any path).");
}

}  // namespace manaka::python
