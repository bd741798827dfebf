#include "engine/usi_engine.h"

#include <chrono>

namespace manaka::engine {

namespace {

using Clock = std::chrono::steady_clock;  // the same as UsiEngine::Clock
// How long an engine that closed its output is given to exit, so that the
// error can say how it ended.
constexpr int kExitWaitMs = 500;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

int ms_left(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return left.count() < 0 ? 0 : static_cast<int>(left.count());
}

std::string seconds_text(int ms) {
  return ms % 1000 == 0 ? std::to_string(ms / 1000) + " s" : std::to_string(ms) + " ms";
}

}  // namespace

Result<std::unique_ptr<UsiEngine>> UsiEngine::start(const EngineOptions& options) {
  if (options.path.empty()) return Status::engine("engine: no path given");
  std::unique_ptr<UsiEngine> e(new UsiEngine(options));
  MANAKA_RETURN_NOT_OK(e->launch());
  return e;
}

UsiEngine::~UsiEngine() { quit(); }

Status UsiEngine::fail(const std::string& doing, const std::string& what, int exit_wait_ms) {
  alive_ = false;
  process_.wait_exit(exit_wait_ms);
  std::string st = process_.running() ? "" : " (" + process_.exit_description() + ")";
  return Status::engine(process_.context() + doing + ": " + what + st);
}

Status UsiEngine::send(const std::string& line, const std::string& doing) {
  if (process_.write_line(line).ok()) return Status();
  return fail(doing, "cannot send \"" + line + "\": the engine has gone", kExitWaitMs);
}

Status UsiEngine::next_line(Clock::time_point start, Clock::time_point deadline, int timeout_ms,
                           const std::string& doing, const std::string& awaited) {
  auto read = process_.read_line(&line_, ms_left(deadline));
  if (read.ok() && *read == Process::Read::Line) return Status();
  wait_seconds_ += seconds_since(start);
  if (!read.ok()) {
    alive_ = false;
    return read.status();
  }
  if (*read == Process::Read::Eof) return fail(doing, "closed its output before " + awaited, kExitWaitMs);
  return fail(doing, "no " + awaited + " within " + seconds_text(timeout_ms) + " (stalled)");
}

Status UsiEngine::wait_for(const std::string& expected, int timeout_ms, const std::string& doing) {
  const auto start = Clock::now();
  const auto deadline = start + std::chrono::milliseconds(timeout_ms);
  for (;;) {
    MANAKA_RETURN_NOT_OK(next_line(start, deadline, timeout_ms, doing, "\"" + expected + "\""));
    if (line_ == expected) break;
    if (line_.rfind("id name ", 0) == 0) name_ = line_.substr(8);
  }
  wait_seconds_ += seconds_since(start);
  return Status();
}

Status UsiEngine::launch() {
  alive_ = false;
  auto proc = Process::spawn(options_.path, options_.args);
  if (!proc.ok()) return proc.status();
  process_ = std::move(*proc);
  if (name_.empty()) name_ = options_.path;
  MANAKA_RETURN_NOT_OK(send("usi", "handshake (usi)"));
  MANAKA_RETURN_NOT_OK(wait_for("usiok", options_.handshake_timeout_ms, "handshake (usi)"));
  if (options_.multipv > 1) {
    MANAKA_RETURN_NOT_OK(send("setoption name MultiPV value " + std::to_string(options_.multipv), "setoption"));
  }
  for (const auto& [name, value] : options_.options) {
    MANAKA_RETURN_NOT_OK(send("setoption name " + name + " value " + value, "setoption"));
  }
  MANAKA_RETURN_NOT_OK(send("isready", "handshake (isready)"));
  MANAKA_RETURN_NOT_OK(wait_for("readyok", options_.handshake_timeout_ms, "handshake (isready)"));
  alive_ = true;
  return Status();
}

Status UsiEngine::new_game() {
  if (!alive_) return fail("usinewgame", "engine is not running; restart it first");
  MANAKA_RETURN_NOT_OK(send("usinewgame", "usinewgame"));
  MANAKA_RETURN_NOT_OK(send("isready", "usinewgame (isready)"));
  return wait_for("readyok", options_.handshake_timeout_ms, "usinewgame (isready)");
}

Result<SearchResult> UsiEngine::search(const std::string& position, const SearchLimit& limit) {
  if (!alive_) return fail("search", "engine is not running; restart it first");
  std::string go = "go";
  if (limit.depth > 0) go += " depth " + std::to_string(limit.depth);
  if (limit.nodes > 0) go += " nodes " + std::to_string(limit.nodes);
  if (go == "go") return Status::invalid("search: a depth or a node limit is required");
  // The engine's time starts when the position is sent: handing it the
  // command (and the wake-up of its reading thread) is part of its answer.
  SearchResult result;
  const auto start = Clock::now();
  const std::string doing = "search (" + go + ")";
  Status sent = send("position " + position, doing);
  if (sent.ok()) sent = send(go, doing);
  if (!sent.ok()) {
    wait_seconds_ += seconds_since(start);
    return sent;
  }
  const auto deadline = start + std::chrono::milliseconds(options_.search_timeout_ms);
  for (;;) {
    MANAKA_RETURN_NOT_OK(next_line(start, deadline, options_.search_timeout_ms, doing, "bestmove"));
    if (auto info = parse_info(line_)) {
      if (info->bound) continue;  // aspiration re-search in progress; an exact line follows
      size_t k = static_cast<size_t>(info->multipv);
      if (k > result.lines.size()) {
        if (k > result.lines.size() + 1) continue;  // a gap: not a line we can place
        result.lines.emplace_back();
      }
      PvLine& pv = result.lines[k - 1];
      pv.multipv = info->multipv;
      pv.depth = info->depth;
      pv.score = info->score;
      pv.move = std::move(info->first_move);
      continue;
    }
    if (auto best = parse_bestmove(line_)) {
      result.bestmove = std::move(*best);
      break;
    }
  }
  result.seconds = seconds_since(start);
  wait_seconds_ += result.seconds;
  return result;
}

Status UsiEngine::restart() {
  process_.kill();
  ++restarts_;
  return launch();
}

void UsiEngine::quit() {
  if (process_.running()) {
    if (alive_) (void)process_.write_line("quit");
    process_.wait_or_kill(alive_ ? 1000 : 0);
  }
  alive_ = false;
}

}  // namespace manaka::engine
