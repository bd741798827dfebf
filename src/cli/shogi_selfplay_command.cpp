// `manaka shogi selfplay`: shogi self-play through the C++ search with a
// PyTorch network (src/selfplay/shogi_selfplay.h).
//
// The network is a PyTorch checkpoint, and the command is native: it checks
// every option here, then hands them, as one JSON object, to the Python
// module that loads the checkpoint (`python -m manaka.selfplay`), which
// calls the same library through manaka._core. The interpreter is the one
// this command was built with (the venv's), or $MANAKA_PYTHON.
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/checks.h"
#include "cli/commands.h"
#include "cli/python_module.h"
#include "core/output.h"
#include "selfplay/shogi_selfplay.h"

namespace manaka::cli {

namespace {

struct SelfPlayArgs {
  selfplay::ShogiSelfPlayOptions o;
  std::string checkpoint;
  std::string device = "auto";
  int torch_threads = 1;  // the search's batches are too small to split (docs/conventions.md)
  bool json = false;
  bool quiet = false;
};

void run(const SelfPlayArgs& a) {
  exit_on_error(selfplay::check_options(a.o));
  exit_on_error(check_dir_not_input(a.o.output, {a.checkpoint}));
  const search::SearchOptions& s = a.o.search;
  nlohmann::ordered_json j = {
      {"game", "shogi"}, {"checkpoint", a.checkpoint}, {"output", a.o.output}, {"games", a.o.games},
      {"max_plies", a.o.max_plies}, {"saz", a.o.saz}, {"overwrite", a.o.overwrite}, {"device", a.device},
      {"torch_threads", a.torch_threads},
      {"json", a.json}, {"quiet", a.quiet},
      {"search", {{"simulations", s.simulations}, {"c_puct", s.c_puct}, {"dirichlet_alpha", s.dirichlet_alpha},
                  {"dirichlet_epsilon", s.dirichlet_epsilon}, {"temperature", s.temperature},
                  {"temperature_plies", s.temperature_plies}, {"batch_size", s.batch_size},
                  {"threads", s.threads}, {"exact_batches", s.exact_batches}, {"seed", s.seed}}}};
  exec_python_module("manaka.selfplay", j.dump(), "shogi selfplay", "manaka and torch");
}

}  // namespace

void add_shogi_selfplay(CLI::App* parent) {
  auto a = std::make_shared<SelfPlayArgs>();
  search::SearchOptions& s = a->o.search;
  auto* cmd = parent->add_subcommand("selfplay", "games against itself through the search with a network: MPK1 (and SAZ2)");
  cmd->add_option("--checkpoint", a->checkpoint, "the network: a checkpoint of a shogi PolicyValueNet (best_net)")
      ->required();
  cmd->add_option("-o,--output", a->o.output, "the output directory (selfplay.mpk, selfplay.saz)")->required();
  cmd->add_option("--games", a->o.games, "games to play")->capture_default_str()->transform(checks::integer(1, selfplay::kMaxGames));
  cmd->add_option("--max-plies", a->o.max_plies, "plies after which a game is a draw")
      ->capture_default_str()->transform(checks::integer(1, selfplay::kMaxPlies));
  cmd->add_option("--simulations", s.simulations, "search simulations a move")
      ->capture_default_str()->transform(checks::integer(1, search::kMaxSimulations));
  cmd->add_option("--batch-size", s.batch_size, "leaves one game's search gathers a round; a network call holds up to threads x this")
      ->capture_default_str()->transform(checks::integer(1, search::kMaxBatchSize));
  cmd->add_option("--threads", s.threads, "search threads (games played at once)")
      ->capture_default_str()->transform(checks::integer(1, search::kMaxThreads));
  cmd->add_option("--c-puct", s.c_puct, "exploration constant")->capture_default_str()->transform(checks::number(0, 1e6, true));
  cmd->add_option("--dirichlet-alpha", s.dirichlet_alpha, "root noise concentration")
      ->capture_default_str()->transform(checks::number(0, 1e6, true));
  cmd->add_option("--dirichlet-epsilon", s.dirichlet_epsilon, "share of root noise (0: none)")
      ->capture_default_str()->transform(checks::number(0, 1, false));
  cmd->add_option("--temperature", s.temperature, "move choice ~ visits^(1/T) in the first plies (0: most visited)")
      ->capture_default_str()->transform(checks::number(0, 1e6, false));
  cmd->add_option("--temperature-plies", s.temperature_plies, "plies played with the temperature")
      ->capture_default_str()->transform(checks::integer(0, 1'000'000));
  cmd->add_option("--seed", s.seed, "seed of the noise and the move choices")->capture_default_str()->transform(checks::seed());
  cmd->add_option("--device", a->device, "torch device for the network (auto: cuda when there is one)")->capture_default_str();
  cmd->add_option("--torch-threads", a->torch_threads,
                  "torch's CPU threads for the network (0: torch's own count, which collapses on a shared CPU)")
      ->capture_default_str()
      ->transform(checks::integer(0, 1024));
  cmd->add_flag("--exact-batches", s.exact_batches,
                "each search round its own network call: the same bytes for any --threads even on a CPU network "
                "(slower on a GPU)");
  cmd->add_flag("--saz", a->o.saz, "also write the games as one SAZ2 chunk (selfplay.saz)");
  cmd->add_flag("--overwrite", a->o.overwrite, "replace an existing output directory");
  cmd->add_flag("--json", a->json, "print the summary as one JSON object");
  cmd->add_flag("-q,--quiet", a->quiet, "no progress line");
  cmd->callback([a] { run(*a); });
}

}  // namespace manaka::cli
