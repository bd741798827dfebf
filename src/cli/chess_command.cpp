// `manaka chess perft|moves|fen|pgn`: the chess rules core from the shell.
//
// moves and fen take one FEN, or "-" to read one FEN a line from standard
// input and print one line per FEN (moves space-separated), so that a test
// or a pipeline checks thousands of positions in one process. A FEN that is
// refused ends the command with its message (and the input line number)
// on stderr and exit status 1.
//
// pgn reads PGN files (plain, or zstd-compressed whatever their name) and
// prints a summary, or with --positions one line per position before each
// ply: game number (from 1, across the files in the order given, refused
// games counted), ply (0 at the starting position), FEN and result token,
// separated by tabs. Refused games are skipped and reported (each on stderr
// as it comes with --positions, the first ones in the summary); the exit
// status is 1 when a game was refused or a file could not be read to its end.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "chess/movegen.h"
#include "chess/perft.h"
#include "chess/pgn_games.h"
#include "chess/position.h"
#include "cli/checks.h"
#include "cli/commands.h"

namespace manaka::cli {
namespace {

void write(const std::string& text) { write_stdout(text); }

// Calls f(position) for the FEN in `arg`, or for each line of stdin when arg
// is "-"; f appends its output to `out`, written here in large blocks. A
// refused FEN ends the command, naming its line, after what came before it
// has been written.
template <class F>
void for_each_fen(const std::string& arg, std::string& out, F&& f) {
  if (arg != "-") {
    auto pos = chess::Position::from_fen(arg);
    exit_on_error(pos.status());
    f(*pos);
    write(out);
    return;
  }
  std::string line;
  for (size_t n = 1; std::getline(std::cin, line); ++n) {
    auto pos = chess::Position::from_fen(line);
    if (!pos.ok()) {
      write(out);
      std::fflush(stdout);
      exit_on_error(Status::invalid("line " + std::to_string(n) + ": " + pos.status().message()));
    }
    f(*pos);
    if (out.size() > (1 << 16)) write(out), out.clear();
  }
  write(out);
}

void add_perft(CLI::App* parent) {
  auto* cmd = parent->add_subcommand("perft", "count the leaf nodes of the legal move tree");
  struct Options {
    std::string fen;
    int depth = 1;
    bool divide = false;
  };
  auto opt = std::make_shared<Options>();
  cmd->add_option("fen", opt->fen, "a FEN or 'startpos'")->required();
  cmd->add_option("depth", opt->depth, "plies")->required()->transform(checks::integer(1, 12));
  cmd->add_flag("--divide", opt->divide, "print the count below each legal move (UCI, sorted)");
  cmd->callback([opt] {
    auto pos = chess::Position::from_fen(opt->fen);
    exit_on_error(pos.status());
    auto start = std::chrono::steady_clock::now();
    uint64_t nodes = 0;
    if (opt->divide) {
      std::vector<std::pair<std::string, uint64_t>> rows;
      for (auto& [move, n] : chess::perft_divide(*pos, opt->depth)) rows.emplace_back(move.to_uci(), n);
      std::sort(rows.begin(), rows.end());
      for (auto& [uci, n] : rows) {
        std::printf("%s: %llu\n", uci.c_str(), static_cast<unsigned long long>(n));
        nodes += n;
      }
    } else {
      nodes = chess::perft(*pos, opt->depth);
    }
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%llu\n", static_cast<unsigned long long>(nodes));
    std::fprintf(stderr, "perft %d: %llu nodes in %.3f s (%.1f M nodes/s)\n", opt->depth,
                 static_cast<unsigned long long>(nodes), secs, secs > 0 ? nodes / secs / 1e6 : 0.0);
  });
}

void add_moves(CLI::App* parent) {
  auto* cmd = parent->add_subcommand("moves", "print the legal moves in UCI, sorted");
  auto fen = std::make_shared<std::string>();
  cmd->add_option("fen", *fen,
                  "a FEN or 'startpos' (one move a line), or '-': FENs from stdin, one line of "
                  "space-separated moves each")
      ->required();
  cmd->callback([fen] {
    const bool batch = *fen == "-";
    std::string out;
    std::vector<std::string> ucis;
    for_each_fen(*fen, out, [&](const chess::Position& pos) {
      chess::MoveList list;
      chess::generate_legal(pos, list);
      ucis.clear();
      for (chess::Move m : list) ucis.push_back(m.to_uci());
      std::sort(ucis.begin(), ucis.end());
      for (size_t i = 0; i < ucis.size(); ++i) {
        if (batch && i) out += ' ';
        out += ucis[i];
        if (!batch) out += '\n';
      }
      if (batch) out += '\n';
    });
  });
}

void add_fen(CLI::App* parent) {
  auto* cmd = parent->add_subcommand("fen", "print the canonical FEN (python-chess's Board.fen())");
  struct Options {
    std::string fen;
    bool normalized = false;
  };
  auto opt = std::make_shared<Options>();
  cmd->add_option("fen", opt->fen, "a FEN or 'startpos', or '-': FENs from stdin, one a line")->required();
  cmd->add_flag("--normalized", opt->normalized, "fullmove number 1 (VPD1's position identity)");
  cmd->callback([opt] {
    std::string out;
    for_each_fen(opt->fen, out, [&](const chess::Position& pos) {
      out += opt->normalized ? pos.normalized_fen() : pos.fen();
      out += '\n';
    });
  });
}

void add_pgn(CLI::App* parent) {
  auto* cmd = parent->add_subcommand("pgn", "read PGN files (plain or .zst): a summary, or every position");
  struct Options {
    std::vector<std::string> files;
    bool positions = false;
  };
  auto opt = std::make_shared<Options>();
  cmd->add_option("files", opt->files, "PGN files, plain or zstd-compressed (.pgn.zst)")->required();
  cmd->add_flag("--positions", opt->positions,
                "print game<TAB>ply<TAB>fen<TAB>result for the position before each ply, instead of a summary");
  cmd->callback([opt] {
    constexpr size_t OUT_BLOCK = 1 << 16;
    // Every refused game and unreadable file is skipped, counted and named.
    chess::PgnPolicy policy{.skip_refused = true, .skip_unreadable = true, .keep_messages = 10};
    if (opt->positions) policy.on_message = [](const std::string& m) { std::fprintf(stderr, "manaka: %s\n", m.c_str()); };
    chess::PgnGames reader(opt->files, std::move(policy));
    auto start = std::chrono::steady_clock::now();
    chess::PgnGame game;
    std::string out;
    for (;;) {
      auto more = reader.next(game);
      exit_on_error(more.status());
      if (!*more) break;
      if (!opt->positions) continue;
      chess::append_position_lines(game, out);
      if (out.size() > OUT_BLOCK) write(out), out.clear();
    }
    write(out);
    std::fflush(stdout);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::string summary = reader.summary();
    if (opt->positions) std::fputs(summary.c_str(), stderr);
    else write(summary);
    std::fflush(stdout);
    const auto games = reader.games_read(), plies = reader.plies();
    std::fprintf(stderr, "pgn: %llu games, %llu plies in %.3f s (%.0f games/s, %.0f plies/s)\n",
                 static_cast<unsigned long long>(games), static_cast<unsigned long long>(plies), secs,
                 secs > 0 ? double(games) / secs : 0.0, secs > 0 ? double(plies) / secs : 0.0);
    if (reader.games_skipped() > 0 || reader.any_unreadable()) throw CLI::RuntimeError(1);
  });
}

}  // namespace

void add_chess_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("chess", "chess positions: perft, legal moves, canonical FEN, PGN files");
  cmd->require_subcommand(1);
  add_perft(cmd);
  add_moves(cmd);
  add_fen(cmd);
  add_pgn(cmd);
  add_chess_shards_command(cmd);
  add_chess_corpus(cmd);
}

}  // namespace manaka::cli
