#include "stream/split.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <numeric>

#include <nlohmann/json.hpp>

#include "core/file.h"
#include "core/output.h"
#include "core/progress.h"
#include "core/splitmix64.h"
#include "core/temporary.h"
#include "core/text.h"
#include "core/uniform.h"
#include "stream/reader.h"
#include "stream/writer.h"

namespace manaka::stream {

namespace {

// Calls on_record(rec, new_game) for every record of every input, in order;
// new_game is true where a game starts (a file's first record, or a ply not
// above the one before).
template <typename OnRecord>
Status for_each_record(const std::vector<std::string>& inputs, Progress& progress, uint64_t& bytes_done,
                       uint64_t& records_done, OnRecord&& on_record) {
  for (const std::string& path : inputs) {
    MANAKA_ASSIGN_OR_RETURN(Reader reader, Reader::open(path));
    RecordView rec;
    bool first = true;
    uint16_t last_ply = 0;
    while (true) {
      MANAKA_ASSIGN_OR_RETURN(bool more, reader.next(rec));
      if (!more) break;
      const bool new_game = first || rec.ply <= last_ply;
      first = false;
      last_ply = rec.ply;
      MANAKA_RETURN_NOT_OK(on_record(rec, new_game));
      progress.update(bytes_done + reader.byte_offset(), ++records_done);
    }
    bytes_done += reader.byte_offset();
  }
  return Status();
}

// round(share * games), at least one game on each side.
uint64_t validation_games(double share, uint64_t games) {
  const auto k = static_cast<uint64_t>(std::llround(share * double(games)));
  return std::clamp<uint64_t>(k, 1, games - 1);
}

}  // namespace

Result<SplitSummary> split_stream(const SplitOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  const std::string who = "stream split: ";
  if (o.inputs.empty()) return Status::usage(who + "no input stream given");
  if (o.train.empty() || o.validation.empty()) return Status::usage(who + "both --train and --validation are needed");
  if (!(o.share > 0.0 && o.share < 1.0))
    return Status::usage(who + "--share is " + number_text(o.share) + ", must be above 0 and below 1");
  MANAKA_RETURN_NOT_OK(check_distinct_inputs(o.inputs).with_context(who));
  std::error_code ec;
  if (std::filesystem::weakly_canonical(o.train, ec) == std::filesystem::weakly_canonical(o.validation, ec))
    return Status::usage(who + "--train and --validation name the same file, " + o.train);
  MANAKA_RETURN_NOT_OK(check_output(o.train, o.inputs, o.overwrite).with_context(who));
  MANAKA_RETURN_NOT_OK(check_output(o.validation, o.inputs, o.overwrite).with_context(who));

  SplitSummary s;
  s.files = o.inputs;
  s.share = o.share;
  s.seed = o.seed;
  uint64_t total_bytes = 0;
  for (size_t i = 0; i < o.inputs.size(); ++i) {
    MANAKA_RETURN_NOT_OK(check_rereadable(o.inputs[i], "stream split"));
    MANAKA_ASSIGN_OR_RETURN(Reader reader, Reader::open(o.inputs[i]));
    // One header for both outputs: a stream whose header differs holds
    // numbers on another scale (pack would refuse to fold them together).
    if (i == 0) s.header = reader.header();
    else if (!(reader.header() == s.header))
      return Status::invalid(o.inputs[i] + ": its header differs from " + o.inputs[0] +
                             "'s (inspect both with manaka stream inspect); split streams of one header at a time");
    total_bytes += reader.size();
  }

  // Pass 1: count the games.
  Progress progress(who + "counting games", total_bytes);
  progress.set_enabled(o.progress);
  uint64_t bytes = 0, records = 0, games = 0;
  MANAKA_RETURN_NOT_OK(for_each_record(o.inputs, progress, bytes, records, [&](const RecordView&, bool new_game) {
    games += new_game;
    return Status();
  }));
  progress.finish();
  if (games < 2)
    return Status::invalid(who + "the input holds " + std::to_string(games) +
                           " game" + (games == 1 ? "" : "s") + "; a split needs at least 2 (a game is a run of "
                           "records whose ply rises)");

  // The validation games: the first k of a seeded permutation of 0..games-1.
  std::vector<uint64_t> order(games);
  std::iota(order.begin(), order.end(), uint64_t{0});
  SplitMix64 rng(derived_seed(o.seed, 0));
  for (uint64_t i = games - 1; i > 0; --i) std::swap(order[i], order[uniform_below(rng, i + 1)]);
  std::vector<bool> to_validation(games, false);
  for (uint64_t i = 0, k = validation_games(o.share, games); i < k; ++i) to_validation[order[i]] = true;

  // Pass 2: write each game to its side.
  PendingFile train_file(o.train), val_file(o.validation);
  MANAKA_ASSIGN_OR_RETURN(Writer train, Writer::create(train_file.path(), s.header));
  MANAKA_ASSIGN_OR_RETURN(Writer val, Writer::create(val_file.path(), s.header));
  Progress writing(who + "writing", total_bytes);
  writing.set_enabled(o.progress);
  bytes = records = 0;
  uint64_t game = 0;
  Writer* side = nullptr;
  MANAKA_RETURN_NOT_OK(for_each_record(o.inputs, writing, bytes, records, [&](const RecordView& rec, bool new_game) {
    if (new_game) {
      const bool v = to_validation[game++];
      side = v ? &val : &train;
      ++(v ? s.validation : s.train).games;
    }
    return side->write(rec);
  }));
  MANAKA_RETURN_NOT_OK(train.close());
  MANAKA_RETURN_NOT_OK(val.close());
  s.train = {o.train, s.train.games, train.records_written(), train.bytes_written()};
  s.validation = {o.validation, s.validation.games, val.records_written(), val.bytes_written()};
  MANAKA_RETURN_NOT_OK(train_file.commit());
  MANAKA_RETURN_NOT_OK(val_file.commit());
  writing.finish();
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return s;
}

std::string format_split_summary(const SplitSummary& s) {
  std::string out;
  const uint64_t games = s.train.games + s.validation.games;
  append_format(out, "split %zu file%s: %llu games, %llu records, in %.2f s (seed %llu)\n", s.files.size(),
                s.files.size() == 1 ? "" : "s", ull(games), ull(s.train.records + s.validation.records), s.seconds,
                ull(s.seed));
  for (const SplitSide* side : {&s.train, &s.validation})
    append_format(out, "  %-10s %s: %llu games (%.1f%%), %llu records (%s)\n",
                  side == &s.train ? "train" : "validation", side->path.c_str(), ull(side->games),
                  100.0 * double(side->games) / double(games), ull(side->records),
                  format_bytes(double(side->bytes)).c_str());
  return out;
}

std::string split_summary_json(const SplitSummary& s) {
  nlohmann::ordered_json j;
  j["files"] = s.files;
  j["share"] = s.share;
  j["seed"] = s.seed;
  for (const SplitSide* side : {&s.train, &s.validation})
    j[side == &s.train ? "train" : "validation"] = {
        {"path", side->path}, {"games", side->games}, {"records", side->records}, {"bytes", side->bytes}};
  j["seconds"] = s.seconds;
  return json_text(j);
}

}  // namespace manaka::stream
