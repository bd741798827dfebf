#include <csignal>
#include <cerrno>
#include <cstdio>

#include "core/file.h"

#include "cli/commands.h"
#include "core/temporary.h"
#include "core/text.h"

namespace manaka::cli {

void exit_on_error(const Status& st) {
  if (st.ok()) return;
  std::fprintf(stderr, "manaka: %s\n", printable(st.message()).c_str());
  throw CLI::RuntimeError(1);
}

void write_stdout(std::string_view text) {
  if (std::fwrite(text.data(), 1, text.size(), stdout) == text.size()) return;
  if (errno == EPIPE) throw CLI::RuntimeError(128 + SIGPIPE);
  exit_on_error(io_error("standard output", "cannot write", errno));
}

}  // namespace manaka::cli

int main(int argc, char** argv) {
  // Before any thread exists: SIGINT/SIGTERM/SIGHUP remove this run's temporaries.
  manaka::install_signal_cleanup();
  CLI::App app{"manaka: board-game play into neural-network training data"};
  app.require_subcommand(1);
  manaka::cli::add_shogi_command(app);
  manaka::cli::add_stream_command(app);
  manaka::cli::add_pack_command(app);
  manaka::cli::add_shards_command(app);
  manaka::cli::add_teacher_command(app);
  manaka::cli::add_saz_command(app);
  manaka::cli::add_chess_command(app);
  manaka::cli::add_vpd_command(app);
  manaka::cli::add_report_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::RuntimeError& e) {  // a command that ran and failed: its own code (1, 141)
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // --help is 0; a command line that does not parse is 2, as Python's
    // argparse exits (CLI11's own codes, 105 and on, say nothing to a shell).
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  return 0;
}
