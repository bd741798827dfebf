// manaka.chess_corpus (native part): the chess corpus's npz shards
// (src/chess_corpus): reading and writing one, the streamed batch loader, and the
// summary behind `manaka chess shards inspect`. Batches reach numpy without
// a copy: each array owns the buffer the loader's thread filled.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "chess/encode.h"
#include "chess/move_index.h"
#include "core/default_init.h"
#include "core/text.h"
#include "chess_corpus/batch_loader.h"
#include "chess_corpus/manifest.h"
#include "chess_shard/chess_shard.h"
#include "chess_corpus/shard_summary.h"
#include "python/bindings.h"
#include "python/errors.h"
#include "python/numpy.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace manaka::python {
namespace {

constexpr size_t PLANES = chess::PLANE_NB;

template <typename T>
using Rows = nb::ndarray<const T, nb::c_contig, nb::device::cpu>;

struct LoaderHandle {
  std::unique_ptr<chess_corpus::BatchLoader> loader;
};

// A states (or policy) buffer as a numpy array whose owner, as it dies,
// hands the buffer back to the loader's pool (which outlives the loader if
// need be).
template <typename T>
struct Pooled {
  std::shared_ptr<chess_corpus::BatchPool> pool;
  UninitVector<T> data;
};

template <typename T>
NumpyArray<T> pooled_numpy(UninitVector<T>&& v, const std::shared_ptr<chess_corpus::BatchPool>& pool, size_t rows) {
  auto* owned = new Pooled<T>{pool, std::move(v)};
  nb::capsule owner(owned, [](void* p) noexcept {
    auto* s = static_cast<Pooled<T>*>(p);
    s->pool->give(std::move(s->data));
    delete s;
  });
  const size_t shape[4] = {rows, PLANES, 8, 8};
  return NumpyArray<T>(owned->data.data(), 4, shape, owner);
}

NumpyArray<float> pooled_policy(UninitVector<float>&& v, const std::shared_ptr<chess_corpus::BatchPool>& pool,
                                size_t rows) {
  auto* owned = new Pooled<float>{pool, std::move(v)};
  nb::capsule owner(owned, [](void* p) noexcept {
    auto* s = static_cast<Pooled<float>*>(p);
    s->pool->give_policy(std::move(s->data));
    delete s;
  });
  const size_t shape[2] = {rows, size_t(chess::POLICY_SIZE)};
  return NumpyArray<float>(owned->data.data(), 2, shape, owner);
}

nb::object batch_to_tuple(chess_corpus::ChessBatch&& b, const std::shared_ptr<chess_corpus::BatchPool>& pool,
                          const chess_corpus::BatchLoaderOptions& o) {
  const size_t n = b.rows;
  nb::object states = b.states_f32.empty() && !b.states_i8.empty()
                          ? nb::cast(pooled_numpy(std::move(b.states_i8), pool, n))
                          : nb::cast(pooled_numpy(std::move(b.states_f32), pool, n));
  nb::list items;
  items.append(states);
  items.append(to_numpy(std::move(b.move_indices)));
  items.append(to_numpy(std::move(b.outcomes)));
  if (o.policy_targets) items.append(pooled_policy(std::move(b.policy), pool, n));
  if (o.scores) items.append(to_numpy(std::move(b.scores)));
  return nb::tuple(items);
}

}  // namespace

void bind_chess_corpus(nb::module_ m) {
  m.attr("SHARD_POSITIONS") = chess_corpus::DEFAULT_SHARD_POSITIONS;
  m.attr("SCORE_MATE") = chess_corpus::SCORE_MATE;
  m.attr("SCORE_MATE_BOUND") = chess_corpus::SCORE_MATE_BOUND;
  m.attr("SCORE_CP_LIMIT") = chess_corpus::SCORE_CP_LIMIT;

  nb::class_<LoaderHandle>(m, "_BatchLoader")
      .def("__init__", [](LoaderHandle* self, const std::vector<std::string>& shards, uint64_t batch_size,
                          bool shuffle, uint64_t seed, uint32_t window, uint32_t prefetch, bool int8_states,
                          uint32_t readers, bool policy_targets, bool scores) {
             chess_corpus::BatchLoaderOptions o;
             o.batch_size = batch_size;
             o.shuffle = shuffle;
             o.seed = seed;
             o.window = window;
             o.prefetch = prefetch;
             o.readers = readers;
             o.states = int8_states ? chess_corpus::StatesType::Int8 : chess_corpus::StatesType::Float32;
             o.policy_targets = policy_targets;
             o.scores = scores;
             new (self) LoaderHandle{unwrap(chess_corpus::BatchLoader::start(shards, o))};
           }, "shards"_a, "batch_size"_a, "shuffle"_a, "seed"_a, "window"_a = 1, "prefetch"_a = 8,
           "int8_states"_a = false, "readers"_a = 2, "policy_targets"_a = false,
           "scores"_a = false)
      .def("next", [](LoaderHandle& h) -> nb::object {
             Result<std::optional<chess_corpus::ChessBatch>> r = [&] {
               nb::gil_scoped_release release;
               return h.loader->next();
             }();
             std::optional<chess_corpus::ChessBatch> b = unwrap(std::move(r));
             if (!b) return nb::none();
             return batch_to_tuple(std::move(*b), h.loader->pool(), h.loader->options());
           },
           "(states (B, 20, 8, 8) float32 (int8 with int8_states), move_indices (B,) int64, outcomes (B,) "
           "float32[, policy (B, 4672) float32 with policy_targets][, scores (B,) float32 with scores]), or None "
           "after the last batch.");

  m.def("shard_file_name", &chess_corpus::shard_file_name, "index"_a, "'shard_000042.npz' for 42.");
  m.def("list_shards", [](const std::string& dir) { return unwrap(chess_corpus::list_shards(dir)); }, "dir"_a,
        "The shard_*.npz paths of a directory, sorted by name.");

  m.def("read_shard_scores", [](const std::string& path) -> nb::object {
        chess_corpus::ChessShard s = [&] {
          nb::gil_scoped_release release;
          return unwrap(chess_corpus::read_chess_shard(path));
        }();
        if (!s.has_scores) return nb::none();
        return nb::cast(to_numpy(std::move(s.scores)));
      }, "path"_a, "The shard's scores, int16 (N,), or None for a shard without them; every check passed.");

  m.def("read_shard", [](const std::string& path, bool visits) {
        chess_corpus::ChessShard s = [&] {
          nb::gil_scoped_release release;
          return unwrap(chess_corpus::read_chess_shard(path));
        }();
        const size_t n = s.positions;
        nb::object states = nb::cast(to_numpy(std::move(s.states), {n, PLANES, 8, 8}));
        nb::object moves = nb::cast(to_numpy(std::move(s.move_indices)));
        nb::object outcomes = nb::cast(to_numpy(std::move(s.outcomes)));
        if (!visits) return nb::make_tuple(states, moves, outcomes);
        if (!s.has_visits) return nb::make_tuple(states, moves, outcomes, nb::none(), nb::none(), nb::none());
        return nb::make_tuple(states, moves, outcomes, to_numpy(std::move(s.visit_offsets)),
                              to_numpy(std::move(s.visit_indices)), to_numpy(std::move(s.visit_counts)));
      }, "path"_a, "visits"_a = false,
      "(states int8 (N, 20, 8, 8), move_indices int32 (N,), outcomes int8 (N,)), every check passed; with "
      "visits, also (visit_offsets int64 (N + 1,), visit_indices int32 (M,), visit_counts int32 (M,)), or three "
      "None for a shard without them.");

  m.def("write_shard", [](const std::string& path, Rows<int8_t> states, Rows<int32_t> move_indices,
                          Rows<int8_t> outcomes, bool compressed, int level, std::optional<Rows<int64_t>> visit_offsets,
                          std::optional<Rows<int32_t>> visit_indices, std::optional<Rows<int32_t>> visit_counts,
                          std::optional<Rows<int16_t>> scores) {
        const size_t n = move_indices.size();
        if (states.ndim() != 4 || states.shape(0) != n || states.shape(1) != PLANES || states.shape(2) != 8 ||
            states.shape(3) != 8 || move_indices.ndim() != 1 || outcomes.ndim() != 1 || outcomes.shape(0) != n)
          throw StatusError{Status::invalid(path + ": expected states (N, 20, 8, 8), move_indices (N,), outcomes (N,)")};
        chess_corpus::ChessShardView v{n, states.data(), move_indices.data(), outcomes.data()};
        const int given = int(visit_offsets.has_value()) + int(visit_indices.has_value()) + int(visit_counts.has_value());
        if (given != 0 && given != 3)
          throw StatusError{Status::invalid(path + ": visits are three arrays, visit_offsets, visit_indices and "
                                                   "visit_counts: give all three or none")};
        if (given == 3) {
          const size_t m = visit_indices->size();
          if (visit_offsets->ndim() != 1 || visit_offsets->shape(0) != n + 1 || visit_indices->ndim() != 1 ||
              visit_counts->ndim() != 1 || visit_counts->shape(0) != m)
            throw StatusError{Status::invalid(path + ": expected visit_offsets (N + 1,), visit_indices (M,), "
                                                     "visit_counts (M,) with N = " + std::to_string(n))};
          v.visit_offsets = visit_offsets->data();
          v.visit_indices = visit_indices->data();
          v.visit_counts = visit_counts->data();
          // Against the arrays' real length, before the writer trusts visit_offsets[N].
          raise_if_error(chess_corpus::check_visits(v, m).with_context(path + ": "));
        }
        if (scores) {
          if (scores->ndim() != 1 || scores->shape(0) != n)
            throw StatusError{Status::invalid(path + ": expected scores (N,) with N = " + std::to_string(n))};
          v.scores = scores->data();
        }
        npz::ZipWriteOptions o;
        o.compress = compressed;
        o.level = level;
        nb::gil_scoped_release release;
        raise_if_error(chess_corpus::write_chess_shard(path, v, o));
      }, "path"_a, "states"_a, "move_indices"_a, "outcomes"_a, "compressed"_a = true, "level"_a = -1,
      "visit_offsets"_a = nb::none(), "visit_indices"_a = nb::none(), "visit_counts"_a = nb::none(), "scores"_a = nb::none(),
      "Writes one shard as np.savez_compressed would (np.savez with compressed=False), through a temporary "
      "renamed when complete; move indices, outcomes and visits are checked first.");

  m.def("summarize", [](const std::vector<std::string>& paths) {
        chess_corpus::ShardSummary s = [&] {
          nb::gil_scoped_release release;
          return unwrap(chess_corpus::summarize_shards(paths));
        }();
        return json_text(chess_corpus::summary_json(s));
      }, "paths"_a, "The summary `manaka chess shards inspect --json` prints, as JSON text.");

  m.def("join_parts", [](const std::vector<std::string>& parts, const std::string& output) {
        chess_corpus::Manifest joined = [&] {
          nb::gil_scoped_release release;
          return unwrap(chess_corpus::join_corpus_parts(parts, output));
        }();
        nb::dict d;
        d["games"] = joined.games();
        d["positions"] = joined.positions();
        d["shards"] = joined.shards.size();
        return d;
      }, "parts"_a, "output"_a,
      "Joins corpus directories over consecutive game ranges (`chess corpus --first-game`) into the new "
      "directory output: shards renumbered in game order, one corpus.json (chess_corpus/manifest.h); the parts are "
      "left as they were. Returns games, positions and shards.");
}

}  // namespace manaka::python
