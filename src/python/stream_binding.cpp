// manaka.stream: MPK1 reading (columnar numpy batches), writing and
// self-play writing. Every record is validated by the C++ layer.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/output.h"
#include "core/temporary.h"
#include "python/bindings.h"
#include "python/checks.h"
#include "python/errors.h"
#include "python/numpy.h"
#include "shard_export/shard_export.h"
#include "stream/batch.h"
#include "stream/export.h"
#include "stream/header.h"
#include "stream/import.h"
#include "stream/inspect.h"
#include "stream/quantize.h"
#include "stream/reader.h"
#include "stream/split.h"
#include "stream/selfplay_writer.h"
#include "stream/validate.h"
#include "stream/writer.h"
#include "teacher/score.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace manaka::python {
namespace {

using stream::Candidate;

std::vector<uint16_t> move_list(nb::handle mv) { return int_list_arg<uint16_t>(mv, "mv", 0, UINT16_MAX); }

// A stream writer whose file is a temporary until close() (the output
// policy, docs/reliability.md): a stream under its final name is complete.
// Destroyed without close(), or left by an exception, the temporary goes.
template <typename W>
struct Pending {
  std::unique_ptr<PendingFile> file;
  W w;
  bool closed = false;

  void close() {
    if (closed) return;
    closed = true;
    Status st = w.close();
    if (!st.ok()) file->discard();
    raise_if_error(std::move(st));
    raise_if_error(file->commit());
  }
  void exit(nb::args exc) {  // (type, value, traceback), all None without an exception
    if (exc.size() == 0 || exc[0].is_none()) return close();
    closed = true;
    (void)w.close();
    file->discard();
  }
};

std::unique_ptr<PendingFile> pending_output(const std::string& path, bool overwrite) {
  raise_if_error(check_output(path, {}, overwrite));
  return std::make_unique<PendingFile>(path);
}
uint16_t ply_arg(nb::handle ply) { return static_cast<uint16_t>(int_arg(ply, "ply", 0, UINT16_MAX)); }
// value_q in [-1, 1]; value_z only a number here (the record's rule, exactly
// -1, 0 or 1, is the writer's check and message).
float value_q_arg(nb::handle v) { return static_cast<float>(number_arg(v, "value_q", -1.0, 1.0, false)); }
float value_z_arg(nb::handle v) { return static_cast<float>(real_arg(v, "value_z")); }

// A setter of a Header field of integer type T that checks the value fits.
template <typename T, T stream::Header::*Field>
void set_field(stream::Header& h, nb::handle v, const char* name) {
  h.*Field = static_cast<T>(int_arg(v, name, 0, std::numeric_limits<T>::max()));
}

nb::dict batch_to_dict(stream::Batch&& b) {
  nb::dict d;
  const size_t n = b.size();
  d["packed"] = to_numpy(std::move(b.packed), {n, b.packed_len});
  d["ply"] = to_numpy(std::move(b.ply));
  d["value_z"] = to_numpy(std::move(b.value_z));
  d["value_q"] = to_numpy(std::move(b.value_q));
  d["cand_offsets"] = to_numpy(std::move(b.cand_offsets));
  d["mv"] = to_numpy(std::move(b.mv));
  d["visits"] = to_numpy(std::move(b.visits));
  d["cp"] = to_numpy(std::move(b.cp));
  return d;
}

// Candidates from parallel lists; a missing list is the absent marker.
std::vector<Candidate> candidates_of(nb::handle mv_arg, nb::handle visits_arg, nb::handle cp_arg) {
  const std::vector<uint16_t> mv = move_list(mv_arg);
  std::optional<std::vector<uint32_t>> visits;
  std::optional<std::vector<int16_t>> cp;
  if (!visits_arg.is_none()) visits = int_list_arg<uint32_t>(visits_arg, "visits", 0, UINT32_MAX);
  if (!cp_arg.is_none()) cp = int_list_arg<int16_t>(cp_arg, "cp", INT16_MIN, INT16_MAX);
  if ((visits && visits->size() != mv.size()) || (cp && cp->size() != mv.size()))
    throw StatusError{Status::invalid("mv, visits and cp must have the same length")};
  std::vector<Candidate> out(mv.size());
  for (size_t i = 0; i < mv.size(); ++i) {
    out[i].mv = mv[i];
    if (visits) out[i].visits = (*visits)[i];
    if (cp) out[i].cp = (*cp)[i];
  }
  return out;
}

stream::GameResult result_of(int64_t black_view) {
  switch (black_view) {
    case 1: return stream::GameResult::BlackWin;
    case -1: return stream::GameResult::WhiteWin;
    case 0: return stream::GameResult::Draw;
  }
  throw StatusError{Status::invalid("result " + std::to_string(black_view) +
                                    ": must be 1 (Black won), -1 (White won) or 0 (draw)")};
}

}  // namespace

void bind_stream(nb::module_ m) {
  m.attr("NO_CP") = stream::kNoCp;
  m.attr("NO_VISITS") = stream::kNoVisits;

  nb::class_<stream::Header>(m, "Header", "The 24-byte MPK1 header, field by field.")
      .def(nb::init<>())
      // Setters check that the value fits the field; what the format allows
      // in it is the writer's check (stream/header.h).
      .def_prop_rw("version", [](const stream::Header& h) { return h.version; },
                   [](stream::Header& h, nb::handle v) {
                     set_field<uint16_t, &stream::Header::version>(h, v, "Header.version");
                   })
      .def_prop_rw("packed_len", [](const stream::Header& h) { return h.packed_len; },
                   [](stream::Header& h, nb::handle v) {
                     set_field<uint16_t, &stream::Header::packed_len>(h, v, "Header.packed_len");
                   })
      .def_prop_rw("pov", [](const stream::Header& h) { return int(h.pov); },
                   [](stream::Header& h, nb::handle v) { h.pov = stream::Pov(int_arg(v, "Header.pov", 0, 255)); },
                   "0 side to move, 1 Black")
      .def_prop_rw("policy_source", [](const stream::Header& h) { return int(h.policy_source); },
                   [](stream::Header& h, nb::handle v) {
                     h.policy_source = stream::PolicySource(int_arg(v, "Header.policy_source", 0, 255));
                   },
                   "0 visits, 1 softmax over cp")
      .def_prop_rw("mate_scale", [](const stream::Header& h) { return h.mate_scale; },
                   [](stream::Header& h, nb::handle v) {
                     set_field<uint16_t, &stream::Header::mate_scale>(h, v, "Header.mate_scale");
                   })
      .def_prop_rw("fv_scale", [](const stream::Header& h) { return h.fv_scale; },
                   [](stream::Header& h, nb::handle v) {
                     set_field<uint16_t, &stream::Header::fv_scale>(h, v, "Header.fv_scale");
                   })
      .def_prop_rw("mate_slack", [](const stream::Header& h) { return h.mate_slack; },
                   [](stream::Header& h, nb::handle v) {
                     set_field<uint16_t, &stream::Header::mate_slack>(h, v, "Header.mate_slack");
                   })
      .def_prop_rw("eval_coef", [](const stream::Header& h) { return h.eval_coef; },
                   [](stream::Header& h, nb::handle v) { h.eval_coef = float_arg(v, "Header.eval_coef"); },
                   "a float32: a finite number, |x| <= 3.4028235e+38")
      .def_prop_rw("flags", [](const stream::Header& h) { return h.flags; },
                   [](stream::Header& h, nb::handle v) {
                     set_field<uint32_t, &stream::Header::flags>(h, v, "Header.flags");
                   })
      .def("__eq__", [](const stream::Header& a, const stream::Header& b) { return a == b; })
      .def("__repr__", [](const stream::Header& h) {
        return "Header(packed_len=" + std::to_string(h.packed_len) + ", pov=" + std::to_string(int(h.pov)) +
               ", policy_source=" + std::to_string(int(h.policy_source)) +
               ", mate_scale=" + std::to_string(h.mate_scale) + ", fv_scale=" + std::to_string(h.fv_scale) +
               ", mate_slack=" + std::to_string(h.mate_slack) + ", eval_coef=" + std::to_string(h.eval_coef) + ")";
      });
  m.def("selfplay_header", &stream::selfplay_header);

  nb::class_<stream::Reader>(m, "_Reader")
      .def_static("open", [](const std::string& path) { return unwrap(stream::Reader::open(path)); }, "path"_a)
      .def_prop_ro("header", &stream::Reader::header)
      .def_prop_ro("path", &stream::Reader::path)
      .def_prop_ro("records_read", &stream::Reader::record_index)
      .def("read_batch", [](stream::Reader& r, nb::handle max_records_arg) -> std::optional<nb::dict> {
             const uint64_t max_records = uint_arg(max_records_arg, "batch_size", 1);
             stream::Batch batch;
             bool any;
             {
               nb::gil_scoped_release release;
               any = unwrap(stream::read_batch(r, max_records, batch));
             }
             if (!any) return std::nullopt;
             return batch_to_dict(std::move(batch));
           }, "max_records"_a.none());

  using StreamWriter = Pending<stream::Writer>;
  nb::class_<StreamWriter>(m, "Writer",
      "Appends validated records to a new MPK1 stream, written to '<path>.tmp-<pid>' and renamed onto path "
      "when closed; left by an exception (or never closed) it leaves nothing.")
      .def("__init__", [](StreamWriter* self, const std::string& path, const stream::Header& header,
                          bool overwrite) {
             auto file = pending_output(path, overwrite);
             stream::Writer w = unwrap(stream::Writer::create(file->path(), header));
             new (self) StreamWriter{std::move(file), std::move(w)};
           }, "path"_a, "header"_a, "overwrite"_a = false,
           "An existing path is refused (UsageError) unless overwrite; it is replaced only on close().")
      .def("write", [](StreamWriter& p, nb::bytes packed, nb::handle ply, nb::handle value_z, nb::handle value_q,
                       nb::handle mv, nb::handle visits, nb::handle cp) {
             const uint16_t checked_ply = ply_arg(ply);
             const float z = value_z_arg(value_z), q = value_q_arg(value_q);
             auto cands = candidates_of(mv, visits, cp);
             raise_if_error(p.w.write(stream::RecordView{checked_ply, z, q, bytes_of(packed), cands}));
           }, "packed"_a, "ply"_a.none(), "value_z"_a.none(), "value_q"_a.none(), "mv"_a.none(),
           "visits"_a = nb::none(), "cp"_a = nb::none(),
           "One record; visits or cp left out are written as absent.")
      .def("flush", [](StreamWriter& p) { raise_if_error(p.w.flush()); })
      .def("close", &StreamWriter::close, "Completes the stream and renames it onto its path.")
      .def("__enter__", [](StreamWriter& p) -> StreamWriter& { return p; }, nb::rv_policy::reference)
      .def("__exit__", &StreamWriter::exit)
      .def_prop_ro("path", [](const StreamWriter& p) { return p.file->final_path(); })
      .def_prop_ro("records_written", [](const StreamWriter& p) { return p.w.records_written(); })
      .def_prop_ro("header", [](const StreamWriter& p) { return p.w.header(); });

  using GameWriter = Pending<stream::SelfPlayWriter>;
  nb::class_<GameWriter>(m, "SelfPlayWriter",
      "Buffers one game and writes it when it ends, value_z from each position's side to move. The stream is "
      "written to '<path>.tmp-<pid>' and renamed onto path when closed; left by an exception (or never "
      "closed) it leaves nothing.")
      .def("__init__", [](GameWriter* self, const std::string& path, bool overwrite) {
             auto file = pending_output(path, overwrite);
             stream::SelfPlayWriter w = unwrap(stream::SelfPlayWriter::create(file->path()));
             new (self) GameWriter{std::move(file), std::move(w)};
           }, "path"_a, "overwrite"_a = false,
           "An existing path is refused (UsageError) unless overwrite; it is replaced only on close().")
      .def("begin_game", [](GameWriter& p) { raise_if_error(p.w.begin_game()); })
      .def("add_position", [](GameWriter& p, nb::bytes packed, nb::handle ply_value,
                              nb::handle value_q_value, nb::handle mv_arg, nb::handle visits_arg) {
             const uint16_t ply = ply_arg(ply_value);
             const float value_q = value_q_arg(value_q_value);
             const std::vector<uint16_t> mv = move_list(mv_arg);
             const std::vector<uint32_t> visits = int_list_arg<uint32_t>(visits_arg, "visits", 0, UINT32_MAX);
             if (mv.size() != visits.size())
               throw StatusError{Status::invalid("mv and visits must have the same length")};
             std::vector<stream::VisitedMove> moves(mv.size());
             for (size_t i = 0; i < mv.size(); ++i) moves[i] = {mv[i], visits[i]};
             raise_if_error(p.w.add_position(bytes_of(packed), ply, value_q, moves));
           }, "packed"_a, "ply"_a.none(), "value_q"_a.none(), "mv"_a.none(), "visits"_a.none())
      .def("add_position_policy", [](GameWriter& p, nb::bytes packed, nb::handle ply,
                                     nb::handle value_q_value, nb::handle mv, const std::vector<float>& probs) {
             std::vector<stream::VisitedMove> moves;
             const uint16_t checked_ply = ply_arg(ply);
             const float value_q = value_q_arg(value_q_value);
             raise_if_error(stream::quantize_policy(move_list(mv), probs, moves));
             raise_if_error(p.w.add_position(bytes_of(packed), checked_ply, value_q, moves));
           }, "packed"_a, "ply"_a.none(), "value_q"_a.none(), "mv"_a.none(), "probs"_a,
           "A float policy (e.g. Gumbel's improved policy) stored as visits = round(p * 65536).")
      .def("end_game", [](GameWriter& p, nb::handle result) {
             raise_if_error(p.w.end_game(result_of(int_arg(result, "result", INT64_MIN, INT64_MAX))));
           },
           "result"_a.none(), "The result from Black's point of view: 1, -1 or 0.")
      .def("discard_game", [](GameWriter& p) { p.w.discard_game(); })
      .def("close", &GameWriter::close,
           "Completes the stream and renames it onto its path; a game still open is discarded, never written "
           "half.")
      .def("__enter__", [](GameWriter& p) -> GameWriter& { return p; }, nb::rv_policy::reference)
      .def("__exit__", &GameWriter::exit)
      .def_prop_ro("path", [](const GameWriter& p) { return p.file->final_path(); })
      .def_prop_ro("in_game", [](const GameWriter& p) { return p.w.in_game(); })
      .def_prop_ro("games_written", [](const GameWriter& p) { return p.w.games_written(); })
      .def_prop_ro("records_written", [](const GameWriter& p) { return p.w.records_written(); });

  m.def("quantize_policy", [](nb::handle mv, const std::vector<float>& probs) {
        std::vector<stream::VisitedMove> out;
        raise_if_error(stream::quantize_policy(move_list(mv), probs, out));
        std::vector<uint16_t> moves;
        std::vector<uint32_t> visits;
        for (auto& v : out) {
          moves.push_back(v.mv);
          visits.push_back(v.visits);
        }
        return nb::make_tuple(to_numpy(std::move(moves)), to_numpy(std::move(visits)));
      }, "mv"_a.none(), "probs"_a, "Visits round(p * 65536) per move, moves below half a quantum dropped.");
  m.def("validate", [](const std::string& path) {
        auto reader = unwrap(stream::Reader::open(path));
        nb::gil_scoped_release release;
        return unwrap(stream::validate_all(reader));
      }, "path"_a, "Reads and validates every record; returns the record count.");
  m.def("_inspect_json", [](const std::string& path) {
        auto reader = unwrap(stream::Reader::open(path));
        stream::StreamStats stats;
        {
          nb::gil_scoped_release release;
          stats = unwrap(stream::inspect(reader));
        }
        return stream::stats_json(path, stats);
      }, "path"_a, "The statistics `manaka stream inspect --json` prints, as JSON text.");
  // Numbers go through as handles so that the checks name the parameter.
  m.def("_import", [](const std::string& from, const std::vector<std::string>& inputs, const std::string& output,
                      nb::handle eval_coef, nb::handle mate_scale, nb::handle mate_slack, bool strict, bool overwrite,
                      bool progress, nb::handle threads) {
        stream::ImportOptions o;
        o.from = unwrap(stream::parse_source_format(from));
        o.inputs = inputs;
        o.output = output;
        o.eval_coef = number_arg(eval_coef, "eval_coef", stream::kMinEvalCoef, stream::kMaxEvalCoef, false,
                                 "a number of centipawns");
        o.mate_scale = static_cast<int>(int_arg(mate_scale, "mate_scale", 1, 32767));
        o.mate_slack = static_cast<int>(int_arg(mate_slack, "mate_slack", 0, 65535));
        o.threads = static_cast<int>(int_arg(threads, "threads", 0, kMaxThreadsAsked));
        auto conv = unwrap(teacher::Conventions::make(o.eval_coef, o.mate_scale, o.mate_slack));
        o.value_q = [conv](int64_t cp) { return conv.value_q(cp); };
        o.strict = strict;
        o.overwrite = overwrite;
        o.progress = progress;
        return stream::import_summary_json(unwrap(without_gil([&] { return stream::import_stream(o); })));
      }, "from_"_a, "inputs"_a, "output"_a, "eval_coef"_a.none(), "mate_scale"_a.none(), "mate_slack"_a.none() = 0,
      "strict"_a = false, "overwrite"_a = false, "progress"_a = false, "threads"_a.none() = 0,
      "psv / hcpe / hcpe3 files -> one MPK1 stream; the summary as JSON text.");
  m.def("_export", [](const std::string& to, const std::vector<std::string>& inputs, const std::string& output,
                      nb::handle eval_coef, nb::handle result_threshold, bool strict, bool overwrite, bool progress) {
        stream::ExportOptions o;
        o.to = unwrap(stream::parse_source_format(to));
        o.inputs = inputs;
        o.output = output;
        if (!eval_coef.is_none())
          o.eval_coef = number_arg(eval_coef, "eval_coef", stream::kMinEvalCoef, stream::kMaxEvalCoef, false,
                                   "a number of centipawns");
        o.result_threshold = number_arg(result_threshold, "result_threshold", 0.0, 1.0, false,
                                        "a number from 0 to below 1");
        o.strict = strict;
        o.overwrite = overwrite;
        o.progress = progress;
        return stream::export_summary_json(
            unwrap(without_gil([&] { return shard_export::export_records(o); })));
      }, "to"_a, "inputs"_a, "output"_a, "eval_coef"_a.none() = nb::none(),
      "result_threshold"_a.none() = stream::kDefaultResultThreshold, "strict"_a = false, "overwrite"_a = false,
      "progress"_a = false, "MPK1 streams and shard sets -> psv / hcpe; the summary as JSON text.");
  m.def("_split", [](const std::vector<std::string>& inputs, const std::string& train, const std::string& validation,
                     nb::handle share, nb::handle seed, bool overwrite, bool progress) {
        stream::SplitOptions o;
        o.inputs = inputs;
        o.train = train;
        o.validation = validation;
        o.share = real_arg(share, "share");  // split_stream checks 0 < share < 1
        o.seed = seed_arg(seed);
        o.overwrite = overwrite;
        o.progress = progress;
        return stream::split_summary_json(unwrap(without_gil([&] { return stream::split_stream(o); })));
      }, "inputs"_a, "train"_a, "validation"_a, "share"_a.none(), "seed"_a.none(), "overwrite"_a = false,
      "progress"_a = false, "MPK1 streams -> a training and a validation stream by whole games; the summary as JSON.");
}

}  // namespace manaka::python
