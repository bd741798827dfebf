// `manaka teacher generate | convert`: teacher corpora from engine games, and
// their conversion to MPK1 (teacher/generate.h, teacher/convert.h).
//
//   manaka teacher generate --engine PATH --games N --multipv 5 (--depth D | --nodes N)
//       [--workers W] -o corpus.parquet [--seed S] [--first-game I] [--opening-plies K] [--max-plies M]
//       [--mate-scale 32000] [--engine-option NAME=VALUE ...] [--engine-timeout SECONDS]
//       [--flush-rows 4096] [--flush-seconds 10]
//   manaka teacher convert CORPUS... -o OUT.mpk --eval-coef C --mate-scale S
//       [--mate-slack K] [--fv-scale F] [--column NAME=COL ...] [--strict] [--threads T]
//
//   manaka teacher fit-coef CORPUS... [--mate-scale 32000] [--mate-slack K] [--bin-cp 100]
//       [--column NAME=COL ...]
//
// All print their summary on stdout (--json: one JSON object instead).
#include <cfloat>
#include <climits>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cli/checks.h"
#include "cli/commands.h"
#include "teacher/convert.h"
#include "teacher/fit_coef.h"
#include "teacher/generate.h"
#include "teacher/report.h"
#include "stream/header.h"

namespace manaka::cli {

namespace {

// Thread counts beyond this are refused as typos; convert uses 16 at most.
constexpr int kMaxThreadsAsked = 256;

void add_generate(CLI::App& parent) {
  auto* cmd = parent.add_subcommand("generate", "play engine games and write a teacher corpus (parquet)");
  struct Args {
    teacher::GenerateOptions o;
    std::vector<std::string> engine_options;
    double timeout_s = 60.0;
    bool json = false, quiet = false;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("--engine", a->o.engine.path, "USI engine executable (e.g. /usr/games/fairy-stockfish)")
      ->required();
  cmd->add_option("--games", a->o.games, "games to play")->required()->transform(checks::integer(1, INT_MAX));
  cmd->add_option("--first-game", a->o.first_game,
                  "index of the first game: plays games [I, I + N), each the same as in a run from 0")
      ->capture_default_str()
      ->transform(checks::unsigned_integer(0, teacher::kMaxFirstGame));
  cmd->add_option("--multipv", a->o.engine.multipv, "candidates per position")
      ->capture_default_str()
      ->transform(checks::integer(1, teacher::kMaxMultiPv));
  auto* depth = cmd->add_option("--depth", a->o.limit.depth, "search depth per position")
                    ->transform(checks::integer(1, INT_MAX));
  auto* nodes = cmd->add_option("--nodes", a->o.limit.nodes, "search nodes per position")
                    ->transform(checks::unsigned_integer(1));
  depth->excludes(nodes);
  cmd->add_option("--workers", a->o.workers, "games played at once, one engine process each (0: one per core)")
      ->capture_default_str()
      ->transform(checks::integer(0, teacher::kMaxWorkers));
  cmd->add_option("-o,--output", a->o.output, "corpus parquet file")->required();
  cmd->add_flag("--overwrite", a->o.overwrite, "replace an existing output, once the new one is complete (an input never)");
  cmd->add_option("--seed", a->o.seed, "seed of the random openings and move choices")
      ->capture_default_str()
      ->transform(checks::seed());
  cmd->add_option("--opening-plies", a->o.opening_plies, "random legal plies before the engine plays")
      ->capture_default_str()
      ->transform(checks::integer(0, teacher::kMaxPlies));
  cmd->add_option("--max-plies", a->o.max_plies, "a game reaching this ply is a draw")
      ->capture_default_str()
      ->transform(checks::integer(1, teacher::kMaxPlies));
  cmd->add_option("--mate-scale", a->o.mate_scale, "score mate N becomes +-(mate_scale - |N|)")
      ->capture_default_str()
      ->transform(checks::integer(teacher::kMinMateScale, teacher::kMaxMateScale));
  cmd->add_option("--engine-option", a->engine_options, "setoption NAME=VALUE (repeatable), e.g. Hash=64")
      ->allow_extra_args(false);
  cmd->add_option("--engine-timeout", a->timeout_s, "seconds without bestmove before an engine counts as stalled")
      ->capture_default_str()
      ->transform(checks::number(0.0, engine::kMaxTimeoutSeconds, true, "a number of seconds"));
  cmd->add_option("--flush-rows", a->o.flush_rows, "flush completed games to OUT.partial every N rows")
      ->capture_default_str()
      ->transform(checks::integer(1, INT_MAX));
  cmd->add_option("--flush-seconds", a->o.flush_seconds, "... or every S seconds, whichever comes first")
      ->capture_default_str()
      ->transform(checks::number(0.0, DBL_MAX, true, "a number of seconds"));
  cmd->add_flag("--json", a->json, "print the summary as one JSON object");
  cmd->add_flag("-q,--quiet", a->quiet, "no progress line");
  cmd->callback([a] {
    if (a->o.limit.depth <= 0 && a->o.limit.nodes == 0)
      exit_on_error(Status::invalid("teacher generate: give --depth D or --nodes N"));
    for (const std::string& kv : a->engine_options) {
      size_t eq = kv.find('=');
      if (eq == std::string::npos || eq == 0)
        exit_on_error(Status::usage("--engine-option \"" + kv + "\": expected NAME=VALUE"));
      a->o.engine.options.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
    }
    a->o.engine.search_timeout_ms = static_cast<int>(a->timeout_s * 1000.0);
    a->o.progress = !a->quiet && !a->json;
    auto summary = teacher::generate(a->o);
    exit_on_error(summary.status());
    if (a->json) {
      std::printf("%s\n", teacher::summary_json(*summary).c_str());
    } else {
      std::fputs(teacher::format_summary(*summary).c_str(), stdout);
    }
  });
}

void add_convert(CLI::App& parent) {
  auto* cmd = parent.add_subcommand("convert", "teacher corpora (parquet, JSON lines) -> one MPK1 stream");
  struct Args {
    teacher::ConvertOptions o;
    std::vector<std::string> columns;
    bool json = false, quiet = false;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("corpus", a->o.inputs, "corpus files (parquet, .jsonl) or directories of parquet files")
      ->required();
  cmd->add_option("-o,--output", a->o.output, "MPK1 stream to write")->required();
  cmd->add_flag("--overwrite", a->o.overwrite, "replace an existing output, once the new one is complete (an input never)");
  cmd->add_option("--eval-coef", a->o.eval_coef, "value_q = tanh(cp / (2 * C)); stored as a float")
      ->required()
      ->transform(checks::number(stream::kMinEvalCoef, stream::kMaxEvalCoef, false, "a number of centipawns"));
  cmd->add_option("--mate-scale", a->o.mate_scale, "the cp value the corpus's mates fold to")
      ->required()
      ->transform(checks::integer(1, 32767));
  cmd->add_option("--mate-slack", a->o.mate_slack, "mates reach mate_scale - K (0: the default 320)")
      ->capture_default_str()
      ->transform(checks::integer(0, 65535));
  cmd->add_option("--fv-scale", a->o.fv_scale, "FV_SCALE of the generating engine (0: not stated)")
      ->capture_default_str()
      ->transform(checks::integer(0, 65535));
  cmd->add_option("--column", a->columns, "NAME=COL: read field NAME from column COL (repeatable)")
      ->allow_extra_args(false);
  cmd->add_flag("--strict", a->o.strict, "stop at the first refused row, naming file and row");
  cmd->add_option("--threads", a->o.threads, "converting threads (0: one per hardware thread; 16 at most are used)")
      ->capture_default_str()
      ->transform(checks::integer(0, kMaxThreadsAsked));
  cmd->add_flag("--json", a->json, "print the summary as one JSON object");
  cmd->add_flag("-q,--quiet", a->quiet, "no progress line");
  cmd->callback([a] {
    for (const std::string& c : a->columns) exit_on_error(a->o.columns.set(c));
    a->o.progress = !a->quiet && !a->json;
    auto summary = teacher::convert(a->o);
    exit_on_error(summary.status());
    if (a->json) {
      std::printf("%s\n", teacher::summary_json(*summary).c_str());
    } else {
      std::fputs(teacher::format_summary(*summary).c_str(), stdout);
    }
  });
}

void add_fit_coef(CLI::App& parent) {
  auto* cmd = parent.add_subcommand(
      "fit-coef", "fit eval_coef (cp -> expected result) to the corpus's game results; interval and calibration curve");
  struct Args {
    teacher::FitCoefOptions o;
    std::vector<std::string> columns;
    bool json = false;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("corpus", a->o.inputs, "corpus files (parquet, .jsonl) or directories of parquet files")
      ->required();
  cmd->add_option("--mate-scale", a->o.mate_scale, "the cp value the corpus's mates fold to (mates are left out)")
      ->capture_default_str()
      ->transform(checks::integer(1, 32767));
  cmd->add_option("--mate-slack", a->o.mate_slack, "mates reach mate_scale - K (0: the default 320)")
      ->capture_default_str()
      ->transform(checks::integer(0, 65535));
  cmd->add_option("--bin-cp", a->o.bin_cp, "width of the calibration curve's cp bins")
      ->capture_default_str()
      ->transform(checks::number(0.0, 1e6, true, "a number of centipawns"));
  cmd->add_option("--calibration-cp", a->o.calibration_cp, "the curve covers cp in [-X, X) (the outer bins take the rest)")
      ->capture_default_str()
      ->transform(checks::number(0.0, 1e6, true, "a number of centipawns"));
  cmd->add_option("--column", a->columns, "NAME=COL: read field NAME from column COL (repeatable)")
      ->allow_extra_args(false);
  cmd->add_flag("--json", a->json, "print the fit as one JSON object");
  cmd->callback([a] {
    for (const std::string& c : a->columns) exit_on_error(a->o.columns.set(c));
    auto summary = teacher::fit_coef(a->o);
    exit_on_error(summary.status());
    if (a->json) {
      std::printf("%s\n", teacher::fit_json(*summary).c_str());
    } else {
      std::fputs(teacher::format_fit(*summary).c_str(), stdout);
    }
  });
}

}  // namespace

void add_teacher_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("teacher", "teacher data: engine-generated corpora and their conversion to MPK1");
  cmd->require_subcommand(1);
  add_generate(*cmd);
  add_convert(*cmd);
  add_fit_coef(*cmd);
}

}  // namespace manaka::cli
