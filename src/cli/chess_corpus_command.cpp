// `manaka chess corpus -o DIR --games N ...`: Stockfish games into npz
// shards (chess_corpus/generate.h). Options are spelled as issue 13 spells them.
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include "cli/checks.h"
#include "cli/commands.h"
#include "chess_corpus/generate.h"

namespace manaka::cli {

void add_chess_corpus(CLI::App* chess) {
  auto* cmd = chess->add_subcommand(
      "corpus", "Stockfish plays itself from random openings; every position it moved from, with the move and "
                "the game's outcome, into shard_NNNNNN.npz files");
  struct Args {
    chess_corpus::CorpusOptions o;
    double movetime = 0.0;
    bool json = false, quiet = false;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("-o,--output", a->o.output_dir, "the corpus directory (created; continued when it holds one)")
      ->required();
  cmd->add_option("--games", a->o.games, "games the corpus holds when done")
      ->required()
      ->transform(checks::unsigned_integer(1, chess_corpus::kMaxGames));
  cmd->add_option("--first-game", a->o.first_game,
                  "index of the first game: the corpus holds games [I, I + N), each the same as in a run from 0")
      ->capture_default_str()
      ->transform(checks::unsigned_integer(0, chess_corpus::kMaxGames));
  cmd->add_option("--workers", a->o.workers, "games played at once, one engine each (0: one per core)")
      ->capture_default_str()
      ->transform(checks::integer(0, 256));
  auto* movetime = cmd->add_option("--movetime", a->movetime, "seconds a move (the default: 0.05)")
                       ->transform(checks::number(0.0, 3600.0, true, "a number of seconds"));
  auto* nodes = cmd->add_option("--nodes", a->o.limit.nodes, "nodes a move (the same games whatever --workers)")
                    ->transform(checks::unsigned_integer(1));
  auto* depth = cmd->add_option("--depth", a->o.limit.depth, "plies of search a move")
                    ->transform(checks::integer(1, 100));
  movetime->excludes(nodes)->excludes(depth);
  nodes->excludes(depth);
  cmd->add_option("--opening-plies", a->o.opening_plies, "random legal plies before the engine plays")
      ->capture_default_str()
      ->transform(checks::integer(0, 40));
  cmd->add_option("--seed", a->o.seed, "seed of the random openings")->capture_default_str()->transform(checks::seed());
  cmd->add_option("--shard-size", a->o.shard_size, "positions a shard holds at least (whole games)")
      ->capture_default_str()
      ->transform(checks::unsigned_integer(1, uint64_t{1} << 30));
  cmd->add_option("--engine", a->o.engine, "the UCI engine")->capture_default_str();
  cmd->add_option("--hash", a->o.hash_mb, "engine hash in MB")->capture_default_str()->transform(checks::integer(1, 65536));
  cmd->add_flag("--pgn", a->o.pgn, "also write the games as games_NNNNNN.pgn beside their shard");
  cmd->add_flag("--scores", a->o.scores,
                "also store the engine's score of every position (array 'scores', int16 centipawns from the "
                "mover's view, mates near +-30000): a value target besides the game's outcome");
  cmd->add_flag("--overwrite", a->o.overwrite, "start over in a directory that holds a corpus made otherwise");
  cmd->add_flag("--json", a->json, "print the summary as one JSON object");
  cmd->add_flag("-q,--quiet", a->quiet, "no progress line");
  cmd->callback([a] {
    if (a->movetime > 0) a->o.limit.movetime_ms = std::max(1, int(std::lround(a->movetime * 1000.0)));
    a->o.progress = !a->quiet && !a->json;
    auto summary = chess_corpus::generate(a->o);
    exit_on_error(summary.status());
    if (a->json) std::printf("%s\n", chess_corpus::summary_json(*summary).c_str());
    else if (!a->quiet) std::fputs(chess_corpus::format_summary(*summary).c_str(), stdout);
  });
}

}  // namespace manaka::cli
