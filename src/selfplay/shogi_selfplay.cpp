#include "selfplay/shogi_selfplay.h"

#include <chrono>
#include <nlohmann/json.hpp>

#include "core/output.h"
#include "core/temporary.h"
#include "core/text.h"
#include "sazpack/codec.h"
#include "sazpack/distribution.h"
#include "sazpack/move16.h"
#include "sazpack/packed_sfen.h"
#include "search/shogi_rules.h"
#include "shogi/pack.h"
#include "stream/selfplay_writer.h"
#include "core/file.h"

namespace manaka::selfplay {

namespace {

using search::ShogiRules;
using Game = search::PlayedGame<ShogiRules>;

constexpr const char* kMpkName = "selfplay.mpk";
constexpr const char* kSazName = "selfplay.saz";

stream::GameResult mpk_result(const Game& g) {
  if (!g.outcome || !g.outcome->winner) return stream::GameResult::Draw;
  return *g.outcome->winner == shogi::BLACK ? stream::GameResult::BlackWin : stream::GameResult::WhiteWin;
}

Status write_mpk(const std::string& path, const std::vector<Game>& games) {
  MANAKA_ASSIGN_OR_RETURN(auto out, stream::SelfPlayWriter::create(path));
  std::vector<stream::VisitedMove> visited;
  for (const Game& g : games) {
    MANAKA_RETURN_NOT_OK(out.begin_game());
    shogi::Game game = g.start;
    for (const auto& ply : g.plies) {
      visited.clear();
      for (const auto& c : ply.children)
        if (c.visits > 0) visited.push_back({c.move.raw, uint32_t(c.visits)});
      const shogi::Packed packed = shogi::pack(game.position());
      MANAKA_RETURN_NOT_OK(out.add_position(packed, uint16_t(std::min(game.ply(), 65535)), ply.value, visited));
      game.push(ply.move);
    }
    MANAKA_RETURN_NOT_OK(out.end_game(mpk_result(g)));
  }
  return out.close();
}

}  // namespace

SazEnding saz_ending(const std::optional<shogi::Outcome>& outcome, shogi::Color to_move) {
  using sazpack::GameResult;
  using sazpack::TerminationReason;
  if (!outcome) return {GameResult::DrawByMaxPlies, TerminationReason::MaxGamePlies};
  const GameResult won = outcome->winner == shogi::BLACK ? GameResult::BlackWin : GameResult::WhiteWin;
  switch (outcome->termination) {
    case shogi::Termination::NoLegalMove: return {won, TerminationReason::NoLegalMoves};
    case shogi::Termination::Repetition: return {GameResult::DrawByRepetition, TerminationReason::RepetitionDraw};
    case shogi::Termination::PerpetualCheck:
      // Named from the side to move at the end, which may be either side: the
      // checked one (it wins) or the checker (it loses), by where the cycle began.
      return {won, outcome->winner == to_move ? TerminationReason::PerpetualCheckWin
                                              : TerminationReason::PerpetualCheckLoss};
    case shogi::Termination::PlyLimit: break;
  }
  return {GameResult::DrawByMaxPlies, TerminationReason::MaxGamePlies};
}

namespace {

sazpack::OutcomeBound bound_of(float v) {
  return v > 0 ? sazpack::OutcomeBound::Win : v < 0 ? sazpack::OutcomeBound::Loss : sazpack::OutcomeBound::Draw;
}

Result<sazpack::SazGame> saz_game(const Game& g, int simulations) {
  sazpack::SazGame s;
  s.stem = sazpack::encode_packed_sfen(g.start.position());
  s.entering_king_rule = sazpack::EnteringKingRule::None;
  shogi::Game game = g.start;
  const int n = int(g.plies.size());
  for (int i = 0; i < n; ++i) {
    const auto& ply = g.plies[size_t(i)];
    sazpack::SazPosition p;
    p.played = sazpack::Move16::from_mpk(ply.move);
    p.root_wdl = sazpack::wdl_of_value(ply.value);
    float z = 0;
    if (g.outcome && g.outcome->winner) z = *g.outcome->winner == game.position().side_to_move() ? 1.0f : -1.0f;
    p.outcome_wdl = sazpack::wdl_of_value(z);
    p.raw_wdl = sazpack::wdl_of_value(ply.raw_value);
    p.plies_left = uint16_t(std::min(n - i, 65535));
    p.requested_visits = uint32_t(simulations);
    p.target_weight_milli = 1000;
    std::vector<float> prior, raw;
    for (const auto& c : ply.children) {
      prior.push_back(c.search_prior);
      raw.push_back(c.prior);
    }
    const auto q_prior = sazpack::to_distribution(prior), q_raw = sazpack::to_distribution(raw);
    for (size_t k = 0; k < ply.children.size(); ++k) {
      const auto& c = ply.children[k];
      sazpack::SazPolicyEntry e;
      e.mv = sazpack::Move16::from_mpk(c.move);
      e.prior = q_prior[k];
      e.raw_prior = q_raw[k];
      e.visits = uint32_t(c.visits);
      if (c.proven) e.lower = e.upper = bound_of(*c.proven);
      p.policy.push_back(e);
    }
    s.positions.push_back(std::move(p));
    game.push(ply.move);
  }
  const SazEnding end = saz_ending(g.outcome, game.position().side_to_move());  // the final position's
  s.game_result = end.result;
  s.termination_reason = end.reason;
  return s;
}

Status write_saz(const std::string& path, const std::vector<Game>& games, int simulations) {
  sazpack::ChunkWriter chunk;
  for (size_t i = 0; i < games.size(); ++i) {
    MANAKA_ASSIGN_OR_RETURN(auto s, saz_game(games[i], simulations));
    MANAKA_RETURN_NOT_OK(chunk.add(s).with_context("game " + std::to_string(i) + ": "));
  }
  MANAKA_ASSIGN_OR_RETURN(auto bytes, chunk.finish());
  MANAKA_ASSIGN_OR_RETURN(auto out, OutputFile::create(path));
  MANAKA_RETURN_NOT_OK(out.write_all(bytes.data(), bytes.size()));
  return out.close();
}

}  // namespace

Status check_options(const ShogiSelfPlayOptions& o) {
  MANAKA_RETURN_NOT_OK(search::check_options(o.search));
  if (o.games < 1 || o.games > kMaxGames)
    return Status::usage("--games " + std::to_string(o.games) + ": must be 1..1000000");
  if (o.max_plies < 1 || o.max_plies > kMaxPlies)
    return Status::usage("--max-plies " + std::to_string(o.max_plies) + ": must be 1..10000");
  if (o.output.empty()) return Status::usage("an output directory is needed (-o DIR)");
  if (o.first_game > search::kMaxFirstGame)
    return Status::usage("first_game " + std::to_string(o.first_game) + ": must be below 2^48 - 10^6");
  return Status();
}

Result<ShogiSelfPlaySummary> shogi_self_play(const ShogiSelfPlayOptions& o, const search::Network& network,
                                             const search::Poll& poll, search::SelfPlayCounters* counters) {
  const auto start_time = std::chrono::steady_clock::now();
  MANAKA_RETURN_NOT_OK(check_options(o));
  MANAKA_RETURN_NOT_OK(check_output_dir(o.output, {}, o.overwrite, kMpkName));
  auto start = [](uint64_t) -> Result<shogi::Game> { return shogi::Game(); };
  // The search itself never ends a game at the ply limit (it is not a rule
  // of shogi); self_play stops there and the result is a draw.
  search::EvaluatorStats stats;
  MANAKA_ASSIGN_OR_RETURN(auto games, search::self_play<ShogiRules>(o.games, o.max_plies, o.search, start, network,
                                                                   poll, counters, &stats, o.first_game));
  MANAKA_ASSIGN_OR_RETURN(auto dir, TempDir::for_output(o.output));
  MANAKA_RETURN_NOT_OK(write_mpk(dir.path() + "/" + kMpkName, games));
  if (o.saz) MANAKA_RETURN_NOT_OK(write_saz(dir.path() + "/" + kSazName, games, o.search.simulations));
  MANAKA_RETURN_NOT_OK(dir.commit(o.overwrite));

  ShogiSelfPlaySummary s;
  s.mpk_path = o.output + "/" + kMpkName;
  if (o.saz) s.saz_path = o.output + "/" + kSazName;
  for (const Game& g : games) {
    s.games++;
    s.positions += g.plies.size();
    if (!g.outcome) {
      s.draws++;
      s.ply_limit++;
      continue;
    }
    (g.outcome->winner ? (*g.outcome->winner == shogi::BLACK ? s.black_wins : s.white_wins) : s.draws)++;
    switch (g.outcome->termination) {
      case shogi::Termination::NoLegalMove: s.no_legal_move++; break;
      case shogi::Termination::Repetition: s.repetition++; break;
      case shogi::Termination::PerpetualCheck: s.perpetual_check++; break;
      case shogi::Termination::PlyLimit: s.ply_limit++; break;
    }
  }
  s.stats = stats;
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
  return s;
}

std::string summary_text(const ShogiSelfPlaySummary& s) {
  std::string out;
  append_format(out,
                "selfplay: %llu games, %llu positions (Black %llu, White %llu, draws %llu; no legal move %llu, "
                "repetition %llu, perpetual check %llu, ply limit %llu) in %.1f s; evaluator: %llu batches, mean "
                "fill %.1f%%\n  %s\n",
                (unsigned long long)s.games, (unsigned long long)s.positions, (unsigned long long)s.black_wins,
                (unsigned long long)s.white_wins, (unsigned long long)s.draws, (unsigned long long)s.no_legal_move,
                (unsigned long long)s.repetition, (unsigned long long)s.perpetual_check,
                (unsigned long long)s.ply_limit, s.seconds, (unsigned long long)s.stats.batches,
                100.0 * s.stats.mean_fill(), s.mpk_path.c_str());
  if (!s.saz_path.empty()) append_format(out, "  %s\n", s.saz_path.c_str());
  return out;
}

std::string summary_json(const ShogiSelfPlaySummary& s) {
  nlohmann::ordered_json j;
  j["games"] = s.games;
  j["positions"] = s.positions;
  j["black_wins"] = s.black_wins;
  j["white_wins"] = s.white_wins;
  j["draws"] = s.draws;
  j["terminations"] = {{"no_legal_move", s.no_legal_move},
                       {"repetition", s.repetition},
                       {"perpetual_check", s.perpetual_check},
                       {"ply_limit", s.ply_limit}};
  j["mpk"] = s.mpk_path;
  j["saz"] = s.saz_path.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(s.saz_path);
  j["evaluator"] = {{"batches", s.stats.batches},
                    {"positions", s.stats.positions},
                    {"mean_batch_fill", s.stats.mean_fill()},
                    {"network_seconds", s.stats.network_seconds}};
  j["seconds"] = s.seconds;
  return json_text(j);
}

}  // namespace manaka::selfplay
