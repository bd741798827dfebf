// manaka.npz (native part): npz archives as numpy's np.load and
// np.savez / np.savez_compressed see them, read and written by src/npz.
// The arrays cross as raw bytes with their descr and shape; manaka/npz.py
// views them with the right dtype (no copy either way).
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>
#include <zlib.h>

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "npz/npz_reader.h"
#include "npz/npz_writer.h"
#include "python/bindings.h"
#include "python/errors.h"
#include "python/numpy.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace manaka::python {

void bind_npz(nb::module_ m) {
  m.attr("ZLIB_VERSION") = zlibVersion();  // the zlib that deflates: byte-identical output needs numpy's
  m.def("load", [](const std::string& path) {
        std::vector<npz::NpzArray> arrays;
        {
          nb::gil_scoped_release release;
          npz::NpzReader r = unwrap(npz::NpzReader::open(path));
          for (const std::string& name : r.names()) arrays.push_back(unwrap(r.read(name)));
        }
        nb::list out;
        for (npz::NpzArray& a : arrays) {
          nb::object shape = nb::cast(a.shape);
          out.append(nb::make_tuple(a.name, std::string(npz::descr(a.dtype)), shape, to_numpy(std::move(a.data))));
        }
        return out;
      }, "path"_a,
      "[(name, descr, shape, uint8 bytes)] of every array, in archive order; every member's CRC-32 checked.");

  m.def("save", [](const std::string& path,
                   const std::vector<std::tuple<std::string, std::string, std::vector<uint64_t>,
                                                nb::ndarray<const uint8_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>>>& arrays,
                   bool compressed, int level, bool zip64) {
        npz::ZipWriteOptions o;
        o.compress = compressed;
        o.level = level;
        o.zip64 = zip64 ? npz::ZipWriteOptions::Zip64::Always : npz::ZipWriteOptions::Zip64::AsZipfile;
        struct Piece {
          std::string name;
          npz::DType dtype;
          std::vector<uint64_t> shape;
          const uint8_t* data;
          size_t size;
        };
        std::vector<Piece> pieces;
        for (const auto& [name, descr, shape, data] : arrays) {
          auto t = npz::dtype_of_descr(descr);
          if (!t)
            throw StatusError{Status::invalid("array '" + name + "': dtype '" + descr +
                                              "' is not supported (bool, int8-64, uint8-64, float32, float64)")};
          pieces.push_back({name, *t, shape, data.data(), data.shape(0)});
        }
        nb::gil_scoped_release release;
        npz::NpzWriter w = unwrap(npz::NpzWriter::create(path, o));
        for (const Piece& p : pieces) {
          uint64_t want = npz::itemsize(p.dtype);
          bool overflow = false;
          for (uint64_t d : p.shape) overflow |= __builtin_mul_overflow(want, d, &want);
          if (overflow || want != p.size)
            throw StatusError{Status::invalid("array '" + p.name + "': " + std::to_string(p.size) +
                                              " bytes for shape " + npz::shape_text(p.shape))};
          raise_if_error(w.add(p.name, p.dtype, p.shape, p.data));
        }
        raise_if_error(w.commit());
      }, "path"_a, "arrays"_a, "compressed"_a = true, "level"_a = -1, "zip64"_a = false,
      "Writes [(name, descr, shape, uint8 bytes)] as np.savez_compressed (or np.savez) would, through a "
      "temporary renamed when complete; zip64=True puts ZIP64 records everywhere (for testing readers).");
}

}  // namespace manaka::python
