// manaka._core: the private native module. Each binding file adds one
// submodule; the Python package re-exports them with __all__.
#include <nanobind/nanobind.h>

#include "python/bindings.h"
#include "python/errors.h"

NB_MODULE(_core, m) {
  m.doc() = "manaka native core (private; import manaka instead)";
  manaka::python::register_errors(m);
  manaka::python::bind_shogi(m.def_submodule("shogi", "shogi positions and moves"));
  manaka::python::bind_shogi_encode(nanobind::borrow<nanobind::module_>(m.attr("shogi")));
  manaka::python::bind_stream(m.def_submodule("stream", "MPK1 raw streams"));
  manaka::python::bind_teacher(m.def_submodule("teacher", "teacher corpora: generation and conversion"));
  manaka::python::bind_sazpack(m.def_submodule("sazpack", "SAZ2 v4 sazpack self-play chunks"));
  manaka::python::bind_shards(m.def_submodule("shards", "parquet shards: pack and read"));
  manaka::python::bind_chess(m.def_submodule("chess", "chess positions and moves"));
  manaka::python::bind_match(m.def_submodule("match", "games against a UCI engine and their score"));
  manaka::python::bind_checks(m.def_submodule("_checks", "argument checks (private)"));
  manaka::python::bind_npz(m.def_submodule("npz", "npz archives as numpy writes and reads them"));
  manaka::python::bind_chess_corpus(m.def_submodule("chess_corpus", "the chess corpus's npz shards and batches"));
  manaka::python::bind_search(m.def_submodule("search", "PUCT search and self-play with a Python network"));
  manaka::python::bind_files(m.def_submodule("files", "output rules for Python writers (core/temporary.h)"));
  manaka::python::bind_vpd(m.def_submodule("vpd", "VPD1 chess position datasets, read-only"));
  manaka::python::bind_training(m.def_submodule("training", "shard rows as network inputs and targets"));
}
