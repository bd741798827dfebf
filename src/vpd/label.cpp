#include "vpd/label.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <cstdio>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

#include "core/progress.h"
#include "core/text.h"
#include "core/threads.h"
#include "vpd/database.h"
#include "vpd/sqlite.h"

namespace manaka::vpd {
namespace {

constexpr const char* LABELS_SCHEMA =
    "CREATE TABLE IF NOT EXISTS labels(id INTEGER PRIMARY KEY, score_cp INTEGER, score_mate INTEGER, "
    "wdl_win INTEGER, wdl_draw INTEGER, wdl_loss INTEGER, depth INTEGER, bestmove TEXT, pv_lines TEXT)";
constexpr const char* INSERT_LABEL = "INSERT OR REPLACE INTO labels VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)";
// ?1: at most this many (-1: all); ?2: among the ?2 smallest random keys (-1: all).
constexpr const char* TODO =
    "SELECT id, fen FROM (SELECT id, fen FROM positions ORDER BY random_key LIMIT ?2) "
    "WHERE id NOT IN (SELECT id FROM labels) ORDER BY id LIMIT ?1";
constexpr const char* UPSERT_METADATA =
    "INSERT INTO metadata(key, value) VALUES(?1, ?2) ON CONFLICT(key) DO UPDATE SET value = excluded.value";
constexpr auto COMMIT_EVERY = std::chrono::seconds(1);

std::string limit_text(const engine::SearchLimit& l) {
  std::string out;
  auto add = [&](const std::string& s) { out += (out.empty() ? "" : " ") + s; };
  if (l.nodes) add("nodes " + std::to_string(l.nodes));
  if (l.depth) add("depth " + std::to_string(l.depth));
  if (l.movetime_ms) add("movetime " + std::to_string(l.movetime_ms));
  return out;
}

struct Todo {
  int64_t id;
  std::string fen;
};

struct Label {
  size_t index = 0;  // in the run's list of positions to label: the order they are written in
  int64_t id = 0;
  engine::SearchResult result;
};

// The labels' identity: what a resumed run must match.
struct Identity {
  std::string engine, limit, multipv, options;
  std::vector<std::pair<std::string, std::string>> rows() const {
    return {{"label_engine", engine}, {"label_limit", limit}, {"label_multipv", multipv}, {"label_options", options}};
  }
};

Status put_metadata(sqlite3* db, const std::string& name, const std::vector<std::pair<std::string, std::string>>& kv) {
  MANAKA_ASSIGN_OR_RETURN(Stmt s, prepare(db, name, UPSERT_METADATA));
  for (const auto& [k, v] : kv) {
    bind_text(s.get(), 1, k);
    bind_text(s.get(), 2, v);
    MANAKA_RETURN_NOT_OK(step_done(db, s.get(), name, "metadata " + k));
  }
  return {};
}

Status insert_label(sqlite3* db, sqlite3_stmt* s, const std::string& name, const Label& l) {
  sqlite3_bind_int64(s, 1, l.id);
  for (int i = 2; i <= 9; ++i) sqlite3_bind_null(s, i);
  nlohmann::json lines = nlohmann::json::array();
  for (const engine::PvLine& pv : l.result.lines) {
    nlohmann::json j = {{"move", pv.move}, {"depth", pv.depth}};
    if (pv.score.is_mate()) j["mate"] = pv.score.mate_moves();
    else j["cp"] = pv.score.value;
    if (pv.wdl) j["wdl"] = {pv.wdl->win, pv.wdl->draw, pv.wdl->loss};
    lines.push_back(j);
  }
  if (!l.result.lines.empty()) {
    const engine::PvLine& first = l.result.lines.front();
    if (first.score.is_mate()) sqlite3_bind_int(s, 3, first.score.mate_moves());
    else sqlite3_bind_int(s, 2, first.score.value);
    if (first.wdl) {
      sqlite3_bind_int(s, 4, first.wdl->win);
      sqlite3_bind_int(s, 5, first.wdl->draw);
      sqlite3_bind_int(s, 6, first.wdl->loss);
    }
    sqlite3_bind_int(s, 7, first.depth);
  }
  if (l.result.has_move()) bind_text(s, 8, l.result.bestmove);
  bind_text(s, 9, json_text(lines));
  return step_done(db, s, name, "label of position " + std::to_string(l.id));
}

// Shared between the workers and the writing thread.
struct Queue {
  std::mutex mu;
  std::condition_variable changed;
  std::vector<Label> done;
  std::atomic<size_t> next{0};
  std::atomic<bool> stop{false};
  Status error;
  int workers_left = 0;
  uint64_t restarts = 0;
  double engine_seconds = 0;
};

// Labels positions with `started`, or an engine of its own when null.
void run_worker(std::unique_ptr<engine::Engine> started, const engine::EngineOptions& eo,
                const engine::SearchLimit& limit, const std::vector<Todo>& todo, Queue& q) {
  auto finish = [&](Status st, uint64_t restarts, double secs) {
    std::lock_guard lock(q.mu);
    if (!st.ok() && q.error.ok()) q.error = std::move(st);
    if (!st.ok()) q.stop = true;
    q.restarts += restarts;
    q.engine_seconds += secs;
    --q.workers_left;
    q.changed.notify_all();
  };
  if (!started) {
    auto own = engine::Engine::start(eo);
    if (!own.ok()) return finish(std::move(own).take_status(), 0, 0);
    started = std::move(*own);
  }
  engine::Engine& eng = *started;
  uint64_t restarts = 0;
  for (;;) {
    if (q.stop) break;
    const size_t i = q.next.fetch_add(1);
    if (i >= todo.size()) break;
    Result<engine::SearchResult> r = Status::engine("not searched");
    for (int attempt = 0; attempt < LABEL_TRIES; ++attempt) {
      if (!eng.alive()) {
        ++restarts;
        if (Status st = eng.restart(); !st.ok()) {
          r = std::move(st);
          continue;
        }
      }
      Status st = eng.new_game();
      if (st.ok()) {
        r = eng.search("fen " + todo[i].fen, limit);
        if (r.ok()) break;
      } else {
        r = std::move(st);
      }
    }
    if (!r.ok())
      return finish(std::move(r).take_status().with_context("position " + std::to_string(todo[i].id) + " (" +
                                                            todo[i].fen + "): "),
                    restarts, eng.wait_seconds());
    std::lock_guard lock(q.mu);
    q.done.push_back(Label{i, todo[i].id, std::move(*r)});
    q.changed.notify_all();
  }
  finish({}, restarts, eng.wait_seconds());
}

}  // namespace

Result<LabelSummary> label(const LabelOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  if (o.workers < 0) return Status::usage("workers must be 0 (one per hardware thread) or more");
  if (!o.limit.nodes && !o.limit.depth && !o.limit.movetime_ms)
    return Status::usage("a search limit is needed: --nodes, --depth or --movetime");
  LabelSummary s;
  s.file = o.file;
  {
    MANAKA_ASSIGN_OR_RETURN(VpdFile f, VpdFile::open(o.file));  // the refusals of a foreign or partial file
    MANAKA_ASSIGN_OR_RETURN(s.positions, f.rows());
  }

  // The first worker's engine, started here for its name: asked to report
  // WDL (UCI_ShowWDL true) unless the options say otherwise, and started
  // again without it when it does not advertise the option.
  engine::EngineOptions eo{.path = o.engine_path, .protocol = engine::Protocol::Uci, .multipv = o.multipv,
                           .options = o.engine_options};
  bool wdl_set = false;
  for (const auto& [k, v] : eo.options) wdl_set = wdl_set || k == "UCI_ShowWDL";
  engine::EngineOptions with_wdl = eo;
  if (!wdl_set) with_wdl.options.emplace_back("UCI_ShowWDL", "true");
  auto first = engine::Engine::start(with_wdl);
  if (!first.ok() && !wdl_set && first.status().kind() == ErrorKind::Invalid) first = engine::Engine::start(eo);
  else eo = with_wdl;
  if (!first.ok()) return std::move(first).take_status();
  std::unique_ptr<engine::Engine> first_engine = std::move(*first);
  s.engine = first_engine->name();
  nlohmann::json options = nlohmann::json::array();
  for (const auto& [k, v] : eo.options) options.push_back({k, v});
  const Identity id{s.engine, limit_text(o.limit), std::to_string(o.multipv), json_text(options)};

  MANAKA_ASSIGN_OR_RETURN(Db db, open_db(o.file, o.file, SQLITE_OPEN_READWRITE));
  sqlite3* h = db.get();
  MANAKA_RETURN_NOT_OK(exec(h, o.file, "PRAGMA busy_timeout=10000"));
  MANAKA_RETURN_NOT_OK(exec(h, o.file, "BEGIN IMMEDIATE"));
  for (const auto& [key, value] : id.rows()) {
    MANAKA_ASSIGN_OR_RETURN(std::string stored, metadata_value(h, o.file, key));
    if (!stored.empty() && stored != value)
      return Status::invalid(o.file + ": its labels were made with " + key + " '" + stored + "', not '" + value +
                             "'; label a copy of the unlabeled file instead");
  }
  MANAKA_RETURN_NOT_OK(exec(h, o.file, LABELS_SCHEMA));
  auto kv = id.rows();
  kv.emplace_back("label_engine_path", o.engine_path);
  MANAKA_RETURN_NOT_OK(put_metadata(h, o.file, kv));
  MANAKA_RETURN_NOT_OK(exec(h, o.file, "COMMIT"));

  std::vector<Todo> todo;
  {
    MANAKA_ASSIGN_OR_RETURN(Stmt t, prepare(h, o.file, TODO));
    sqlite3_bind_int64(t.get(), 1, o.max_positions ? int64_t(std::min<uint64_t>(o.max_positions, INT64_MAX)) : -1);
    sqlite3_bind_int64(t.get(), 2, o.sample ? int64_t(std::min<uint64_t>(o.sample, INT64_MAX)) : -1);
    int rc;
    while ((rc = sqlite3_step(t.get())) == SQLITE_ROW)
      todo.push_back({sqlite3_column_int64(t.get(), 0), reinterpret_cast<const char*>(sqlite3_column_text(t.get(), 1))});
    if (rc != SQLITE_DONE) return sqlite_error(o.file, h, "unlabeled positions");
  }
  {
    MANAKA_ASSIGN_OR_RETURN(Stmt c, prepare(h, o.file, "SELECT count(*) FROM labels"));
    if (sqlite3_step(c.get()) != SQLITE_ROW) return sqlite_error(o.file, h, "labels count");
    s.already = uint64_t(sqlite3_column_int64(c.get(), 0));
  }

  Progress progress(o.file, todo.size());
  progress.set_units("positions", "labels");
  progress.set_enabled(o.progress);
  Queue q;
  const int workers = int(std::min<size_t>(size_t(threads_or_hardware(o.workers)), std::max<size_t>(todo.size(), 1)));
  q.workers_left = workers;
  std::vector<std::thread> pool;
  for (int w = 0; w < workers; ++w)
    pool.emplace_back(run_worker, w == 0 ? std::move(first_engine) : nullptr, std::cref(eo), std::cref(o.limit),
                      std::cref(todo), std::ref(q));

  // Labels are written in the list's order, whichever worker finished first:
  // SQLite lays a table's pages out in insertion order, so any other order
  // gives the same labels in other bytes from run to run. Those that finish
  // ahead of an earlier one wait here (a few per worker).
  std::map<size_t, Label> ahead;
  size_t next_to_write = 0;
  Status error;
  MANAKA_ASSIGN_OR_RETURN(Stmt insert, prepare(h, o.file, INSERT_LABEL));
  auto write_ready = [&](std::vector<Label>& arrived) -> Status {
    for (Label& l : arrived) ahead.emplace(l.index, std::move(l));
    arrived.clear();
    for (auto it = ahead.begin(); it != ahead.end() && it->first == next_to_write; it = ahead.erase(it)) {
      MANAKA_RETURN_NOT_OK(insert_label(h, insert.get(), o.file, it->second));
      ++next_to_write;
      ++s.labeled;
    }
    return Status();
  };
  auto last_commit = std::chrono::steady_clock::now();
  size_t uncommitted = 0;
  error = exec(h, o.file, "BEGIN IMMEDIATE");
  for (bool more = true; more && error.ok();) {
    std::vector<Label> batch;
    {
      std::unique_lock lock(q.mu);
      q.changed.wait_for(lock, COMMIT_EVERY, [&] { return !q.done.empty() || q.workers_left == 0; });
      batch.swap(q.done);
      more = q.workers_left > 0 || !batch.empty();
    }
    const uint64_t before = s.labeled;
    error = write_ready(batch);
    uncommitted += s.labeled - before;
    progress.poll(s.labeled, s.labeled);
    if (error.ok() && uncommitted > 0 &&
        (uncommitted >= LABEL_COMMIT_ROWS || std::chrono::steady_clock::now() - last_commit >= COMMIT_EVERY)) {
      error = exec(h, o.file, "COMMIT");
      if (error.ok()) error = exec(h, o.file, "BEGIN IMMEDIATE");
      uncommitted = 0;
      last_commit = std::chrono::steady_clock::now();
    }
  }
  q.stop = true;
  for (auto& t : pool) t.join();
  // Labels that came in after a writing error, or after a position a worker
  // failed on, are not written; the next run redoes them.
  if (error.ok()) error = write_ready(q.done);
  insert.reset();
  const Status committed = exec(h, o.file, "COMMIT");
  progress.finish();
  if (!error.ok()) return error;
  if (!committed.ok()) return committed;
  if (!q.error.ok()) return std::move(q.error);
  if (sqlite3_close_v2(db.release()) != SQLITE_OK) return Status::io(o.file + ": cannot close the database");
  s.restarts = q.restarts;
  s.engine_seconds = q.engine_seconds;
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return s;
}

std::string format_label_summary(const LabelSummary& s) {
  char line[256];
  std::snprintf(line, sizeof line,
                "file          %s\nengine        %s\npositions     %llu\nalready       %llu\nlabeled       %llu\n"
                "restarts      %llu\n%.2f s, %.1f positions/s; engine %.2f s (the workers' waits, summed)\n",
                s.file.c_str(), s.engine.c_str(), (unsigned long long)s.positions, (unsigned long long)s.already,
                (unsigned long long)s.labeled, (unsigned long long)s.restarts, s.seconds,
                s.seconds > 0 ? double(s.labeled) / s.seconds : 0.0, s.engine_seconds);
  return line;
}

}  // namespace manaka::vpd
