// manaka._core.search: the C++ search with a Python network. The search
// threads run without the GIL; the calling thread serves the network,
// taking the GIL only for each batch's call.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <Python.h>

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "chess/game.h"
#include "chess/opening.h"
#include "chess/position.h"
#include "core/progress.h"
#include "core/text.h"
#include "python/bindings.h"
#include "python/call_python.h"
#include "python/checks.h"
#include "python/errors.h"
#include "python/numpy.h"
#include "search/chess_selfplay.h"
#include "search/selfplay.h"
#include "search/shogi_rules.h"
#include "selfplay/chess_selfplay_set.h"
#include "selfplay/selfplay_parts.h"
#include "selfplay/shogi_selfplay.h"
#include "shogi/encode.h"
#include "shogi/move_index.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace manaka::python {

namespace {

using search::EvalBatch;
using search::SearchOptions;

using Logits = nb::ndarray<const float, nb::c_contig, nb::device::cpu>;

// evaluate(planes int8 (B, *plane_shape)) -> (policy float32 (B, policy_size),
// value float32 (B,)), as manaka.search's wrapper hands them over.
search::Network python_network(nb::callable evaluate, std::array<size_t, 3> plane_shape, size_t policy_size,
                               std::optional<nb::python_error>& raised) {
  return [evaluate, plane_shape, policy_size, &raised](const EvalBatch& b) -> Status {
    return call_python(raised, [&]() -> Status {
      const size_t plane_size = plane_shape[0] * plane_shape[1] * plane_shape[2];
      auto planes = to_numpy(std::vector<int8_t>(b.planes, b.planes + size_t(b.size) * plane_size),
                             {size_t(b.size), plane_shape[0], plane_shape[1], plane_shape[2]});
      nb::object out = evaluate(planes);
      if (!nb::isinstance<nb::tuple>(out) || nb::len(out) != 2)
        return Status::usage("evaluate must return (policy_logits, value)");
      nb::tuple pair = nb::borrow<nb::tuple>(out);
      Logits policy, value;
      if (!nb::try_cast(pair[0], policy) || !nb::try_cast(pair[1], value))
        return Status::usage("evaluate must return float32 C-contiguous CPU arrays (policy_logits, value)");
      if (policy.ndim() != 2 || policy.shape(0) != size_t(b.size) || policy.shape(1) != policy_size)
        return Status::usage("evaluate returned policy_logits of the wrong shape; expected (" +
                             std::to_string(b.size) + ", " + std::to_string(policy_size) + ")");
      if (value.size() != size_t(b.size))
        return Status::usage("evaluate returned " + std::to_string(value.size()) + " values for " +
                             std::to_string(b.size) + " positions");
      std::copy(policy.data(), policy.data() + policy.size(), b.policy);
      std::copy(value.data(), value.data() + value.size(), b.value);
      return Status();
    });
  };
}

// Signals (Ctrl-C) while the search runs, and the caller's progress line.
search::Poll python_poll(std::optional<nb::python_error>& raised, const std::function<void()>& also = {}) {
  return [&raised, also]() -> Status {
    if (also) also();
    nb::gil_scoped_acquire acquire;
    if (PyErr_CheckSignals() != 0) {
      raised.emplace();
      return Status::invalid("interrupted");
    }
    return Status();
  };
}

nb::dict stats_dict(const search::EvaluatorStats& s) {
  nb::dict d;
  d["batches"] = s.batches;
  d["positions"] = s.positions;
  d["mean_batch_fill"] = s.mean_fill();
  d["network_seconds"] = s.network_seconds;
  return d;
}

chess::Game game_of(const std::string& fen, const std::vector<std::string>& moves) {
  chess::Game game(unwrap(chess::Position::from_fen(fen)));
  for (size_t i = 0; i < moves.size(); ++i) {
    Result<chess::Move> m = chess::Move::parse_uci(moves[i]);
    if (!m.ok() || !game.position().is_legal(*m))
      raise_if_error(Status::invalid("moves[" + std::to_string(i) + "]: " + moves[i] + " is not legal in " +
                                     game.position().fen()));
    game.push(*m);
  }
  return game;
}

// Runs a self-play job with the GIL released, the calling thread serving
// `evaluate`, and a progress line over games; re-raises the network's own
// exception; returns the job's result.
template <class T, class Play>
T run_self_play(const char* label, int games, bool progress, nb::callable evaluate, std::array<size_t, 3> planes,
                size_t policy_size, Play&& play) {
  std::optional<nb::python_error> raised;
  search::SelfPlayCounters counters;
  Progress line(label, uint64_t(games));
  line.set_units("games", "positions");
  line.set_enabled(progress);
  auto show = [&] { line.poll(counters.games, counters.positions); };
  Result<T> r = Status::invalid("not played");
  {
    nb::gil_scoped_release release;
    r = play(python_network(evaluate, planes, policy_size, raised), python_poll(raised, show), &counters);
    show();
    line.finish();
  }
  if (raised) throw std::move(*raised);
  return unwrap(std::move(r));
}

constexpr std::array<size_t, 3> kChessPlanes{size_t(chess::PLANE_NB), 8, 8};

nb::dict chess_self_play(nb::callable evaluate, nb::handle games, const SearchOptions& options, nb::handle max_plies,
                         nb::handle opening_plies, nb::handle first_game, bool progress) {
  search::ChessSelfPlayOptions o;
  o.first_game = uint_arg(first_game, "first_game", 0, search::kMaxFirstGame);
  o.search = options;
  o.games = int(int_arg(games, "games", 1, search::kMaxSelfPlayGames));
  o.max_plies = int(int_arg(max_plies, "max_plies", 1, search::kMaxSelfPlayPlies));
  o.opening_plies = int(int_arg(opening_plies, "opening_plies", 0, chess::kMaxOpeningPlies));
  raise_if_error(search::check_options(o));

  search::ChessSelfPlayData d = run_self_play<search::ChessSelfPlayData>(
      "selfplay", o.games, progress, evaluate, kChessPlanes, chess::POLICY_SIZE,
      [&](const search::Network& network, const search::Poll& poll, search::SelfPlayCounters* counters) {
        return search::chess_self_play(o, network, poll, counters);
      });
  const size_t n = d.move_indices.size();
  nb::dict out;
  out["states"] = to_numpy(std::move(d.states), {n, size_t(chess::PLANE_NB), 8, 8});
  out["move_indices"] = to_numpy(std::move(d.move_indices));
  out["outcomes"] = to_numpy(std::move(d.outcomes));
  out["visit_offsets"] = to_numpy(std::move(d.visit_offsets));
  out["visit_indices"] = to_numpy(std::move(d.visit_indices));
  out["visit_counts"] = to_numpy(std::move(d.visit_counts));
  out["root_values"] = to_numpy(std::move(d.root_values));
  out["game_offsets"] = to_numpy(std::move(d.game_offsets));
  out["results"] = nb::cast(d.results);
  out["terminations"] = nb::cast(d.terminations);
  out["openings"] = nb::cast(d.openings);
  out["stats"] = stats_dict(d.stats);
  return out;
}

// One search of `game`'s position, as a dict: the most visited move, every
// root move's (text, visits, prior), the root value, the evaluator's figures.
template <class R, size_t N>
nb::dict search_position(nb::callable evaluate, const typename R::State& game, const SearchOptions& options,
                         const std::array<size_t, N>& planes, int policy_size) {
  raise_if_error(search::check_options(options));
  std::optional<nb::python_error> raised;
  search::EvaluatorStats stats;
  Result<search::SearchResult<typename R::Move>> r = Status::invalid("not searched");
  {
    nb::gil_scoped_release release;
    r = search::search_once<R>(game, options, python_network(evaluate, planes, policy_size, raised),
                               python_poll(raised), &stats);
  }
  if (raised) throw std::move(*raised);
  search::SearchResult<typename R::Move> s = unwrap(std::move(r));
  auto text = [](typename R::Move m) {
    if constexpr (std::is_same_v<typename R::Move, chess::Move>) return m.to_uci();
    else return m.to_usi();
  };
  nb::list visits;
  for (const auto& c : s.children) visits.append(nb::make_tuple(text(c.move), c.visits, c.prior));
  nb::dict out;
  out["move"] = text(s.children[size_t(s.best())].move);
  out["visits"] = visits;
  out["value"] = s.value;
  out["simulations"] = s.simulations;
  out["stats"] = stats_dict(stats);
  return out;
}

nb::dict chess_search(nb::callable evaluate, const std::string& fen, const std::vector<std::string>& moves,
                      const SearchOptions& options) {
  return search_position<search::ChessRules>(evaluate, game_of(fen, moves), options, kChessPlanes,
                                             chess::POLICY_SIZE);
}

template <class T>
std::vector<T> column(const nb::dict& played, const char* key) {
  if (!played.contains(key)) raise_if_error(Status::usage(std::string("played: no array '") + key + "'"));
  nb::ndarray<const T, nb::c_contig, nb::device::cpu> a;
  if (!nb::try_cast(played[key], a))
    raise_if_error(Status::usage(std::string("played['") + key + "']: not a C-contiguous array of the right dtype"));
  return std::vector<T>(a.data(), a.data() + a.size());
}

nlohmann::ordered_json meta_object(const std::string& meta) {
  nlohmann::ordered_json m =
      meta.empty() ? nlohmann::ordered_json::object() : nlohmann::ordered_json::parse(meta, nullptr, false);
  if (m.is_discarded() || !m.is_object()) raise_if_error(Status::usage("meta: not a JSON object"));
  return m;
}

// chess_self_play's dict, written by selfplay/chess_selfplay_set.h; returns
// selfplay.json's text.
std::string write_chess_selfplay(const std::string& dir, const nb::dict& played, nb::handle shard_positions,
                                 const std::string& meta) {
  search::ChessSelfPlayData d;
  d.states = column<int8_t>(played, "states");
  d.move_indices = column<int32_t>(played, "move_indices");
  d.outcomes = column<int8_t>(played, "outcomes");
  d.visit_offsets = column<int64_t>(played, "visit_offsets");
  d.visit_indices = column<int32_t>(played, "visit_indices");
  d.visit_counts = column<int32_t>(played, "visit_counts");
  d.game_offsets = column<int64_t>(played, "game_offsets");
  for (const char* key : {"results", "terminations", "openings"})
    if (!played.contains(key)) raise_if_error(Status::usage(std::string("played: no list '") + key + "'"));
  d.results = nb::cast<std::vector<std::string>>(played["results"]);
  d.terminations = nb::cast<std::vector<std::string>>(played["terminations"]);
  d.openings = nb::cast<std::vector<std::string>>(played["openings"]);
  const uint64_t n = d.move_indices.size();
  if (d.states.size() != n * chess::PLANES_SIZE || d.outcomes.size() != n || d.visit_offsets.size() != n + 1 ||
      d.visit_indices.size() != d.visit_counts.size() || d.results.size() + 1 != d.game_offsets.size())
    raise_if_error(Status::usage("played: arrays of inconsistent lengths (not chess_self_play's output)"));
  const uint64_t per_shard = uint_arg(shard_positions, "shard_positions", 1);
  const nlohmann::ordered_json m = meta_object(meta);
  nlohmann::ordered_json j;
  {
    nb::gil_scoped_release release;
    j = unwrap(selfplay::write_chess_selfplay(dir, d, per_shard, m));
  }
  return json_text(j);
}

constexpr std::array<size_t, 3> kShogiPlanes{size_t(shogi::PLANE_NB), 9, 9};

nb::dict shogi_search(nb::callable evaluate, const std::string& sfen, const std::vector<std::string>& moves,
                      const SearchOptions& options) {
  shogi::Game game(unwrap(shogi::Position::from_sfen(sfen)));
  for (size_t i = 0; i < moves.size(); ++i) {
    Result<shogi::Move> m = shogi::Move::parse_usi(moves[i]);
    if (!m.ok() || !game.position().is_legal(*m))
      raise_if_error(Status::invalid("moves[" + std::to_string(i) + "]: " + moves[i] + " is not legal in " +
                                     game.position().sfen()));
    game.push(*m);
  }
  if (game.outcome()) raise_if_error(Status::usage("the game is over at " + game.position().sfen()));
  return search_position<search::ShogiRules>(evaluate, game, options, kShogiPlanes, shogi::POLICY_SIZE);
}

// The summary as (JSON text, the command's text), both from the library.
nb::tuple shogi_self_play(nb::callable evaluate, nb::handle games, const SearchOptions& options,
                            const std::string& output, nb::handle max_plies, bool saz, bool overwrite,
                            nb::handle first_game, bool progress) {
  selfplay::ShogiSelfPlayOptions o;
  o.first_game = uint_arg(first_game, "first_game", 0, search::kMaxFirstGame);
  o.search = options;
  o.games = int(int_arg(games, "games", 1, selfplay::kMaxGames));
  o.max_plies = int(int_arg(max_plies, "max_plies", 1, selfplay::kMaxPlies));
  o.output = output;
  o.saz = saz;
  o.overwrite = overwrite;
  raise_if_error(selfplay::check_options(o));

  selfplay::ShogiSelfPlaySummary summary = run_self_play<selfplay::ShogiSelfPlaySummary>(
      "selfplay", o.games, progress, evaluate, kShogiPlanes, shogi::POLICY_SIZE,
      [&](const search::Network& network, const search::Poll& poll, search::SelfPlayCounters* counters) {
        return selfplay::shogi_self_play(o, network, poll, counters);
      });
  return nb::make_tuple(selfplay::summary_json(summary), selfplay::summary_text(summary));
}

void join_shogi_selfplay(const std::vector<std::string>& parts, const std::string& output, bool overwrite) {
  Status st;
  {
    nb::gil_scoped_release release;
    st = selfplay::join_shogi_selfplay(parts, output, overwrite);
  }
  raise_if_error(st);
}

std::string join_chess_selfplay(const std::vector<std::string>& parts, const std::string& output,
                                const std::string& meta, bool overwrite) {
  const nlohmann::ordered_json m = meta_object(meta);
  nlohmann::ordered_json j;
  {
    nb::gil_scoped_release release;
    j = unwrap(selfplay::join_chess_selfplay(parts, output, m, overwrite));
  }
  return json_text(j);
}

}  // namespace

void bind_search(nb::module_ m) {
  nb::class_<SearchOptions>(m, "SearchOptions",
                            "Options of the PUCT search and of self-play (see docs/search.md); checked when used.")
      .def(nb::init<>())
      .def_rw("simulations", &SearchOptions::simulations)
      .def_rw("c_puct", &SearchOptions::c_puct)
      .def_rw("dirichlet_alpha", &SearchOptions::dirichlet_alpha)
      .def_rw("dirichlet_epsilon", &SearchOptions::dirichlet_epsilon)
      .def_rw("temperature", &SearchOptions::temperature)
      .def_rw("temperature_plies", &SearchOptions::temperature_plies)
      .def_rw("batch_size", &SearchOptions::batch_size)
      .def_rw("threads", &SearchOptions::threads)
      .def_rw("exact_batches", &SearchOptions::exact_batches)
      .def_rw("seed", &SearchOptions::seed)
      .def("check", [](const SearchOptions& o) { raise_if_error(search::check_options(o)); },
           "Raises manaka.UsageError naming an option out of range.");
  m.attr("CHESS_POLICY_SIZE") = chess::POLICY_SIZE;
  m.attr("SHOGI_POLICY_SIZE") = shogi::POLICY_SIZE;
  m.def("shogi_self_play", &shogi_self_play, "evaluate"_a, "games"_a, "options"_a, "output"_a, nb::kw_only(),
        "max_plies"_a.none() = selfplay::ShogiSelfPlayOptions{}.max_plies, "saz"_a = false, "overwrite"_a = false,
        "first_game"_a = 0, "progress"_a = true,
        "Plays games of shogi against itself through the search and writes output/selfplay.mpk (MPK1) and, "
        "with saz, output/selfplay.saz (SAZ2); returns the summary as (JSON text, text).");
  m.def("chess_self_play", &chess_self_play, "evaluate"_a, "games"_a, "options"_a, nb::kw_only(),
        "max_plies"_a.none() = search::ChessSelfPlayOptions{}.max_plies,
        "opening_plies"_a.none() = search::ChessSelfPlayOptions{}.opening_plies, "first_game"_a = 0,
        "progress"_a = true,
        "Plays games of chess against itself through the search with evaluate as the network; returns the "
        "searched positions as training arrays (see manaka.search).");
  m.def("write_chess_selfplay", &write_chess_selfplay, "dir"_a, "played"_a, "shard_positions"_a, "meta"_a = "",
        "Writes chess_self_play's arrays as npz shards with visits and selfplay.json into dir, complete or "
        "absent; returns selfplay.json's content (JSON text). meta: a JSON object of fields put first.");
  m.def("join_shogi_selfplay", &join_shogi_selfplay, "parts"_a, "output"_a, nb::kw_only(), "overwrite"_a = false,
        "Joins shogi self-play directories of consecutive game ranges, in game order, into the directory one "
        "run writes (selfplay.mpk, selfplay.saz), complete or absent (selfplay/selfplay_parts.h).");
  m.def("join_chess_selfplay", &join_chess_selfplay, "parts"_a, "output"_a, "meta"_a = "", nb::kw_only(),
        "overwrite"_a = false,
        "Joins chess self-play sets of consecutive game ranges, in game order, into one set (shards "
        "renumbered, selfplay.json merged), complete or absent; returns selfplay.json's content (JSON text).");
  m.def("shogi_search", &shogi_search, "evaluate"_a, "sfen"_a, "moves"_a, "options"_a,
        "Searches the shogi position after moves (USI) from sfen; the same dict as chess_search, moves in USI.");
  m.def("chess_search", &chess_search, "evaluate"_a, "fen"_a, "moves"_a, "options"_a,
        "Searches the position after moves (UCI) from fen; returns the most visited move, every root move's "
        "(uci, visits, prior), the root value for the side to move and the evaluator's statistics.");
}

}  // namespace manaka::python
