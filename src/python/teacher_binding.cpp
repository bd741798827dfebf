// manaka.teacher: generate and convert (summaries handed over as the same
// JSON object the command prints with --json, parsed by the Python module),
// and the engine client (USI or UCI).
#include <nanobind/nanobind.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/unique_ptr.h>
#include <nanobind/stl/vector.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "python/bindings.h"
#include "python/errors.h"
#include "teacher/convert.h"
#include "teacher/generate.h"
#include "teacher/report.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace manaka::python {
namespace {

engine::SearchLimit limit_of(std::optional<int> depth, std::optional<uint64_t> nodes,
                             std::optional<int> movetime_ms = std::nullopt) {
  engine::SearchLimit limit;
  if (depth) limit.depth = *depth;
  if (nodes) limit.nodes = *nodes;
  if (movetime_ms) limit.movetime_ms = *movetime_ms;
  return limit;
}

std::string convert(const std::vector<std::string>& inputs, const std::string& output, double eval_coef,
                    int mate_scale, int mate_slack, int fv_scale,
                    const std::map<std::string, std::string>& columns, bool strict, bool progress,
                    int threads, bool overwrite) {
  teacher::ConvertOptions o;
  o.inputs = inputs;
  o.output = output;
  o.eval_coef = eval_coef;
  o.mate_scale = mate_scale;
  o.mate_slack = mate_slack;
  o.fv_scale = fv_scale;
  o.strict = strict;
  o.progress = progress;
  o.threads = threads;
  o.overwrite = overwrite;
  for (const auto& [field, column] : columns) raise_if_error(o.columns.set(field + "=" + column));
  Result<teacher::ConvertSummary> s = Status::invalid("not run");
  {
    nb::gil_scoped_release release;
    s = teacher::convert(o);
  }
  return teacher::summary_json(unwrap(std::move(s)));
}

std::string generate(const std::string& engine_path, const std::string& output, int games, int multipv,
                     std::optional<int> depth, std::optional<uint64_t> nodes, int workers, uint64_t seed,
                     int opening_plies, int max_plies, int mate_scale,
                     const std::map<std::string, std::string>& engine_options, double engine_timeout,
                     bool progress, bool overwrite) {
  teacher::GenerateOptions o;
  o.engine.path = engine_path;
  o.engine.multipv = multipv;
  for (const auto& kv : engine_options) o.engine.options.push_back(kv);
  o.engine.search_timeout_ms = static_cast<int>(engine_timeout * 1000.0);
  o.limit = limit_of(depth, nodes);
  o.output = output;
  o.games = games;
  o.workers = workers;
  o.seed = seed;
  o.opening_plies = opening_plies;
  o.max_plies = max_plies;
  o.mate_scale = mate_scale;
  o.progress = progress;
  o.overwrite = overwrite;
  Result<teacher::GenerateSummary> s = Status::invalid("not run");
  {
    nb::gil_scoped_release release;
    s = teacher::generate(o);
  }
  return teacher::summary_json(unwrap(std::move(s)));
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
  m.def("convert", &convert, "inputs"_a, "output"_a, "eval_coef"_a, "mate_scale"_a, "mate_slack"_a = 0,
        "fv_scale"_a = 0, "columns"_a = std::map<std::string, std::string>{}, "strict"_a = false,
        "progress"_a = false, "threads"_a = 0, "overwrite"_a = false,
        "Teacher corpora -> one MPK1 stream; the summary as a JSON string.");
  m.def("generate", &generate, "engine"_a, "output"_a, "games"_a, "multipv"_a = 5, "depth"_a = nb::none(),
        "nodes"_a = nb::none(), "workers"_a = 1, "seed"_a = 0, "opening_plies"_a = 0, "max_plies"_a = 320,
        "mate_scale"_a = 32000, "engine_options"_a = std::map<std::string, std::string>{},
        "engine_timeout"_a = 60.0, "progress"_a = false, "overwrite"_a = false,
        "Engine games -> a teacher corpus (parquet); the summary as a JSON string.");

  nb::class_<engine::Engine>(m, "_Engine", "One USI or UCI engine process.")
      .def_static(
          "start",
          [](const std::string& path, int multipv, const std::map<std::string, std::string>& options,
             double handshake_timeout, double search_timeout, const std::string& protocol,
             std::optional<int> elo) {
            engine::EngineOptions o;
            o.path = path;
            auto p = engine::parse_protocol(protocol);
            if (!p) raise_if_error(Status::invalid("engine protocol \"" + protocol + "\": expected usi or uci"));
            o.protocol = *p;
            o.multipv = multipv;
            o.elo = elo;
            for (const auto& kv : options) o.options.push_back(kv);
            o.handshake_timeout_ms = static_cast<int>(handshake_timeout * 1000.0);
            o.search_timeout_ms = static_cast<int>(search_timeout * 1000.0);
            Result<std::unique_ptr<engine::Engine>> e = Status::invalid("not started");
            {
              nb::gil_scoped_release release;
              e = engine::Engine::start(o);
            }
            return unwrap(std::move(e));
          },
          "path"_a, "multipv"_a = 1, "options"_a = std::map<std::string, std::string>{},
          "handshake_timeout"_a = 30.0, "search_timeout"_a = 60.0, "protocol"_a = "usi", "elo"_a = nb::none())
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
          [](engine::Engine& e, const std::string& position, std::optional<int> depth,
             std::optional<uint64_t> nodes, std::optional<int> movetime_ms) {
            Result<engine::SearchResult> r = Status::invalid("not searched");
            {
              nb::gil_scoped_release release;
              r = e.search(position, limit_of(depth, nodes, movetime_ms));
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
