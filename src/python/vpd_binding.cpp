// manaka.vpd (native part): a VPD1 file opened read-only (vpd/database.h):
// its rows as columns (numpy for the numbers, lists of str for the text),
// ids drawn through the indexed random_key as `manaka vpd sample --seed`
// draws them, and the chess corpus's 20 input planes (chess/encode.h) of a
// batch of FENs. A File is used under the GIL (one SQLite connection, its
// statements reused); a DataLoader worker opens its own.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "chess/encode.h"
#include "chess/position.h"
#include "core/splitmix64.h"
#include "python/bindings.h"
#include "python/errors.h"
#include "python/numpy.h"
#include "vpd/database.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace manaka::python {
namespace {

struct File {
  std::string path;
  std::unique_ptr<vpd::VpdFile> file;
  uint64_t rows = 0;
};

nb::list text_list(const std::vector<std::string>& v) {
  nb::list out;
  for (const std::string& s : v) out.append(nb::str(s.data(), s.size()));
  return out;
}

// The columns under the spec's names; source_split None where NULL.
nb::dict columns_dict(vpd::PositionColumns&& c) {
  nb::list split;
  for (const std::string& s : c.source_split) split.append(s.empty() ? nb::none() : nb::object(nb::str(s.c_str())));
  nb::dict d;
  d["fen"] = text_list(c.fen);
  d["source_split"] = split;
  d["source_member"] = text_list(c.source_member);
  d["result"] = text_list(c.result);
  d["id"] = to_numpy(std::move(c.id));
  d["random_key"] = to_numpy(std::move(c.random_key));
  d["game_number"] = to_numpy(std::move(c.game_number));
  d["ply"] = to_numpy(std::move(c.ply));
  d["side_to_move"] = to_numpy(std::move(c.side_to_move));
  d["phase"] = to_numpy(std::move(c.phase));
  d["piece_count"] = to_numpy(std::move(c.piece_count));
  d["non_pawn_material"] = to_numpy(std::move(c.non_pawn_material));
  d["material_balance"] = to_numpy(std::move(c.material_balance));
  d["legal_moves"] = to_numpy(std::move(c.legal_moves));
  d["in_check"] = to_numpy(std::move(c.in_check));
  d["castling_mask"] = to_numpy(std::move(c.castling_mask));
  d["halfmove_clock"] = to_numpy(std::move(c.halfmove_clock));
  return d;
}

}  // namespace

void bind_vpd(nb::module_ m) {
  nb::class_<File>(m, "File", "A VPD1 file opened read-only.")
      .def("__init__",
           [](File* self, const std::string& path) {
             auto f = unwrap(vpd::VpdFile::open(path));
             const uint64_t rows = unwrap(f.rows());
             new (self) File{path, std::make_unique<vpd::VpdFile>(std::move(f)), rows};
           },
           "path"_a)
      .def_ro("path", &File::path)
      .def("__len__", [](const File& f) { return f.rows; })
      .def("metadata", [](File& f, const std::string& key) { return unwrap(f.file->metadata(key)); }, "key"_a,
           "The metadata value of key, '' when absent.")
      .def("read_range",
           [](File& f, uint64_t first_id, uint64_t count) {
             vpd::PositionColumns c;
             c.reserve(size_t(std::min<uint64_t>(count, 1 << 20)));
             raise_if_error(f.file->read_range(first_id, count, c));
             return columns_dict(std::move(c));
           },
           "first_id"_a, "count"_a, "The rows with first_id <= id < first_id + count as columns.")
      .def("read_ids",
           [](File& f, const std::vector<int64_t>& ids) {
             vpd::PositionColumns c;
             c.reserve(ids.size());
             raise_if_error(f.file->read_ids(ids, c));
             return columns_dict(std::move(c));
           },
           "ids"_a, "The rows of ids, in that order, as columns; an id with no row is an error.")
      .def("sample_ids",
           [](File& f, uint64_t n, uint64_t seed) {
             // The keys of `manaka vpd sample --seed`: SplitMix64(seed), top 63 bits.
             SplitMix64 rng(seed);
             std::vector<int64_t> ids;
             ids.reserve(size_t(n));
             for (uint64_t i = 0; i < n; ++i) ids.push_back(int64_t(unwrap(f.file->id_at_key(rng.next() >> 1))));
             return to_numpy(std::move(ids));
           },
           "n"_a, "seed"_a,
           "n row ids drawn through random_key (smallest key >= the drawn one, wrapping to the smallest).");

  m.def(
      "encode_planes",
      [](const std::vector<std::string>& fens) {
        std::vector<int8_t> out(fens.size() * chess::PLANES_SIZE);
        for (size_t i = 0; i < fens.size(); ++i) {
          auto pos = chess::Position::from_fen(fens[i]);
          if (!pos.ok()) raise_if_error(std::move(pos).take_status().with_context("fens[" + std::to_string(i) + "]: "));
          chess::encode_planes(*pos, false, out.data() + i * chess::PLANES_SIZE);
        }
        return to_numpy(std::move(out), {fens.size(), size_t(chess::PLANE_NB), 8, 8});
      },
      "fens"_a,
      "int8 (N, 20, 8, 8): the chess corpus's planes of each FEN (the repetition plane 0: a row has no history).");
}

}  // namespace manaka::python
