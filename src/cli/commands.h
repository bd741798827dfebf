// Each verb of the `manaka` command lives in its own file and registers its
// subcommand here. A callback that fails prints its message to stderr and
// throws CLI::RuntimeError with the exit status.
#pragma once

#include <CLI/CLI.hpp>
#include <string_view>

#include "core/status.h"

namespace manaka::cli {

void add_shogi_command(CLI::App& app);
void add_shogi_selfplay(CLI::App* shogi);
void add_stream_command(CLI::App& app);
void add_pack_command(CLI::App& app);
void add_shards_command(CLI::App& app);
void add_teacher_command(CLI::App& app);
void add_saz_command(CLI::App& app);
void add_chess_command(CLI::App& app);
void add_vpd_command(CLI::App& app);
// `manaka report` (cli/report_command.cpp): runs python -m manaka.report.
void add_report_command(CLI::App& app);
// `manaka chess corpus` (cli/chess_corpus_command.cpp), under the chess command.
void add_chess_corpus(CLI::App* chess);
// `manaka chess shards`, registered by add_chess_command.
void add_chess_shards_command(CLI::App* chess);

// Prints "manaka: <message>" to stderr and exits the command with status 1
// when st is an error.
void exit_on_error(const Status& st);

// Writes text to stdout; once the reader has gone (`| head`: EPIPE, SIGPIPE
// being ignored) the command stops with the status a shell gives a process
// SIGPIPE ended (141), without a message: long listings end with their reader.
void write_stdout(std::string_view text);

}  // namespace manaka::cli
