// manaka._core.training: shard rows as the shogi network's inputs and
// targets (training/*.h), batched in C++: manaka.shogi.encode_batch,
// manaka.shogi.training_batches and the trainer read through it.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/unique_ptr.h>
#include <nanobind/stl/vector.h>

#include <cstring>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "python/bindings.h"
#include "python/checks.h"
#include "python/errors.h"
#include "python/numpy.h"
#include "shogi/encode.h"
#include "shogi/move_index.h"
#include "shogi/pack.h"
#include "training/conventions.h"
#include "training/shogi_batch.h"
#include "training/shogi_stream.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace manaka::python {
namespace {

using Tensors = std::tuple<NumpyArray<int8_t>, NumpyArray<float>, NumpyArray<float>, NumpyArray<float>>;

Tensors to_tensors(training::ShogiBatch&& b) {
  const size_t n = size_t(b.rows);
  return {to_numpy(std::move(b.planes), {n, size_t(shogi::PLANE_NB), 9, 9}),
          to_numpy(std::move(b.policy), {n, size_t(shogi::POLICY_SIZE)}), to_numpy(std::move(b.value), {n}),
          to_numpy(std::move(b.weight), {n})};
}

training::TargetOptions target_options(nb::handle value_q_weight, bool row_weights) {
  training::TargetOptions t;
  t.value_q_weight = static_cast<float>(number_arg(value_q_weight, "value_q_weight", 0.0, 1.0, false));
  t.row_weights = row_weights;
  return t;
}

nb::dict conventions_dict(const training::Conventions& c) {
  nb::dict d;
  for (size_t i = 0; i < training::kConventionKeys.size(); ++i)
    d[nb::str(training::kConventionKeys[i].data(), training::kConventionKeys[i].size())] =
        c.values[i].empty() ? nb::none() : nb::cast(c.values[i]);
  d["rows"] = c.rows;
  d["shards"] = c.shards;
  d["first"] = c.first;
  return d;
}

template <typename T>
using Column = nb::ndarray<const T, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

template <typename T>
std::vector<T> copied(const Column<T>& a) {
  return std::vector<T>(a.data(), a.data() + a.shape(0));
}

}  // namespace

void bind_training(nb::module_ m) {
  nb::class_<training::ShogiStream>(m, "ShogiStream")
      .def_static("open", [](const std::vector<std::string>& paths, nb::handle batch_size, bool drop_last,
                             nb::handle value_q_weight, bool row_weights, nb::handle threads) {
             training::ShogiStreamOptions o;
             o.batch_size = int64_t(uint_arg(batch_size, "batch_size", 1, 1 << 20));
             o.drop_last = drop_last;
             o.targets = target_options(value_q_weight, row_weights);
             if (!threads.is_none()) o.threads = static_cast<unsigned>(uint_arg(threads, "threads", 1, kMaxThreadsAsked));
             nb::gil_scoped_release release;
             return unwrap(training::ShogiStream::open(paths, o));
           }, "paths"_a, "batch_size"_a, "drop_last"_a = false, "value_q_weight"_a = 0.0, "row_weights"_a = false,
           "threads"_a.none() = nb::none(),
           "Batches of (planes, policy, value, weight) from the shards in order, made ahead on C++ threads.")
      .def("next", [](training::ShogiStream& s) -> std::optional<Tensors> {
             training::ShogiBatch b;
             bool more;
             {
               nb::gil_scoped_release release;
               more = unwrap(s.next(b));
             }
             if (!more) return std::nullopt;
             return to_tensors(std::move(b));
           }, "The next batch as numpy arrays, or None after the last.");

  m.def("encode_batch", [](Column<uint8_t> packed, Column<int64_t> cand_offsets, Column<uint16_t> mv,
                           Column<float> prob, Column<float> value_z, Column<float> value_q, Column<uint32_t> weight,
                           nb::handle value_q_weight, bool row_weights) {
        const training::TargetOptions t = target_options(value_q_weight, row_weights);
        const size_t n = value_z.shape(0);
        auto check = [&](bool ok, const std::string& what) {
          if (!ok) throw StatusError{Status::usage(what)};
        };
        check(packed.shape(0) == n * shogi::PACKED_LEN, "packed must hold 96 bytes a row (" + std::to_string(n) +
                                                            " rows, as value_z has), got " +
                                                            std::to_string(packed.shape(0)) + " bytes");
        check(value_q.shape(0) == n && weight.shape(0) == n, "value_z, value_q and weight must have one length");
        check(cand_offsets.shape(0) == n + 1, "cand_offsets must have rows + 1 entries");
        check(mv.shape(0) == prob.shape(0), "mv and prob must have one length");
        shard::ShardBatch in;
        in.rows = int64_t(n);
        in.packed = copied(packed);
        in.cand_offsets = copied(cand_offsets);
        for (size_t i = 0; i < n; ++i)
          check(in.cand_offsets[i] >= 0 && in.cand_offsets[i] <= in.cand_offsets[i + 1] &&
                    size_t(in.cand_offsets[i + 1]) <= mv.shape(0),
                "cand_offsets must rise from 0 to at most len(mv); row " + std::to_string(i) + " does not");
        in.mv = copied(mv);
        in.prob = copied(prob);
        in.value_z = copied(value_z);
        in.value_q = copied(value_q);
        in.weight = copied(weight);
        training::ShogiBatch out;
        {
          nb::gil_scoped_release release;
          out.reset(int64_t(n));
          raise_if_error(training::encode_rows(in, 0, int64_t(n), t, out, 0, "batch"));
        }
        return to_tensors(std::move(out));
      }, "packed"_a, "cand_offsets"_a, "mv"_a, "prob"_a, "value_z"_a, "value_q"_a, "weight"_a,
      "value_q_weight"_a = 0.0, "row_weights"_a = false,
      "One shard batch's columns as (planes, policy, value, weight) numpy arrays (training/shogi_batch.h).");

  m.def("encode_packed", [](nb::ndarray<const uint8_t, nb::ndim<2>, nb::c_contig, nb::device::cpu> packed) {
        if (packed.shape(1) != shogi::PACKED_LEN)
          throw StatusError{Status::usage("packed must be (N, 96) uint8, got (N, " + std::to_string(packed.shape(1)) + ")")};
        const size_t n = packed.shape(0);
        std::vector<int8_t> planes(n * shogi::PLANES_SIZE);
        {
          nb::gil_scoped_release release;
          for (size_t i = 0; i < n; ++i) {
            const std::span<const uint8_t, shogi::PACKED_LEN> row(packed.data() + i * shogi::PACKED_LEN,
                                                                 shogi::PACKED_LEN);
            if (!shogi::packed_is_valid(row))
              throw StatusError{Status::invalid("packed[" + std::to_string(i) + "] is not a position (" +
                                                shogi::unpack(row).status().message() + ")")};
            shogi::encode_packed(row, planes.data() + i * shogi::PLANES_SIZE);
          }
        }
        return to_numpy(std::move(planes), {n, size_t(shogi::PLANE_NB), 9, 9});
      }, "packed"_a, "The (N, 44, 9, 9) int8 planes of N packed positions (plane 42, the repetition, 0).");

  m.def("read_conventions", [](const std::vector<std::string>& paths) {
        training::Conventions c;
        {
          nb::gil_scoped_release release;
          c = unwrap(training::read_conventions(paths));
        }
        return conventions_dict(c);
      }, "paths"_a, "The footer conventions every shard of the set shares (training/conventions.h).");
  m.def("check_conventions", [](const std::vector<std::string>& train, const std::vector<std::string>& val) {
        training::Conventions a, b;
        {
          nb::gil_scoped_release release;
          a = unwrap(training::read_conventions(train));
          b = unwrap(training::read_conventions(val));
          raise_if_error(training::check_same_conventions(a, "training", b, "validation"));
        }
        return std::make_tuple(conventions_dict(a), conventions_dict(b));
      }, "train"_a, "val"_a, "Both sets' conventions, refusing sets that disagree within or between them.");
}

}  // namespace manaka::python
