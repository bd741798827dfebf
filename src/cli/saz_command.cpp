// `manaka saz inspect | validate | to-mpk`: SAZ2 v4 sazpack files (one chunk
// each, as rsshogi writes them) from the command line.
//
//   manaka saz inspect FILE [--json]        header, counts, results, reasons
//   manaka saz validate FILE... [--replay]  "FILE: ok, G games, P positions" or
//                                           "FILE: <error>" per file; exit
//                                           status 1 if any is invalid
//   manaka saz to-mpk FILE... -o OUT.mpk    every position an MPK1 self-play
//                                           record (docs/sazpack.md); written
//                                           to a temporary, renamed when complete

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "core/progress.h"
#include "core/text.h"
#include "core/file.h"
#include "core/output.h"
#include "sazpack/chunk_file.h"
#include "sazpack/codec.h"
#include "sazpack/inspect.h"
#include "sazpack/replay.h"
#include "sazpack/to_mpk.h"

namespace manaka::cli {

namespace {

using sazpack::ChunkStats;
using sazpack::GameResult;

// ---- validate ----

// Codec invariants; with replay, also every game's stem and moves.
Result<ChunkStats> validate_file(const std::string& file, bool replay) {
  MANAKA_ASSIGN_OR_RETURN(sazpack::ChunkFile chunk, sazpack::ChunkFile::open(file));
  MANAKA_ASSIGN_OR_RETURN(sazpack::GameReader reader, sazpack::GameReader::open(chunk.bytes()));
  ChunkStats stats;
  sazpack::SazGame game;
  while (true) {
    auto more = reader.next(game);
    if (!more.ok()) return std::move(more).take_status().with_context(file + ": ");
    if (!*more) break;
    stats.add(game);
    if (!replay) continue;
    sazpack::LegalMoves legal;
    Status st = sazpack::replay_game(game, [&](size_t i, const shogi::Position& pos) -> Status {
      legal.reset(pos);
      for (size_t e = 0; e < game.positions[i].policy.size(); ++e)
        MANAKA_RETURN_NOT_OK(sazpack::legal_policy_move(legal, pos, game.positions[i].policy[e], i, e).status());
      return Status();
    });
    if (!st.ok()) {
      return std::move(st).with_context(file + ": game " + std::to_string(reader.games_read() - 1) + " (byte " +
                                        std::to_string(reader.game_begin()) + "), ");
    }
  }
  return stats;
}

int run_validate(const std::vector<std::string>& files, bool replay) {
  int bad = 0;
  for (const std::string& file : files) {
    auto stats = validate_file(file, replay);
    if (stats.ok()) {
      std::printf("%s: ok, %llu games, %llu positions\n", file.c_str(),
                  static_cast<unsigned long long>(stats->games), static_cast<unsigned long long>(stats->positions));
    } else {
      std::printf("%s\n", stats.status().message().c_str());  // starts with the path
      ++bad;
    }
    std::fflush(stdout);
  }
  return bad ? 1 : 0;
}

// ---- to-mpk ----

void print_conversion(const std::string& label, const sazpack::MpkConversion& c) {
  std::printf("%s: %llu games, %llu written (%llu records), %llu refused", label.c_str(),
              static_cast<unsigned long long>(c.games), static_cast<unsigned long long>(c.games_written),
              static_cast<unsigned long long>(c.records), static_cast<unsigned long long>(c.games_refused()));
  if (c.games_refused()) {
    std::printf(" (");
    const char* sep = "";
    for (size_t v = 0; v < c.refused_by_result.size(); ++v) {
      if (!c.refused_by_result[v]) continue;
      std::printf("%s%s %llu", sep, sazpack::to_string(GameResult(v)),
                  static_cast<unsigned long long>(c.refused_by_result[v]));
      sep = ", ";
    }
    if (c.games_too_long) {
      std::printf("%sover 65536 positions %llu", sep, static_cast<unsigned long long>(c.games_too_long));
    }
    std::printf(")");
  }
  if (c.positions_without_visits) {
    std::printf("; %llu positions without a visited move skipped",
                static_cast<unsigned long long>(c.positions_without_visits));
  }
  std::printf("\n");
}

Status run_to_mpk(const std::vector<std::string>& files, const std::string& out_path, bool overwrite, bool quiet) {
  MANAKA_RETURN_NOT_OK(check_distinct_inputs(files));
  MANAKA_RETURN_NOT_OK(check_output(out_path, files, overwrite));
  PendingFile out(out_path);
  MANAKA_ASSIGN_OR_RETURN(stream::SelfPlayWriter writer, stream::SelfPlayWriter::create(out.path()));
  uint64_t total_bytes = 0;
  for (const std::string& file : files) {
    std::error_code ec;
    total_bytes += std::filesystem::file_size(file, ec);  // 0 when unknown: opening says why
  }
  Progress progress(out_path, total_bytes);
  progress.set_enabled(!quiet);
  sazpack::MpkConversion total;
  Status st;
  uint64_t bytes_before = 0;
  for (const std::string& file : files) {
    auto chunk = sazpack::ChunkFile::open(file);
    if (!chunk.ok()) {
      st = chunk.status();
      break;
    }
    sazpack::MpkConversion one;
    st = sazpack::chunk_to_mpk(chunk->bytes(), writer, one, [&](uint64_t bytes, uint64_t records) {
           progress.update(bytes_before + bytes, total.records + records);
         }).with_context(file + ": ");
    if (!st.ok()) break;
    bytes_before += chunk->bytes().size();
    progress.update(bytes_before, total.records + one.records);
    // Each file's line as it is done (stdout may be a pipe, buffered until exit otherwise).
    if (files.size() > 1) {
      print_conversion(file, one);
      std::fflush(stdout);
    }
    total.add(one);
  }
  progress.finish();
  if (st.ok()) st = writer.close();
  if (st.ok()) st = out.commit();
  if (!st.ok()) {
    (void)writer.close();  // the temporary is removed with `out`
    return st;
  }
  print_conversion(out_path, total);
  return Status();
}

}  // namespace

void add_saz_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("saz", "SAZ2 v4 sazpack self-play files: inspect, validate, to-mpk");
  cmd->require_subcommand(1);

  {
    auto* sub = cmd->add_subcommand("inspect", "counts and distributions of a sazpack file");
    auto file = std::make_shared<std::string>();
    auto json = std::make_shared<bool>(false);
    sub->add_option("FILE", *file, "sazpack file (one SAZ2 chunk)")->required();
    sub->add_flag("--json", *json, "print one JSON object");
    sub->callback([file, json] {
      auto chunk = sazpack::ChunkFile::open(*file);
      exit_on_error(chunk.status());
      auto stats = sazpack::inspect_chunk(chunk->bytes());
      exit_on_error(stats.status().ok() ? Status() : Status(stats.status()).with_context(*file + ": "));
      if (*json) {
        std::printf("%s\n", sazpack::stats_json(*file, *stats).c_str());
      } else {
        std::fputs(sazpack::format_stats(*file, *stats).c_str(), stdout);
      }
    });
  }
  {
    auto* sub = cmd->add_subcommand("validate", "check every invariant of the SAZ2 v4 codec in each file");
    auto files = std::make_shared<std::vector<std::string>>();
    auto replay = std::make_shared<bool>(false);
    sub->add_option("FILE", *files, "sazpack files")->required();
    sub->add_flag("--replay", *replay, "also replay each game: a stem that decodes, legal played and policy moves");
    sub->callback([files, replay] {
      if (run_validate(*files, *replay) != 0) throw CLI::RuntimeError(1);
    });
  }
  {
    auto* sub = cmd->add_subcommand("to-mpk", "convert games into one MPK1 self-play stream");
    auto files = std::make_shared<std::vector<std::string>>();
    auto out = std::make_shared<std::string>();
    sub->add_option("FILE", *files, "sazpack files")->required();
    auto overwrite = std::make_shared<bool>(false);
    sub->add_option("-o,--output", *out, "the MPK1 stream to write")->required();
    sub->add_flag("--overwrite", *overwrite, "replace an existing output, once the new one is complete (an input never)");
    auto quiet = std::make_shared<bool>(false);
    sub->add_flag("-q,--quiet", *quiet, "no progress line");
    sub->callback([files, out, overwrite, quiet] { exit_on_error(run_to_mpk(*files, *out, *overwrite, *quiet)); });
  }
}

}  // namespace manaka::cli
