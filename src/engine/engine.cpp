#include "engine/engine.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>

namespace manaka::engine {

namespace {

using Clock = std::chrono::steady_clock;  // the same as Engine::Clock
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

// Whether s is `word` alone or `word` and a space.
bool starts_with_word(std::string_view s, std::string_view word) {
  return s.starts_with(word) && (s.size() == word.size() || s[word.size()] == ' ');
}

std::string seconds_text(int ms) {
  return ms % 1000 == 0 ? std::to_string(ms / 1000) + " s" : std::to_string(ms) + " ms";
}

}  // namespace

Result<std::unique_ptr<Engine>> Engine::start(const EngineOptions& options) {
  if (options.path.empty()) return Status::engine("engine: no path given");
  std::unique_ptr<Engine> e(new Engine(options));
  MANAKA_RETURN_NOT_OK(e->launch());
  return e;
}

Engine::~Engine() { quit(); }

Status Engine::fail(const std::string& doing, const std::string& what, int exit_wait_ms) {
  alive_ = false;
  process_.wait_exit(exit_wait_ms);
  std::string st = process_.running() ? "" : " (" + process_.exit_description() + ")";
  return Status::engine(process_.context() + doing + ": " + what + st);
}

Status Engine::send(const std::string& line, const std::string& doing) {
  if (process_.write_line(line).ok()) return Status();
  return fail(doing, "cannot send \"" + line + "\": the engine has gone", kExitWaitMs);
}

Status Engine::next_line(Clock::time_point start, Clock::time_point deadline, int timeout_ms,
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

Status Engine::wait_for(std::string_view expected, int timeout_ms, const std::string& doing) {
  const auto start = Clock::now();
  const auto deadline = start + std::chrono::milliseconds(timeout_ms);
  const std::string awaited = "\"" + std::string(expected) + "\"";
  for (;;) {
    MANAKA_RETURN_NOT_OK(next_line(start, deadline, timeout_ms, doing, awaited));
    if (line_ == expected) break;
    if (line_.rfind("id name ", 0) == 0) {
      name_ = line_.substr(8);
    } else if (auto option = parse_option(line_)) {
      advertised_.push_back(std::move(*option));
    }
  }
  wait_seconds_ += seconds_since(start);
  return Status();
}

const EngineOption* Engine::find_option(std::string_view option_name) const {
  return engine::find_option(advertised_, option_name);
}

Result<std::vector<std::string>> Engine::option_lines() const {
  const std::string engine = "engine " + name_ + " (" + options_.path + ")";
  std::vector<std::pair<std::string, std::string>> wanted;
  if (options_.multipv > 1) wanted.emplace_back("MultiPV", std::to_string(options_.multipv));
  if (options_.elo) {
    wanted.emplace_back("UCI_LimitStrength", "true");
    wanted.emplace_back("UCI_Elo", std::to_string(*options_.elo));
  }
  wanted.insert(wanted.end(), options_.options.begin(), options_.options.end());
  std::vector<std::string> lines;
  for (const auto& [option_name, value] : wanted) {
    if (const EngineOption* option = find_option(option_name)) {
      MANAKA_RETURN_NOT_OK(check_option_value(*option, value).with_context(engine + ": "));
    } else {
      bool reserved = false;
      for (std::string_view gui : dialect().unadvertised_options) reserved |= !gui.empty() && gui == option_name;
      if (!reserved) {
        std::string names;
        for (const EngineOption& o : advertised_) names += (names.empty() ? "" : ", ") + o.name;
        return Status::invalid(engine + " does not advertise the option \"" + option_name +
                               "\" (it advertises: " + (names.empty() ? "none" : names) + ")");
      }
    }
    lines.push_back("setoption name " + option_name + " value " + value);
  }
  return lines;
}

Status Engine::launch() {
  alive_ = false;
  advertised_.clear();
  auto proc = Process::spawn(options_.path, options_.args);
  if (!proc.ok()) return proc.status();
  process_ = std::move(*proc);
  if (name_.empty()) name_ = options_.path;
  const Dialect& d = dialect();
  const std::string hello = "handshake (" + std::string(d.hello) + ")";
  MANAKA_RETURN_NOT_OK(send(std::string(d.hello), hello));
  MANAKA_RETURN_NOT_OK(wait_for(d.hello_ok, options_.handshake_timeout_ms, hello));
  auto lines = option_lines();
  if (!lines.ok()) {
    process_.kill();
    return std::move(lines).take_status();
  }
  for (const std::string& line : *lines) MANAKA_RETURN_NOT_OK(send(line, "setoption"));
  threads_line_.clear();
  if (const EngineOption* threads = find_option("Threads"); threads && options_.fresh_threads_each_game) {
    std::string value = threads->default_value;
    for (const auto& [option_name, v] : options_.options)
      if (find_option(option_name) == threads) value = v;
    threads_line_ = "setoption name " + threads->name + " value " + value;
  }
  MANAKA_RETURN_NOT_OK(send("isready", "handshake (isready)"));
  MANAKA_RETURN_NOT_OK(wait_for("readyok", options_.handshake_timeout_ms, "handshake (isready)"));
  alive_ = true;
  return Status();
}

Status Engine::new_game() {
  const std::string new_game(dialect().new_game);
  if (!alive_) return fail(new_game, "engine is not running; restart it first");
  MANAKA_RETURN_NOT_OK(send(new_game, new_game));
  if (!threads_line_.empty()) MANAKA_RETURN_NOT_OK(send(threads_line_, new_game + " (Threads)"));
  MANAKA_RETURN_NOT_OK(send("isready", new_game + " (isready)"));
  return wait_for("readyok", options_.handshake_timeout_ms, new_game + " (isready)");
}

Result<SearchResult> Engine::search(const std::string& position, const SearchLimit& limit) {
  if (!alive_) return fail("search", "engine is not running; restart it first");
  const Dialect& d = dialect();
  if (!starts_with_word(position, "startpos") && !starts_with_word(position, d.position_word))
    return Status::invalid("search: position \"" + position + "\" is neither \"startpos ...\" nor \"" +
                           std::string(d.position_word) + " ...\" (" + std::string(d.name) + ")");
  std::string go = "go";
  if (limit.depth > 0) go += " depth " + std::to_string(limit.depth);
  if (limit.nodes > 0) go += " nodes " + std::to_string(limit.nodes);
  if (limit.movetime_ms > 0) go += " movetime " + std::to_string(limit.movetime_ms);
  if (go == "go") return Status::invalid("search: a limit is required (a depth or a node limit, or a move time)");
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
  const int timeout_ms = static_cast<int>(std::min<int64_t>(
      int64_t{options_.search_timeout_ms} + std::max(limit.movetime_ms, 0), std::numeric_limits<int>::max()));
  const auto deadline = start + std::chrono::milliseconds(timeout_ms);
  for (;;) {
    MANAKA_RETURN_NOT_OK(next_line(start, deadline, timeout_ms, doing, "bestmove"));
    if (auto info = parse_info(line_, d.mate_unit)) {
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
      pv.wdl = info->wdl;
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

Status Engine::restart() {
  process_.kill();
  ++restarts_;
  return launch();
}

void Engine::quit() {
  if (process_.running()) {
    if (alive_) (void)process_.write_line("quit");
    process_.wait_or_kill(alive_ ? 1000 : 0);
  }
  alive_ = false;
}

}  // namespace manaka::engine
