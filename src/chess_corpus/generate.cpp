#include "chess_corpus/generate.h"

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "chess/encode.h"
#include "core/file.h"
#include "core/file_lock.h"
#include "core/output.h"
#include "core/progress.h"
#include "core/task_thread.h"
#include "core/temporary.h"
#include "core/text.h"
#include "chess_shard/chess_shard.h"
#include "chess_corpus/game.h"
#include "chess_corpus/manifest.h"
#include "chess_corpus/pgn_text.h"
#include "core/threads.h"

namespace manaka::chess_corpus {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kMaxTries = 3;  // a game whose engine fails this often ends the run

double process_cpu_seconds() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

Status check_options(const CorpusOptions& o) {
  auto bad = [](const std::string& what) { return Status::usage("chess corpus: " + what); };
  if (o.output_dir.empty()) return bad("no output directory (-o DIR)");
  if (o.games < 1) return bad("--games must be at least 1");
  if (o.first_game > kMaxGames) return bad("--first-game must be 0.." + std::to_string(kMaxGames));
  if (o.workers < 0 || o.workers > 256) return bad("--workers must be 0..256");
  if (o.opening_plies < 0 || o.opening_plies > 40) return bad("--opening-plies must be 0..40");
  if (o.shard_size < 1) return bad("--shard-size must be at least 1");
  if (o.limit.depth < 0 || o.limit.movetime_ms < 0) return bad("the search limit must not be negative");
  return Status();
}

// One shard's games, in index order.
struct ShardBatch {
  uint64_t index = 0;
  std::vector<PlayedGame> games;
  uint64_t positions = 0;
};

Status write_shard(const std::string& dir, const ShardBatch& b, bool pgn, bool with_scores,
                   const std::string& engine_name, ShardEntry& entry) {
  UninitVector<int8_t> states(b.positions * chess::PLANES_SIZE);
  std::vector<int32_t> moves;
  std::vector<int8_t> outcomes;
  std::vector<int16_t> scores;
  moves.reserve(b.positions);
  outcomes.reserve(b.positions);
  if (with_scores) scores.reserve(b.positions);
  size_t at = 0;
  std::string text;
  for (const PlayedGame& g : b.games) {
    std::copy(g.states.begin(), g.states.end(), states.begin() + std::ptrdiff_t(at));
    at += g.states.size();
    moves.insert(moves.end(), g.move_indices.begin(), g.move_indices.end());
    outcomes.insert(outcomes.end(), g.outcomes.begin(), g.outcomes.end());
    if (with_scores) scores.insert(scores.end(), g.scores.begin(), g.scores.end());
    const auto& w = g.outcome.winner;
    ++entry.results[!w ? 1 : *w == chess::WHITE ? 0 : 2];
    if (pgn) text += game_pgn(g, engine_name);
  }
  entry.file = shard_file_name(b.index);
  entry.first_game = b.games.front().index;
  entry.games = b.games.size();
  entry.positions = b.positions;
  if (pgn) {
    MANAKA_ASSIGN_OR_RETURN(AtomicFile out, AtomicFile::create((fs::path(dir) / pgn_file_name(b.index)).string()));
    MANAKA_RETURN_NOT_OK(out.write_all(text.data(), text.size()));
    MANAKA_RETURN_NOT_OK(out.commit());
  }
  ChessShardView view{b.positions, states.data(), moves.data(), outcomes.data()};
  if (with_scores) view.scores = scores.data();
  return write_chess_shard((fs::path(dir) / entry.file).string(), view);
}

// Finished games in, shards out: games are taken in index order, cut into
// shards at game boundaries, and written on the writer thread in order.
class Collector {
 public:
  Collector(const CorpusOptions& o, Manifest& manifest, std::string engine_name)
      : o_(o), manifest_(manifest), engine_name_(std::move(engine_name)), next_(o.first_game + manifest.games()) {
    batch_.index = manifest.shards.size();
  }

  void add(PlayedGame game) {
    std::lock_guard lock(mu_);
    const uint64_t index = game.index;
    done_.emplace(index, std::move(game));
    while (!done_.empty() && done_.begin()->first == next_) {
      PlayedGame& g = done_.begin()->second;
      batch_.positions += g.records();
      batch_.games.push_back(std::move(g));
      done_.erase(done_.begin());
      ++next_;
      if (batch_.positions >= o_.shard_size) cut_locked();
    }
  }

  // The last, short shard, then waits for the writer.
  Status finish() {
    {
      std::lock_guard lock(mu_);
      if (!batch_.games.empty()) cut_locked();
    }
    if (written_.valid()) written_.wait();
    std::lock_guard lock(write_mu_);
    return error_;
  }

  // Games written to shards so far by this run (for the summary).
  const std::vector<ShardEntry>& written() const { return entries_; }
  const std::vector<PlayedGame>& kept() const { return kept_; }

 private:
  void cut_locked() {
    auto batch = std::make_shared<ShardBatch>(std::move(batch_));
    batch_ = ShardBatch{batch->index + 1, {}, 0};
    written_ = writing_.submit([this, batch] {
      std::lock_guard lock(write_mu_);
      if (!error_.ok()) return;
      ShardEntry entry;
      error_ = write_shard(o_.output_dir, *batch, o_.pgn, o_.scores, engine_name_, entry);
      if (!error_.ok()) return;
      manifest_.shards.push_back(entry);
      error_ = write_manifest(o_.output_dir, manifest_);
      entries_.push_back(entry);
      for (PlayedGame& g : batch->games) {
        g.states = {};  // the summary needs the moves and outcome only
        g.move_indices = {};
        g.outcomes = {};
        g.scores = {};
        kept_.push_back(std::move(g));
      }
    });
  }

  const CorpusOptions& o_;
  Manifest& manifest_;
  std::string engine_name_;
  std::mutex mu_;
  std::map<uint64_t, PlayedGame> done_;
  uint64_t next_;
  ShardBatch batch_;
  std::mutex write_mu_;  // guards error_, manifest_, entries_, kept_ on the writer thread
  Status error_;
  std::vector<ShardEntry> entries_;
  std::vector<PlayedGame> kept_;
  std::future<void> written_;
  TaskThread writing_;  // last: joined first, while what its tasks use still exists
};

struct Shared {
  std::atomic<uint64_t> next_game{0};
  std::atomic<uint64_t> played{0}, positions{0};
  std::atomic<bool> stop{false};
  std::mutex mu;
  Status error;
  double engine_seconds = 0.0;
};

void run_worker(engine::Engine& eng, const CorpusOptions& o, Collector& collector, Shared& sh) {
  double engine_seconds = 0.0;
  for (;;) {
    if (sh.stop.load()) break;
    const uint64_t index = sh.next_game.fetch_add(1);
    if (index >= o.first_game + o.games) break;
    Result<PlayedGame> game = Status::engine("not played");
    for (int attempt = 0; attempt < kMaxTries; ++attempt) {
      if (!eng.alive()) {
        Status st = eng.restart();
        if (!st.ok()) {
          game = std::move(st);
          continue;
        }
      }
      game = play_game(eng, o.limit, o.opening_plies, o.seed, index);
      if (game.ok()) break;
      if (eng.alive()) (void)eng.restart();  // an illegal bestmove: start afresh
    }
    if (!game.ok()) {
      std::lock_guard lock(sh.mu);
      if (sh.error.ok()) sh.error = std::move(game).take_status();
      sh.stop = true;
      break;
    }
    engine_seconds += game->engine_seconds;
    sh.positions += game->records();
    ++sh.played;
    collector.add(std::move(*game));
  }
  std::lock_guard lock(sh.mu);
  sh.engine_seconds += engine_seconds;
}

constexpr const char* kReplacementSuffix = ".replacement";

// What a directory holds for a run with this identity: its manifest; whether
// that is another corpus (other options, or other games); whether it holds
// shard or PGN files with no manifest (foreign); and the files of ours the
// manifest does not list (stale: every one, for another corpus). What
// --overwrite replaces is another or a foreign one.
struct DirSurvey {
  Manifest manifest;
  bool other = false, foreign = false;
  std::vector<fs::path> stale;
  std::vector<std::string> disagree;  // listed shards missing or replaced (check_listed_shards)
};

Result<DirSurvey> survey_dir(const std::string& dir, const CorpusIdentity& id, uint64_t first_game) {
  DirSurvey s;
  MANAKA_ASSIGN_OR_RETURN(s.manifest, read_manifest(dir));
  const Manifest& m = s.manifest;
  s.other = !m.shards.empty() && (!(m.identity == id) || m.first_game() != first_game);
  if (!s.other) s.disagree = check_listed_shards(dir, m);
  std::set<std::string> listed;
  // Another corpus, or one whose shards disagree with it: every file of ours is stale.
  for (size_t i = 0; i < m.shards.size() && !s.other && s.disagree.empty(); ++i) {
    listed.insert(m.shards[i].file);
    listed.insert(pgn_file_name(i));
  }
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    const bool ours = is_shard_file_name(name) || (name.rfind("games_", 0) == 0 && name.ends_with(".pgn"));
    if (ours && !listed.count(name)) s.stale.push_back(entry.path());
  }
  s.foreign = m.shards.empty() && !s.stale.empty();
  return s;
}

// Prepares dir for a run with this identity: refuses (or with overwrite
// clears) another corpus, and removes shard files the manifest does not list.
Result<Manifest> prepare_dir(const CorpusOptions& o, const CorpusIdentity& id) {
  MANAKA_ASSIGN_OR_RETURN(DirSurvey s, survey_dir(o.output_dir, id, o.first_game));
  const Manifest& m = s.manifest;
  if (s.other && !o.overwrite) {
    return Status::usage(o.output_dir + ": holds a corpus made with other options (" + m.identity.engine + ", " +
                         m.identity.limit + ", seed " + std::to_string(m.identity.seed) + ", " +
                         std::to_string(m.identity.opening_plies) + " opening plies, shards of " +
                         std::to_string(m.identity.shard_size) + (m.identity.scores ? ", with scores" : ", without scores") +
                         ", from game " + std::to_string(m.first_game()) + "); pass --overwrite to start over");
  }
  if (!s.disagree.empty() && !o.overwrite) {
    return Status::usage(s.disagree.front() + "; a corpus is continued only while " + kManifestName +
                         " describes its shards: pass --overwrite to start over");
  }
  if (s.foreign && !o.overwrite) {
    return Status::usage(o.output_dir + ": holds shard files but no " + kManifestName +
                         "; pass --overwrite to replace them");
  }
  std::error_code ec;
  for (const auto& p : s.stale) fs::remove(p, ec);
  Manifest kept = s.other || !s.disagree.empty() ? Manifest{} : std::move(s.manifest);
  kept.identity = id;
  return kept;
}

nlohmann::ordered_json result_json(const std::array<uint64_t, 3>& r) {
  return {{"1-0", r[0]}, {"1/2-1/2", r[1]}, {"0-1", r[2]}};
}

}  // namespace

std::string limit_text(const engine::SearchLimit& l) {
  std::string s;
  auto part = [&s](const char* name, uint64_t v) { s += (s.empty() ? "" : " ") + std::string(name) + " " + std::to_string(v); };
  if (l.nodes) part("nodes", l.nodes);
  if (l.depth) part("depth", uint64_t(l.depth));
  if (l.movetime_ms) part("movetime", uint64_t(l.movetime_ms));
  return s;
}

Result<CorpusSummary> generate(const CorpusOptions& options) {
  const auto start = Clock::now();
  const double cpu_start = process_cpu_seconds();
  MANAKA_RETURN_NOT_OK(check_options(options));
  CorpusOptions o = options;
  if (o.limit.depth == 0 && o.limit.nodes == 0 && o.limit.movetime_ms == 0) o.limit.movetime_ms = kDefaultMovetimeMs;
  o.workers = threads_or_hardware(o.workers);

  MANAKA_RETURN_NOT_OK(check_dir_not_input(o.output_dir, {o.engine}));
  std::error_code ec;
  fs::create_directories(o.output_dir, ec);
  if (ec) return Status::io(o.output_dir + ": cannot create the directory: " + ec.message());
  MANAKA_ASSIGN_OR_RETURN(FileLock lock, FileLock::acquire((fs::path(o.output_dir) / ".corpus.lock").string(),
                                                           o.output_dir + ": another run is writing this corpus"));

  std::vector<std::unique_ptr<engine::Engine>> engines;
  engine::EngineOptions eo;
  eo.path = o.engine;
  eo.protocol = engine::Protocol::Uci;
  eo.options = {{"Threads", "1"}, {"Hash", std::to_string(o.hash_mb)}};
  eo.fresh_threads_each_game = true;  // Stockfish 15.1 needs it not; an engine of its family may
  for (int w = 0; w < o.workers; ++w) {
    auto eng = engine::Engine::start(eo);
    if (!eng.ok()) return std::move(eng).take_status().with_context("chess corpus: ");
    engines.push_back(std::move(*eng));
  }
  const CorpusIdentity id{engines[0]->name(), limit_text(o.limit), o.seed, o.opening_plies, o.shard_size, o.scores};
  // --overwrite of another corpus: that one stays whole until this one is.
  // This one is built beside it (continued there by the same command after
  // a stop) and takes its name when complete.
  const std::string final_dir = o.output_dir;
  bool replacing = false;
  if (o.overwrite) {
    MANAKA_ASSIGN_OR_RETURN(DirSurvey there, survey_dir(final_dir, id, o.first_game));
    replacing = there.other || there.foreign;
  }
  if (replacing) {
    o.output_dir = final_dir + kReplacementSuffix;
    fs::create_directories(o.output_dir, ec);
    if (ec) return Status::io(o.output_dir + ": cannot create the directory: " + ec.message());
  }
  MANAKA_ASSIGN_OR_RETURN(Manifest manifest, prepare_dir(o, id));

  CorpusSummary s;
  s.output_dir = o.output_dir;
  s.engine_name = id.engine;
  s.limit = id.limit;
  s.workers = o.workers;
  s.games_before = manifest.games();
  if (s.games_before < o.games) {
    Shared sh;
    sh.next_game = o.first_game + s.games_before;
    Collector collector(o, manifest, id.engine);
    Progress progress("corpus", o.games - s.games_before);
    progress.set_units("games", "positions");
    progress.set_enabled(o.progress);
    std::vector<std::thread> threads;
    for (int w = 0; w < o.workers; ++w)
      threads.emplace_back(run_worker, std::ref(*engines[size_t(w)]), std::cref(o), std::ref(collector), std::ref(sh));
    std::atomic<bool> running{true};
    std::thread ticker([&] {
      while (running.load()) {
        progress.poll(sh.played.load(), sh.positions.load());
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
      }
    });
    for (auto& t : threads) t.join();
    running = false;
    ticker.join();
    progress.poll(sh.played.load(), sh.positions.load());
    progress.finish();
    Status written = collector.finish();
    s.engine_seconds = sh.engine_seconds;
    std::set<std::string> openings;
    std::vector<uint64_t> plies;
    for (const PlayedGame& g : collector.kept()) {
      ++s.terminations[size_t(g.outcome.termination)];
      const auto& w = g.outcome.winner;
      ++s.results[!w ? 1 : *w == chess::WHITE ? 0 : 2];
      plies.push_back(g.moves.size());
      std::string opening;
      for (int i = 0; i < g.opening_plies; ++i) opening += g.moves[size_t(i)].to_uci() + " ";
      openings.insert(opening);
    }
    for (const ShardEntry& e : collector.written()) s.positions += e.positions;
    s.games = plies.size();
    s.shards = collector.written().size();
    s.distinct_openings = openings.size();
    if (!plies.empty()) {
      s.plies_min = *std::min_element(plies.begin(), plies.end());
      s.plies_max = *std::max_element(plies.begin(), plies.end());
      double sum = 0;
      for (uint64_t p : plies) sum += double(p);
      s.plies_mean = sum / double(plies.size());
    }
    if (!written.ok()) return std::move(written).with_context("chess corpus: ");
    if (!sh.error.ok()) {
      return std::move(sh.error).with_context("chess corpus: stopped after " + std::to_string(s.games) +
                                              " games were written to " + o.output_dir + " (the same command continues): ");
    }
  }
  for (auto& eng : engines) eng->quit();
  if (replacing) {
    MANAKA_RETURN_NOT_OK(replace_directory(o.output_dir, final_dir).with_context("chess corpus: "));
    s.output_dir = final_dir;
  }
  s.corpus_games = manifest.games();
  s.corpus_positions = manifest.positions();
  s.corpus_results = manifest.results();
  s.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  s.overhead_seconds = process_cpu_seconds() - cpu_start;
  return s;
}

std::string format_summary(const CorpusSummary& s) {
  auto pct = [](uint64_t part, uint64_t whole) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%.1f%%", whole ? 100.0 * double(part) / double(whole) : 0.0);
    return std::string(buf);
  };
  char line[256];
  std::string out = "corpus " + s.output_dir + ": " + std::to_string(s.corpus_games) + " games, " +
                    std::to_string(s.corpus_positions) + " positions";
  if (s.games_before) out += " (" + std::to_string(s.games_before) + " games were there before)";
  out += "\nthis run: " + std::to_string(s.games) + " games, " + std::to_string(s.positions) + " positions, " +
         std::to_string(s.shards) + " shards, " + s.engine_name + " (" + s.limit + "), " +
         std::to_string(s.workers) + " workers\n";
  if (s.games == 0) return out;
  out += "results: 1-0 " + pct(s.results[0], s.games) + ", 1/2-1/2 " + pct(s.results[1], s.games) + ", 0-1 " +
         pct(s.results[2], s.games) + "\nendings:";
  for (size_t t = 1; t < s.terminations.size(); ++t)
    if (s.terminations[t]) out += std::string(" ") + chess::termination_name(chess::Termination(t)) + " " + std::to_string(s.terminations[t]);
  std::snprintf(line, sizeof line,
                "\nplies per game: min %llu, mean %.1f, max %llu; distinct openings: %llu of %llu\n"
                "%.1f s (%.2f games/s); engine time %.1f s, generator %.2f s (%.3f%% of engine time)\n",
                static_cast<unsigned long long>(s.plies_min), s.plies_mean, static_cast<unsigned long long>(s.plies_max),
                static_cast<unsigned long long>(s.distinct_openings), static_cast<unsigned long long>(s.games), s.seconds,
                s.seconds > 0 ? double(s.games) / s.seconds : 0.0, s.engine_seconds, s.overhead_seconds,
                100.0 * s.overhead_share());
  return out + line;
}

std::string summary_json(const CorpusSummary& s) {
  nlohmann::ordered_json endings = nlohmann::ordered_json::object();
  for (size_t t = 1; t < s.terminations.size(); ++t)
    if (s.terminations[t]) endings[chess::termination_name(chess::Termination(t))] = s.terminations[t];
  nlohmann::ordered_json j = {{"output", s.output_dir},
                              {"engine", s.engine_name},
                              {"limit", s.limit},
                              {"workers", s.workers},
                              {"games_before", s.games_before},
                              {"games", s.games},
                              {"positions", s.positions},
                              {"shards", s.shards},
                              {"results", result_json(s.results)},
                              {"endings", endings},
                              {"plies_min", s.plies_min},
                              {"plies_mean", s.plies_mean},
                              {"plies_max", s.plies_max},
                              {"distinct_openings", s.distinct_openings},
                              {"corpus_games", s.corpus_games},
                              {"corpus_positions", s.corpus_positions},
                              {"corpus_results", result_json(s.corpus_results)},
                              {"seconds", s.seconds},
                              {"engine_seconds", s.engine_seconds},
                              {"overhead_seconds", s.overhead_seconds},
                              {"overhead_share", s.overhead_share()}};
  return json_text(j);
}

}  // namespace manaka::chess_corpus
