// One binding function per Python module, each in its own file.
#pragma once

#include <nanobind/nanobind.h>

namespace manaka::python {

void bind_shogi(nanobind::module_ m);
// The network encodings and game outcomes, into the same submodule as bind_shogi.
void bind_shogi_encode(nanobind::module_ m);
void bind_stream(nanobind::module_ m);
void bind_teacher(nanobind::module_ m);
void bind_sazpack(nanobind::module_ m);
void bind_shards(nanobind::module_ m);
void bind_chess(nanobind::module_ m);
void bind_match(nanobind::module_ m);
// The argument checks of python/checks.h, for the pure-Python functions.
void bind_checks(nanobind::module_ m);
void bind_npz(nanobind::module_ m);
void bind_chess_corpus(nanobind::module_ m);
void bind_search(nanobind::module_ m);
// Output rules for Python writers (core/temporary.h).
void bind_files(nanobind::module_ m);
void bind_vpd(nanobind::module_ m);
void bind_training(nanobind::module_ m);

}  // namespace manaka::python
