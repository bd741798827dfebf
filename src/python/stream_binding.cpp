#include "python/bindings.h"

namespace manaka::python {

void bind_stream(nanobind::module_ m) {}

}  // namespace manaka::python
