// manaka.shards (native part): `pack` (MPK1 streams into folded, shuffled
// parquet shards) and a row-group reader handing columns to numpy.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/unique_ptr.h>
#include <nanobind/stl/vector.h>

#include <cfloat>
#include <chrono>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fold/pack.h"
#include "fold/pack_parts.h"
#include "python/bindings.h"
#include "python/checks.h"
#include "python/errors.h"
#include "python/numpy.h"
#include "shard/inspect.h"
#include "shard/validate.h"
#include "shard/overlap.h"
#include "shard/rewrite.h"
#include "shard/shard_reader.h"
#include "shard/shard_set.h"
#include "shard/mixed_stream.h"
#include "shard/shard_sources.h"
#include "shard/batch_pool.h"
#include "shard/shard_stream.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace manaka::python {
namespace {

// A numpy array over v's elements whose owner, when numpy frees it, gives
// the buffer back to `pool` (none: frees it) for a later batch to reuse.
template <typename T>
NumpyArray<T> pooled_numpy(std::vector<T>&& v, std::vector<T> shard::ShardBatch::*column,
                           const std::shared_ptr<shard::ShardBatchPool>& pool,
                           std::initializer_list<size_t> shape = {}) {
  struct Owner {
    std::vector<T> buffer;
    std::vector<T> shard::ShardBatch::*column;
    std::shared_ptr<shard::ShardBatchPool> pool;
  };
  auto* owned = new Owner{std::move(v), column, pool};
  nb::capsule owner(owned, [](void* p) noexcept {
    auto* o = static_cast<Owner*>(p);
    try {
      if (o->pool) o->pool->give(o->column, std::move(o->buffer));
    } catch (...) {  // no room to keep it: the buffer is freed below
    }
    delete o;
  });
  std::vector<size_t> dims(shape);
  if (dims.empty()) dims.push_back(owned->buffer.size());
  return NumpyArray<T>(owned->buffer.data(), dims.size(), dims.data(), owner);
}

nb::dict batch_to_dict(shard::ShardBatch&& b, const shard::ShardColumns& cols,
                       const std::shared_ptr<shard::ShardBatchPool>& pool = nullptr) {
  using B = shard::ShardBatch;
  nb::dict d;
  const size_t n = static_cast<size_t>(b.rows);
  if (cols.packed) d["packed"] = pooled_numpy(std::move(b.packed), &B::packed, pool, {n, size_t{96}});
  if (cols.ply) d["ply"] = pooled_numpy(std::move(b.ply), &B::ply, pool);
  if (cols.value_z) d["value_z"] = pooled_numpy(std::move(b.value_z), &B::value_z, pool);
  if (cols.value_q) d["value_q"] = pooled_numpy(std::move(b.value_q), &B::value_q, pool);
  if (cols.weight) d["weight"] = pooled_numpy(std::move(b.weight), &B::weight, pool);
  if (cols.candidates) {
    d["cand_offsets"] = pooled_numpy(std::move(b.cand_offsets), &B::cand_offsets, pool);
    d["mv"] = pooled_numpy(std::move(b.mv), &B::mv, pool);
    d["prob"] = pooled_numpy(std::move(b.prob), &B::prob, pool);
    d["cp"] = pooled_numpy(std::move(b.cp), &B::cp, pool);
  }
  return d;
}

shard::ShardColumns columns_of(const std::optional<std::vector<std::string>>& names) {
  if (!names) return {};
  shard::ShardColumns c{false, false, false, false, false, false};
  for (const std::string& name : *names) {
    if (name == "packed") c.packed = true;
    else if (name == "ply") c.ply = true;
    else if (name == "value_z") c.value_z = true;
    else if (name == "value_q") c.value_q = true;
    else if (name == "weight") c.weight = true;
    else if (name == "candidates") c.candidates = true;
    else
      throw StatusError{Status::invalid("unknown shard column '" + name +
                                        "' (packed, ply, value_z, value_q, weight, candidates)")};
  }
  return c;
}

nb::dict summary_to_dict(const fold::PackSummary& s) {
  nb::dict d;
  d["records_in"] = s.records_in;
  d["rows_out"] = s.rows_out;
  d["folded_rows"] = s.folded_rows;
  d["folded_records"] = s.folded_records;
  d["shards"] = s.shards;
  d["seconds"] = s.seconds;
  return d;
}

nb::dict footer_to_dict(const shard::FooterPairs& pairs) {
  nb::dict d;
  for (const auto& [k, v] : pairs) d[k.c_str()] = v;
  return d;
}

}  // namespace

void bind_shards(nb::module_ m) {
  nb::class_<shard::ShardReader>(m, "_ShardReader")
      .def_static("open", [](const std::string& path) { return unwrap(shard::ShardReader::open(path)); }, "path"_a)
      .def_prop_ro("path", &shard::ShardReader::path)
      .def_prop_ro("num_rows", &shard::ShardReader::num_rows)
      .def_prop_ro("num_row_groups", &shard::ShardReader::num_row_groups)
      .def_prop_ro("footer", [](const shard::ShardReader& r) { return footer_to_dict(r.footer()); })
      .def("read_row_group", [](shard::ShardReader& r, nb::handle group_arg,
                                std::optional<std::vector<std::string>> names) {
             const int64_t group = int_arg(group_arg, "group", INT64_MIN, INT64_MAX);
             if (group < 0 || group >= r.num_row_groups())
               throw nb::index_error(("group: row group " + std::to_string(group) + " out of range; the file has " +
                                      std::to_string(r.num_row_groups()) + " (0.." +
                                      std::to_string(r.num_row_groups() - 1) + ")")
                                         .c_str());
             auto cols = columns_of(names);
             shard::ShardBatch batch;
             {
               nb::gil_scoped_release release;
               batch = unwrap(r.read_row_group(static_cast<int>(group), cols));
             }
             return batch_to_dict(std::move(batch), cols);
           }, "group"_a.none(), "columns"_a = nb::none());

  nb::class_<shard::ShardStream>(m, "_ShardStream")
      .def_static("open", [](const std::vector<std::string>& paths, std::optional<std::vector<std::string>> names,
                             nb::handle threads) {
             shard::ShardStreamOptions o;
             o.columns = columns_of(names);
             if (!threads.is_none()) o.threads = static_cast<unsigned>(uint_arg(threads, "threads", 1, 1024));
             return unwrap(shard::ShardStream::open(paths, o));
           }, "paths"_a, "columns"_a = nb::none(), "threads"_a.none() = nb::none(),
           "Every row group of the shards in order, decoded ahead on `threads` threads (default: the core count).")
      .def_prop_ro("threads", &shard::ShardStream::threads)
      .def("next", [](shard::ShardStream& s) -> std::optional<nb::dict> {
             shard::ShardBatch batch;
             bool more;
             {
               nb::gil_scoped_release release;
               more = unwrap(s.next(batch));
             }
             if (!more) return std::nullopt;
             return batch_to_dict(std::move(batch), s.columns(), s.pool());
           }, "The next row group's columns as a dict of numpy arrays, or None after the last.");

  nb::class_<shard::MixedStream>(m, "_MixedStream")
      .def_static("open", [](const std::vector<std::pair<std::vector<std::string>, double>>& sources,
                             nb::handle batch_size, std::optional<std::vector<std::string>> names, bool drop_last,
                             const std::string& until, bool shuffle, nb::handle seed, nb::handle epoch,
                             nb::handle stride, nb::handle offset, nb::handle threads) {
             shard::MixOptions o;
             o.columns = columns_of(names);
             o.batch_size = int64_t(uint_arg(batch_size, "batch_size", 1, uint64_t{1} << 30));
             o.drop_last = drop_last;
             if (until == "every") o.until = shard::MixUntil::kEverySource;
             else if (until == "first") o.until = shard::MixUntil::kFirstSource;
             else throw StatusError{Status::usage("until must be \"every\" or \"first\", got \"" + until + "\"")};
             o.shuffle = shuffle;
             o.seed = seed_arg(seed);
             o.epoch = uint_arg(epoch, "epoch", 0);
             o.stride = uint_arg(stride, "stride", 1, 1 << 16);
             o.offset = uint_arg(offset, "offset", 0, o.stride - 1);
             if (!threads.is_none()) o.threads = static_cast<unsigned>(uint_arg(threads, "threads", 1, 1024));
             std::vector<shard::MixSource> in;
             for (const auto& [paths, weight] : sources) in.push_back({paths, weight});
             nb::gil_scoped_release release;
             return unwrap(shard::MixedStream::open(std::move(in), o));
           }, "sources"_a, "batch_size"_a, "columns"_a = nb::none(), "drop_last"_a = false, "until"_a = "every",
           "shuffle"_a = true, "seed"_a = 0, "epoch"_a = 0, "stride"_a = 1, "offset"_a = 0,
           "threads"_a.none() = nb::none(),
           "Rows of (paths, weight) sources mixed by weight in batches of batch_size (shard/mixed_stream.h).")
      .def_prop_ro("epoch_rows", &shard::MixedStream::epoch_rows)
      .def_prop_ro("epoch_batches", &shard::MixedStream::epoch_batches)
      .def_prop_ro("source_rows", &shard::MixedStream::source_rows)
      .def_prop_ro("source_sizes", &shard::MixedStream::source_sizes)
      .def("next", [](shard::MixedStream& s) -> std::optional<nb::dict> {
             shard::MixedBatch batch;
             bool more;
             {
               nb::gil_scoped_release release;
               more = unwrap(s.next(batch));
             }
             if (!more) return std::nullopt;
             nb::dict d = batch_to_dict(std::move(batch.rows), s.columns());
             d["source"] = to_numpy(std::move(batch.source));
             d["index"] = batch.index;
             return d;
           }, "The next batch's columns (the ones it was opened with), its rows' "
           "sources and its index in the epoch, or None after the last.");

  m.def("pack", [](const std::vector<std::string>& streams, const std::string& prefix, nb::handle temperature,
                   nb::handle seed, nb::handle rows_per_shard, nb::handle buckets, const std::string& spool_dir,
                   bool progress, bool overwrite, nb::handle threads) {
        fold::PackOptions o;
        o.prefix = prefix;
        o.temperature = number_arg(temperature, "temperature", 0.0, DBL_MAX, true, "a number of centipawns");
        o.seed = seed_arg(seed);
        o.rows_per_shard = uint_arg(rows_per_shard, "rows_per_shard", 1);
        o.buckets = static_cast<uint32_t>(uint_arg(buckets, "buckets", 0, fold::kMaxBuckets));
        o.spool_dir = spool_dir;
        o.progress = progress;
        o.overwrite = overwrite;
        if (!threads.is_none()) o.threads = static_cast<unsigned>(uint_arg(threads, "threads", 1, 1024));
        fold::PackSummary s;
        {
          nb::gil_scoped_release release;
          s = unwrap(fold::pack(streams, o));
        }
        return summary_to_dict(s);
      }, "streams"_a, "prefix"_a, "temperature"_a.none() = fold::kDefaultTemperature, "seed"_a.none() = 0,
      "rows_per_shard"_a.none() = shard::kDefaultRowsPerShard, "buckets"_a.none() = 0u, "spool_dir"_a = "",
      "progress"_a = false, "overwrite"_a = false, "threads"_a.none() = nb::none());

  // The pieces of a distributed `pack --buckets` (fold/pack_parts.h); python/manaka/ray.py runs them as tasks.
  auto pack_options = [](nb::handle temperature, nb::handle seed, nb::handle rows_per_shard, nb::handle buckets,
                         nb::handle threads) {
    fold::PackOptions o;
    o.temperature = number_arg(temperature, "temperature", 0.0, DBL_MAX, true, "a number of centipawns");
    o.seed = seed_arg(seed);
    o.rows_per_shard = uint_arg(rows_per_shard, "rows_per_shard", 1);
    o.buckets = static_cast<uint32_t>(uint_arg(buckets, "buckets", 1, fold::kMaxBuckets));
    if (!threads.is_none()) o.threads = static_cast<unsigned>(uint_arg(threads, "threads", 1, 1024));
    o.progress = false;
    return o;
  };
  m.def("pack_map", [](const std::vector<std::string>& streams, size_t index, const std::string& dir,
                       nb::handle buckets) {
        const auto n = static_cast<uint32_t>(uint_arg(buckets, "buckets", 1, fold::kMaxBuckets));
        fold::PackMapResult r;
        {
          nb::gil_scoped_release release;
          r = unwrap(fold::pack_map(streams, index, dir, n));
        }
        nb::dict d;
        d["records"] = r.records;
        d["fingerprint"] = r.fingerprint;
        return d;
      }, "streams"_a, "index"_a, "dir"_a, "buckets"_a,
      "Map of a distributed pack: stream `index` -> `dir`/spool-a-NNNN.mpk, one per bucket; "
      "returns {records, fingerprint}.");
  m.def("pack_fold", [pack_options](const std::vector<std::string>& streams, const std::vector<std::string>& parts,
                                    uint32_t bucket, const std::string& dir, nb::handle buckets,
                                    nb::handle temperature, nb::handle seed) {
        const fold::PackOptions o = pack_options(temperature, seed, nb::int_(shard::kDefaultRowsPerShard), buckets,
                                                 nb::none());
        std::vector<uint64_t> rows;
        {
          nb::gil_scoped_release release;
          rows = unwrap(fold::pack_fold(streams, parts, bucket, dir, o));
        }
        return rows;
      }, "streams"_a, "parts"_a, "bucket"_a, "dir"_a, "buckets"_a,
      "temperature"_a.none() = fold::kDefaultTemperature, "seed"_a.none() = 0,
      "Fold of a distributed pack: first-set spool `bucket` (its map parts in stream order) -> "
      "`dir`/spool-b-NNNN.rows; returns the rows written to each.");
  m.def("pack_write", [pack_options](const std::vector<std::string>& streams,
                                     const std::vector<std::vector<std::string>>& parts, uint64_t records,
                                     uint64_t fingerprint, const std::vector<uint64_t>& spool_rows,
                                     uint64_t first_shard, uint64_t end_shard, const std::string& prefix,
                                     nb::handle buckets, nb::handle temperature, nb::handle seed,
                                     nb::handle rows_per_shard, nb::handle threads) {
        fold::PackOptions o = pack_options(temperature, seed, rows_per_shard, buckets, threads);
        o.prefix = prefix;
        const fold::PackPlan plan{records, fingerprint, spool_rows};
        fold::PackSummary s;
        {
          nb::gil_scoped_release release;
          s = unwrap(fold::pack_write(streams, parts, plan, first_shard, end_shard, o));
        }
        return summary_to_dict(s);
      }, "streams"_a, "parts"_a, "records"_a, "fingerprint"_a, "spool_rows"_a, "first_shard"_a, "end_shard"_a,
      "prefix"_a, "buckets"_a, "temperature"_a.none() = fold::kDefaultTemperature, "seed"_a.none() = 0,
      "rows_per_shard"_a.none() = shard::kDefaultRowsPerShard, "threads"_a.none() = nb::none(),
      "Write of a distributed pack: shards [first_shard, end_shard) of the set under `prefix`; "
      "parts[j] lists second-set spool j's fold parts in bucket order.");

  // bench/pack_bench.py's "shard writer alone" (shard/rewrite.h): the set loaded once, untimed, then
  // written `passes` times; the wall seconds of each write.
  m.def("_rewrite_timed", [](const std::vector<std::string>& paths, const std::string& prefix, unsigned threads,
                             unsigned passes) {
        std::vector<double> seconds;
        nb::gil_scoped_release release;
        const shard::LoadedSet set = unwrap(shard::load_set(paths));
        for (unsigned i = 0; i < passes; ++i) {
          const auto start = std::chrono::steady_clock::now();
          raise_if_error(shard::write_set(set, prefix, threads));
          seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        }
        return seconds;
      }, "paths"_a, "prefix"_a, "threads"_a, "passes"_a = 1,
      "The shard set at `paths` loaded into memory, then written to `prefix` `passes` times as pack writes "
      "a set; the seconds of each write (the writer alone, for bench/pack_bench.py).");

  m.def("find_shards", [](const std::vector<std::string>& sources) {
        shard::ShardSources found;
        {
          nb::gil_scoped_release release;
          found = unwrap(shard::find_shards(sources));
        }
        return nb::make_tuple(found.files, found.left_out);
      }, "sources"_a,
      "(shards, left_out): files, directories searched recursively (a *.parquet a shard by its footer) and "
      "globs, in order; left_out the parquet files found below a directory that are not shards.");

  m.def("check_sets", [](const std::vector<std::string>& paths, bool require_complete) {
        Status st;
        {
          nb::gil_scoped_release release;
          st = shard::check_shard_sets(paths, require_complete);
        }
        raise_if_error(std::move(st));
      }, "paths"_a, "require_complete"_a = true,
      "Refuses shards that are not whole sets: files of one prefix from two pack runs, or a set missing shards.");

  m.def("overlap", [](const std::vector<std::string>& train, const std::vector<std::string>& valid,
                      nb::handle max_examples, nb::handle opening_plies) {
        const size_t examples = static_cast<size_t>(uint_arg(max_examples, "max_examples", 0, 1'000'000));
        const int opening = static_cast<int>(uint_arg(opening_plies, "opening_plies", 0, 65535));
        shard::OverlapReport r;
        {
          nb::gil_scoped_release release;
          r = unwrap(shard::shard_overlap(train, valid, examples, opening));
        }
        nb::list ex;
        for (const shard::OverlapExample& e : r.examples) {
          nb::dict x;
          x["packed"] = nb::bytes(reinterpret_cast<const char*>(e.packed.data()), e.packed.size());
          x["sfen"] = e.sfen;
          x["valid_path"] = e.valid_path;
          x["valid_row"] = e.valid_row;
          x["train_path"] = e.train_path;
          x["train_row"] = e.train_row;
          ex.append(x);
        }
        nb::dict d;
        d["train_files"] = r.train_files;
        d["valid_files"] = r.valid_files;
        d["train_rows"] = r.train_rows;
        d["train_boards"] = r.train_boards;
        d["valid_rows"] = r.valid_rows;
        d["valid_boards"] = r.valid_boards;
        d["shared_rows"] = r.shared_rows;
        d["shared_boards"] = r.shared_boards;
        d["share"] = r.share();
        d["opening_plies"] = r.opening_plies;
        d["opening_rows"] = r.opening_rows;
        d["beyond_opening_share"] = r.beyond_opening_share();
        d["valid_weight"] = r.valid_weight;
        d["shared_weight"] = r.shared_weight;
        d["examples"] = ex;
        return d;
      }, "train"_a, "valid"_a, "max_examples"_a.none() = shard::kDefaultOverlapExamples,
      "opening_plies"_a.none() = shard::kDefaultOpeningPlies,
      "Validation rows whose board also occurs in training (by the fold's board hash), with examples. "
      "train and valid are lists of shard files or directories.");

  m.def("_validate_json", [](const std::vector<std::string>& paths) {
        return shard::validate_json(unwrap(without_gil([&] { return shard::validate_shards(paths); })));
      }, "paths"_a, "Every row of the shards read and checked (shard/validate.h), as JSON text.");

  m.def("inspect", [](const std::vector<std::string>& paths) {
        shard::InspectReport r;
        {
          nb::gil_scoped_release release;
          r = unwrap(shard::inspect_shards(paths));
        }
        nb::dict d;
        d["rows"] = r.rows;
        d["weight_min"] = r.weight_min;
        d["weight_mean"] = r.weight_mean;
        d["weight_max"] = r.weight_max;
        d["cands_mean"] = r.cands_mean;
        d["cands_p50"] = r.cands_p50;
        d["cands_p99"] = r.cands_p99;
        d["cands_max"] = r.cands_max;
        d["block_ratio"] = r.blocks.ratio;
        d["block_noise"] = r.blocks.noise;
        return d;
      }, "paths"_a);
}

}  // namespace manaka::python
