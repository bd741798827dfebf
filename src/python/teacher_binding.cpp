// manaka.teacher: generate and convert (summaries handed over as the same
// JSON object the command prints with --json, parsed by the Python module),
// and the engine client (USI or UCI).
#include <nanobind/nanobind.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/unique_ptr.h>
#include <nanobind/stl/vector.h>

#include <cfloat>
#include <climits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "python/bindings.h"
#include "python/checks.h"
#include "python/errors.h"
#include "teacher/convert.h"
#include "teacher/fit_coef.h"
#include "teacher/generate.h"
#include "teacher/report.h"
#include "stream/header.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace manaka::python {
namespace {

// depth, nodes and movetime_ms: None, or at least 1.
engine::SearchLimit limit_of(nb::handle depth, nb::handle nodes, nb::handle movetime_ms = nb::none()) {
  engine::SearchLimit limit;
  if (!depth.is_none()) limit.depth = static_cast<int>(int_arg(depth, "depth", 1, INT_MAX));
  if (!nodes.is_none()) limit.nodes = uint_arg(nodes, "nodes", 1);
  if (!movetime_ms.is_none()) limit.movetime_ms = static_cast<int>(int_arg(movetime_ms, "movetime_ms", 1, INT_MAX));
  return limit;
}

int timeout_ms(nb::handle seconds, const char* name) {
  return static_cast<int>(number_arg(seconds, name, 0.0, engine::kMaxTimeoutSeconds, true, "a number of seconds") *
                          1000.0);
}

std::string convert(const std::vector<std::string>& inputs, const std::string& output, nb::handle eval_coef,
                    nb::handle mate_scale, nb::handle mate_slack, nb::handle fv_scale,
                    const std::map<std::string, std::string>& columns, bool strict, bool progress,
                    nb::handle threads, bool overwrite) {
  teacher::ConvertOptions o;
  o.inputs = inputs;
  o.output = output;
  // The header's rule (stream/header.h): what a converter can use.
  o.eval_coef = number_arg(eval_coef, "eval_coef", stream::kMinEvalCoef, stream::kMaxEvalCoef, false,
                           "a number of centipawns");
  o.mate_scale = static_cast<int>(int_arg(mate_scale, "mate_scale", 1, 32767));
  o.mate_slack = static_cast<int>(int_arg(mate_slack, "mate_slack", 0, 65535));
  o.fv_scale = static_cast<int>(int_arg(fv_scale, "fv_scale", 0, 65535));
  o.strict = strict;
  o.progress = progress;
  o.threads = static_cast<int>(int_arg(threads, "threads", 0, kMaxThreadsAsked));
  o.overwrite = overwrite;
  for (const auto& [field, column] : columns) raise_if_error(o.columns.set(field + "=" + column));
  return teacher::summary_json(unwrap(without_gil([&] { return teacher::convert(o); })));
}

std::string generate(const std::string& engine_path, const std::string& output, nb::handle games,
                     nb::handle multipv, nb::handle depth, nb::handle nodes, nb::handle workers, nb::handle seed,
                     nb::handle opening_plies, nb::handle max_plies, nb::handle mate_scale,
                     const std::map<std::string, std::string>& engine_options, nb::handle engine_timeout,
                     bool progress, bool overwrite, nb::handle first_game) {
  teacher::GenerateOptions o;
  o.engine.path = engine_path;
  o.engine.multipv = static_cast<int>(int_arg(multipv, "multipv", 1, teacher::kMaxMultiPv));
  for (const auto& kv : engine_options) o.engine.options.push_back(kv);
  o.engine.search_timeout_ms = timeout_ms(engine_timeout, "engine_timeout");
  o.limit = limit_of(depth, nodes);
  o.output = output;
  o.games = static_cast<int>(int_arg(games, "games", 1, INT_MAX));
  o.first_game = uint_arg(first_game, "first_game", 0, teacher::kMaxFirstGame);
  o.workers = static_cast<int>(int_arg(workers, "workers", 0, teacher::kMaxWorkers));  // 0: one per core
  o.seed = seed_arg(seed);
  o.opening_plies = static_cast<int>(int_arg(opening_plies, "opening_plies", 0, teacher::kMaxPlies));
  o.max_plies = static_cast<int>(int_arg(max_plies, "max_plies", 1, teacher::kMaxPlies));
  o.mate_scale = static_cast<int>(int_arg(mate_scale, "mate_scale", teacher::kMinMateScale, teacher::kMaxMateScale));
  o.progress = progress;
  o.overwrite = overwrite;
  return teacher::summary_json(unwrap(without_gil([&] { return teacher::generate(o); })));
}

nb::dict pv_line_dict(const engine::PvLine& line) {
  nb::dict d;
  d["multipv"] = line.multipv;
  d["depth"] = line.depth;
  d["kind"] = line.score.is_mate() ? "mate" : "cp";
  d["value"] = line.score.value;
  d["mate_distance_known"] = line.score.mate_distance_known;
  if (line.wdl) d["wdl"] = nb::make_tuple(line.wdl->win, line.wdl->draw, line.wdl->loss);
  else d["wdl"] = nb::none();
  d["move"] = line.move;
  return d;
}

}  // namespace

void bind_teacher(nb::module_ m) {
  m.def("fit_coef", [](const std::vector<std::string>& inputs, nb::handle mate_scale, nb::handle mate_slack,
                       const std::map<std::string, std::string>& columns, nb::handle bin_cp, nb::handle calibration_cp) {
        teacher::FitCoefOptions o;
        o.inputs = inputs;
        o.mate_scale = static_cast<int>(int_arg(mate_scale, "mate_scale", 1, 32767));
        o.mate_slack = static_cast<int>(int_arg(mate_slack, "mate_slack", 0, 65535));
        o.bin_cp = number_arg(bin_cp, "bin_cp", 0.0, 1e6, true, "a number of centipawns");
        o.calibration_cp = number_arg(calibration_cp, "calibration_cp", 0.0, 1e6, true, "a number of centipawns");
        for (const auto& [field, column] : columns) raise_if_error(o.columns.set(field + "=" + column));
        return teacher::fit_json(unwrap(without_gil([&] { return teacher::fit_coef(o); })));
      }, "inputs"_a, "mate_scale"_a.none() = 32000, "mate_slack"_a.none() = 0,
      "columns"_a = std::map<std::string, std::string>{}, "bin_cp"_a.none() = teacher::kDefaultBinCp,
      "calibration_cp"_a.none() = teacher::kDefaultCalibrationCp,
      "The eval_coef a corpus's game results fit by maximum likelihood; the summary as a JSON string.");

  // Numeric parameters take None too, so that the check names them (TypeError).
  m.def("convert", &convert, "inputs"_a, "output"_a, "eval_coef"_a.none(), "mate_scale"_a.none(),
        "mate_slack"_a.none() = 0, "fv_scale"_a.none() = 0, "columns"_a = std::map<std::string, std::string>{}, "strict"_a = false,
        "progress"_a = false, "threads"_a.none() = 0, "overwrite"_a = false,
        "Teacher corpora -> one MPK1 stream; the summary as a JSON string.");
  const teacher::GenerateOptions d;
  m.def("generate", &generate, "engine"_a, "output"_a, "games"_a.none(), "multipv"_a.none() = d.engine.multipv,
        "depth"_a = nb::none(), "nodes"_a = nb::none(), "workers"_a.none() = d.workers, "seed"_a.none() = d.seed,
        "opening_plies"_a.none() = d.opening_plies, "max_plies"_a.none() = d.max_plies,
        "mate_scale"_a.none() = d.mate_scale, "engine_options"_a = std::map<std::string, std::string>{},
        "engine_timeout"_a.none() = d.engine.search_timeout_ms / 1000.0, "progress"_a = false, "overwrite"_a = false,
        "first_game"_a.none() = d.first_game,
        "Engine games -> a teacher corpus (parquet); the summary as a JSON string.");
  m.def("generate_defaults", [d] {
        nb::dict out;
        out["multipv"] = d.engine.multipv;
        out["workers"] = d.workers;
        out["seed"] = d.seed;
        out["opening_plies"] = d.opening_plies;
        out["max_plies"] = d.max_plies;
        out["mate_scale"] = d.mate_scale;
        out["engine_timeout"] = d.engine.search_timeout_ms / 1000.0;
        return out;
      }, "generate()'s defaults, defined once in C++ (teacher/generate.h).");

  nb::class_<engine::Engine>(m, "_Engine", "One USI or UCI engine process.")
      .def_static(
          "start",
          [](const std::string& path, nb::handle multipv, const std::map<std::string, std::string>& options,
             nb::handle handshake_timeout, nb::handle search_timeout, const std::string& protocol,
             std::optional<int> elo) {
            engine::EngineOptions o;
            o.path = path;
            auto p = engine::parse_protocol(protocol);
            if (!p) raise_if_error(Status::usage("engine protocol \"" + protocol + "\": expected usi or uci"));
            o.protocol = *p;
            o.multipv = static_cast<int>(int_arg(multipv, "multipv", 1, teacher::kMaxMultiPv));
            o.elo = elo;
            for (const auto& kv : options) o.options.push_back(kv);
            o.handshake_timeout_ms = timeout_ms(handshake_timeout, "timeout");
            o.search_timeout_ms = timeout_ms(search_timeout, "search_timeout");
            Result<std::unique_ptr<engine::Engine>> e = Status::invalid("not started");
            {
              nb::gil_scoped_release release;
              e = engine::Engine::start(o);
            }
            return unwrap(std::move(e));
          },
          "path"_a, "multipv"_a.none() = 1, "options"_a = std::map<std::string, std::string>{},
          "handshake_timeout"_a.none() = 30.0, "search_timeout"_a.none() = 60.0, "protocol"_a = "usi",
          "elo"_a = nb::none())
      .def("new_game",
           [](engine::Engine& e) {
             Status st;
             {
               nb::gil_scoped_release release;
               st = e.new_game();
             }
             raise_if_error(std::move(st));
           })
      .def(
          "search",
          [](engine::Engine& e, const std::string& position, nb::handle depth, nb::handle nodes,
             nb::handle movetime_ms) {
            const engine::SearchLimit limit = limit_of(depth, nodes, movetime_ms);
            Result<engine::SearchResult> r = Status::invalid("not searched");
            {
              nb::gil_scoped_release release;
              r = e.search(position, limit);
            }
            auto found = unwrap(std::move(r));
            nb::list lines;
            for (const auto& line : found.lines) lines.append(pv_line_dict(line));
            nb::dict d;
            d["lines"] = lines;
            d["bestmove"] = found.bestmove;
            d["seconds"] = found.seconds;
            return d;
          },
          "position"_a, "depth"_a = nb::none(), "nodes"_a = nb::none(), "movetime_ms"_a = nb::none())
      .def("restart",
           [](engine::Engine& e) {
             Status st;
             {
               nb::gil_scoped_release release;
               st = e.restart();
             }
             raise_if_error(std::move(st));
           })
      .def("quit", [](engine::Engine& e) {
        nb::gil_scoped_release release;
        e.quit();
      })
      .def_prop_ro("alive", &engine::Engine::alive)
      .def_prop_ro("name", &engine::Engine::name)
      .def_prop_ro("path", &engine::Engine::path)
      .def_prop_ro("restarts", &engine::Engine::restarts)
      .def_prop_ro("position_word", [](const engine::Engine& e) { return std::string(e.dialect().position_word); })
      .def_prop_ro("wait_seconds", &engine::Engine::wait_seconds);
}

}  // namespace manaka::python
