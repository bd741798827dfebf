// manaka._core.files: the output rules of core/temporary.h for the Python
// code that writes files itself (torch checkpoints), so that the rule that
// a dead process's "<final>.tmp-<pid>" may go is written once.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <filesystem>
#include <string>
#include <system_error>

#include "core/temporary.h"
#include "python/bindings.h"

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
}

}  // namespace manaka::python
