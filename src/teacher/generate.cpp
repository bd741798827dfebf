#include "teacher/generate.h"

#include <time.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "core/output.h"
#include "core/progress.h"
#include "core/threads.h"
#include "core/task_thread.h"
#include "teacher/corpus_writer.h"
#include "teacher/score.h"

namespace manaka::teacher {

namespace {

using Clock = std::chrono::steady_clock;
constexpr size_t kMessagesKept = 5;
constexpr int kRestartAttempts = 3;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

double thread_cpu_seconds() {
  timespec ts{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

void keep_message(std::vector<std::string>& list, const std::string& msg) {
  if (list.size() < kMessagesKept) list.push_back(msg);
}

Status check_options(const GenerateOptions& o) {
  auto bad = [](const std::string& what) { return Status::usage("teacher generate: " + what); };
  if (o.engine.path.empty()) return bad("no engine given (--engine PATH)");
  if (o.engine.protocol != engine::Protocol::Usi) return bad("the engine must speak USI (the games are shogi)");
  if (o.output.empty()) return bad("no output given (-o corpus.parquet)");
  if (o.games < 1) return bad("--games must be at least 1");
  if (o.first_game > kMaxFirstGame) return bad("--first-game must be 0.." + std::to_string(kMaxFirstGame));
  if (o.workers < 0 || o.workers > kMaxWorkers) return bad("--workers must be 0.." + std::to_string(kMaxWorkers));
  if (o.limit.depth <= 0 && o.limit.nodes == 0) return bad("a search limit is required (--depth D or --nodes N)");
  if (o.engine.multipv < 1 || o.engine.multipv > kMaxMultiPv)
    return bad("--multipv must be 1.." + std::to_string(kMaxMultiPv));
  if (o.opening_plies < 0) return bad("--opening-plies must be >= 0");
  if (o.max_plies < 1 || o.max_plies > kMaxPlies) return bad("--max-plies must be 1.." + std::to_string(kMaxPlies));
  if (o.mate_scale < kMinMateScale || o.mate_scale > kMaxMateScale)
    return bad("--mate-scale must be " + std::to_string(kMinMateScale) + ".." + std::to_string(kMaxMateScale));
  if (o.flush_rows < 1 || !(o.flush_seconds > 0)) return bad("flush_rows and flush_seconds must be positive");
  return check_output(o.output, {o.engine.path}, o.overwrite).with_context("teacher generate: ");
}

// Completed games, written in game order as soon as every earlier game is
// settled (completed, lost or refused). Workers only hand rows over under the
// lock; the parquet part is written on the collector's own thread, so no
// worker waits on a disk write.
class Collector {
 public:
  Collector(CorpusWriter& writer, const GenerateOptions& o) : writer_(writer), options_(o), next_(o.first_game) {}

  // record is empty for a game that produced no rows to keep.
  void settle(uint64_t index, std::optional<GameRecord> record) {
    std::lock_guard<std::mutex> lock(mu_);
    done_.emplace(index, std::move(record));
    while (!done_.empty() && done_.begin()->first == next_) {
      if (auto& rec = done_.begin()->second) {
        for (auto& row : rec->rows) pending_.push_back(std::move(row));
      }
      done_.erase(done_.begin());
      ++next_;
    }
    if (pending_.size() >= size_t(options_.flush_rows) || seconds_since(last_flush_) >= options_.flush_seconds)
      flush_locked();
  }

  // Writes everything held, games after a gap included (a run that stops early).
  Status finish() {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& [index, rec] : done_) {
      if (rec) for (auto& row : rec->rows) pending_.push_back(std::move(row));
    }
    done_.clear();
    flush_locked();
    if (written_.valid()) written_.wait();  // tasks run in order: the last one ends them all
    std::lock_guard<std::mutex> write_lock(write_mu_);
    return error_;
  }

 private:
  void flush_locked() {
    last_flush_ = Clock::now();
    if (pending_.empty()) return;
    auto rows = std::make_shared<std::vector<CorpusRow>>(std::move(pending_));
    pending_.clear();
    written_ = writing_.submit([this, rows] {
      std::lock_guard<std::mutex> write_lock(write_mu_);
      if (error_.ok()) error_ = writer_.write(*rows);
    });
  }

  CorpusWriter& writer_;
  const GenerateOptions& options_;
  std::mutex mu_;
  std::map<uint64_t, std::optional<GameRecord>> done_;
  uint64_t next_;
  std::vector<CorpusRow> pending_;
  Clock::time_point last_flush_ = Clock::now();
  std::mutex write_mu_;  // guards error_, set on the writing thread
  Status error_;
  std::future<void> written_;
  TaskThread writing_;  // last: joined first, while what its tasks use still exists
};

// What the workers share.
struct Shared {
  std::atomic<uint64_t> next_game{0};
  std::atomic<uint64_t> settled{0}, searched{0};
  std::mutex mu;  // guards summary and the counts below
  GenerateSummary summary;
  std::condition_variable wake;
  int running = 0;
};

void run_worker(engine::Engine& eng, const GenerateOptions& o, Collector& out, Shared& sh) {
  const auto start = Clock::now();
  const double cpu_before = thread_cpu_seconds();
  const double wait_before = eng.wait_seconds();
  const int restarts_before = eng.restarts();
  const GameSettings settings{o.limit, o.opening_plies, o.max_plies, o.mate_scale, &sh.searched};
  int lost_in_a_row = 0;
  std::string stop_reason;
  for (;;) {
    if (!eng.alive()) {
      Status st;
      for (int attempt = 0; attempt < kRestartAttempts; ++attempt) {
        st = eng.restart();
        if (st.ok()) break;
      }
      if (!st.ok()) {
        stop_reason = "cannot restart the engine: " + st.message();
        break;
      }
    }
    const uint64_t index = sh.next_game.fetch_add(1);
    if (index >= o.first_game + uint64_t(o.games)) break;
    Result<GameRecord> game = Status::engine("not played");
    Status ready = eng.new_game();
    if (ready.ok()) game = play_game(eng, settings, game_seed(o.seed, index));
    else game = ready;

    std::lock_guard<std::mutex> lock(sh.mu);
    GenerateSummary& s = sh.summary;
    if (game.ok()) {
      lost_in_a_row = 0;
      ++s.games_completed;
      ++s.endings[size_t(game->end)];
      (game->result > 0 ? s.black_wins : game->result < 0 ? s.white_wins : s.draws) += 1;
      s.positions += game->rows.size();
      out.settle(index, std::move(*game));
    } else if (game.status().kind() == ErrorKind::Engine) {
      ++s.games_lost;
      keep_message(s.engine_failures, "game " + std::to_string(index) + ": " + game.status().message());
      out.settle(index, std::nullopt);
      if (++lost_in_a_row >= o.max_consecutive_failures) {
        stop_reason = "the engine failed " + std::to_string(lost_in_a_row) + " games in a row";
      }
    } else {
      lost_in_a_row = 0;
      ++s.games_illegal;
      keep_message(s.illegal_moves, "game " + std::to_string(index) + ": " + game.status().message());
      out.settle(index, std::nullopt);
    }
    ++sh.settled;
    sh.wake.notify_all();
    if (!stop_reason.empty()) break;
  }
  std::lock_guard<std::mutex> lock(sh.mu);
  GenerateSummary& s = sh.summary;
  const double waited = eng.wait_seconds() - wait_before;
  s.engine_seconds += waited;
  s.overhead_seconds += seconds_since(start) - waited;
  s.generator_cpu_seconds += thread_cpu_seconds() - cpu_before;
  s.restarts += uint64_t(eng.restarts() - restarts_before);
  if (!stop_reason.empty()) keep_message(s.worker_errors, "worker on " + eng.path() + ": " + stop_reason);
  --sh.running;
  sh.wake.notify_all();
}

CorpusWriter::Footer corpus_footer(const GenerateOptions& o, const std::string& engine_name) {
  CorpusWriter::Footer f = {
      {"generator", "manaka teacher generate"},
      {"engine", engine_name},
      {"engine_path", o.engine.path},
      {"multipv", std::to_string(o.engine.multipv)},
      {"seed", std::to_string(o.seed)},
      {"opening_plies", std::to_string(o.opening_plies)},
      {"max_plies", std::to_string(o.max_plies)},
      {"mate_scale", std::to_string(o.mate_scale)},
      {"mate_slack", std::to_string(kDefaultMateSlack)},
      {"pov", "side to move (cp, cand_cp); result from Black"},
  };
  if (o.first_game > 0) f.emplace_back("first_game", std::to_string(o.first_game));
  if (o.limit.depth > 0) f.emplace_back("depth", std::to_string(o.limit.depth));
  if (o.limit.nodes > 0) f.emplace_back("nodes", std::to_string(o.limit.nodes));
  if (o.limit.movetime_ms > 0) f.emplace_back("movetime_ms", std::to_string(o.limit.movetime_ms));
  return f;
}

}  // namespace

Result<GenerateSummary> generate(const GenerateOptions& options) {
  const auto start = Clock::now();
  MANAKA_RETURN_NOT_OK(check_options(options));
  GenerateOptions o = options;
  // No more engines than games: a spare one would start and sit idle.
  o.workers = std::min(threads_or_hardware(o.workers), o.games);

  std::vector<std::unique_ptr<engine::Engine>> engines;
  for (int w = 0; w < o.workers; ++w) {
    auto eng = engine::Engine::start(o.engine);
    if (!eng.ok()) return std::move(eng).take_status().with_context("teacher generate: ");
    engines.push_back(std::move(*eng));
  }
  MANAKA_ASSIGN_OR_RETURN(auto writer, CorpusWriter::open(o.output, corpus_footer(o, engines[0]->name())));
  Collector collector(*writer, o);
  Shared sh;
  sh.next_game = o.first_game;
  sh.summary.output = o.output;
  sh.summary.engine_name = engines[0]->name();
  sh.summary.games_requested = o.games;
  sh.running = o.workers;

  std::vector<std::thread> threads;
  for (int w = 0; w < o.workers; ++w)
    threads.emplace_back(run_worker, std::ref(*engines[size_t(w)]), std::cref(o), std::ref(collector), std::ref(sh));
  Progress progress("generate", uint64_t(o.games));
  progress.set_units("games", "positions");
  progress.set_enabled(o.progress);
  {
    std::unique_lock<std::mutex> lock(sh.mu);
    while (sh.running > 0) {
      sh.wake.wait_for(lock, std::chrono::milliseconds(200));
      lock.unlock();
      progress.poll(sh.settled.load(), sh.searched.load());
      lock.lock();
    }
  }
  for (auto& t : threads) t.join();
  progress.poll(sh.settled.load(), sh.searched.load());
  progress.finish();
  for (auto& eng : engines) eng->quit();

  GenerateSummary s = std::move(sh.summary);
  Status written = collector.finish();
  s.parts = writer->parts_written();
  s.seconds = seconds_since(start);
  const uint64_t settled = s.games_completed + s.games_lost + s.games_illegal;
  if (!written.ok())
    return std::move(written).with_context("teacher generate: the games flushed before this error are in " +
                                           writer->partial_dir() + ": ");
  if (settled < uint64_t(o.games)) {
    std::string why = s.worker_errors.empty() ? "workers stopped" : s.worker_errors.back();
    return Status::engine("teacher generate: " + std::to_string(settled) + " of " + std::to_string(o.games) +
                          " games played before every worker stopped (" + why + "); the " +
                          std::to_string(s.games_completed) + " completed games are in " +
                          writer->partial_dir());
  }
  MANAKA_RETURN_NOT_OK(writer->commit());
  s.seconds = seconds_since(start);
  return s;
}

}  // namespace manaka::teacher
