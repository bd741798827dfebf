// `manaka report PATH... -o report.html`: one self-contained HTML page of
// figures and board pictures over any of the project's formats.
//
// The figures are matplotlib's, so the page is written by the Python module
// `manaka.report` (python/manaka/report): the options are checked here, the
// inputs must exist, and the command then becomes that module
// (cli/python_module.h), which reads everything through the C++ readers.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/checks.h"
#include "cli/commands.h"
#include "cli/python_module.h"
#include "core/output.h"

namespace manaka::cli {

namespace {

constexpr int64_t kMaxRowsLimit = 100'000'000;
constexpr int kMaxBoards = 200;

struct ReportArgs {
  std::vector<std::string> inputs;
  std::string output;
  std::string valid;
  double eval_coef = 0.0;
  int64_t max_rows = 200'000;
  int boards = 6;
  bool json = false;
  bool overwrite = false;
};

void run(const ReportArgs& a) {
  namespace fs = std::filesystem;
  for (const std::string& p : a.inputs) {
    std::error_code ec;
    if (!fs::exists(p, ec)) exit_on_error(Status::io(p + ": no such file or directory"));
  }
  if (!a.valid.empty() && !fs::exists(a.valid)) exit_on_error(Status::io(a.valid + ": no such file or directory"));
  const fs::path parent = fs::path(a.output).parent_path();
  if (!parent.empty() && !fs::is_directory(parent))
    exit_on_error(Status::io(a.output + ": the directory " + parent.string() + " does not exist"));
  std::vector<std::string> read = a.inputs;
  if (!a.valid.empty()) read.push_back(a.valid);
  exit_on_error(check_output(a.output, read, a.overwrite));
  nlohmann::ordered_json j = {{"inputs", a.inputs}, {"output", a.output}, {"max_rows", a.max_rows},
                              {"boards", a.boards}, {"json", a.json},
                              {"overwrite", a.overwrite}};
  j["valid"] = a.valid.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(a.valid);
  j["eval_coef"] = a.eval_coef > 0 ? nlohmann::ordered_json(a.eval_coef) : nlohmann::ordered_json(nullptr);
  exec_python_module("manaka.report", j.dump(), "report", "manaka and matplotlib (pip install manaka[report])");
}

}  // namespace

void add_report_command(CLI::App& app) {
  auto a = std::make_shared<ReportArgs>();
  auto* cmd = app.add_subcommand(
      "report", "one HTML page of distributions, boards with their policy targets, shuffle and leak checks");
  cmd->add_option("inputs", a->inputs,
                  "MPK1 streams, shard sets (directories), SAZ2 chunks, chess npz corpora, VPD1 files, "
                  "teacher corpora, training metrics (JSON lines)")
      ->required();
  cmd->add_option("-o,--output", a->output, "the HTML file to write")->required();
  cmd->add_option("--validation,--valid", a->valid, "a validation shard set: its own section, and every shard set checked against it");
  cmd->add_option("--eval-coef", a->eval_coef, "the coefficient the data was converted with, drawn beside the fitted one")
      ->transform(checks::number(1.0, 100000.0, false, "a number of centipawns"));
  cmd->add_option("--max-rows", a->max_rows, "rows drawn from each input at most")
      ->capture_default_str()
      ->transform(checks::integer(1, kMaxRowsLimit));
  cmd->add_option("--boards", a->boards, "board pictures per input")
      ->capture_default_str()
      ->transform(checks::integer(0, kMaxBoards));
  cmd->add_flag("--overwrite", a->overwrite, "replace an existing output, once the new one is complete (an input never)");
  cmd->add_flag("--json", a->json, "print what the report holds as one JSON object");
  cmd->callback([a] { run(*a); });
}

}  // namespace manaka::cli
