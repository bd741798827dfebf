#include "teacher/game.h"

#include <optional>

#include "shogi/game.h"
#include "shogi/movegen.h"
#include "shogi/position.h"
#include "shogi/sennichite.h"
#include "teacher/score.h"

namespace manaka::teacher {

using shogi::Repetition;

namespace {

using shogi::Move;
using shogi::Position;

constexpr const char* kEndNames[kGameEndCount] = {"no_legal_move", "repetition", "perpetual_check",
                                                  "ply_limit"};

// The moves of a game so far (shogi::Game judges repetition) and the USI
// "position" command that sends them to the engine.
class GameState {
 public:
  const Position& pos() const { return game_.position(); }
  int ply() const { return game_.ply(); }
  const std::string& position_command() const { return command_; }

  void play(Move m) {
    game_.push(m);
    command_ += ply() == 1 ? " moves " : " ";
    command_ += m.to_usi();
  }

  Repetition repetition() const { return game_.repetition(); }

 private:
  shogi::Game game_;
  std::string command_ = "startpos";
};

int8_t loss_for(shogi::Color loser) { return loser == shogi::BLACK ? -1 : 1; }

}  // namespace

const char* game_end_name(GameEnd end) { return kEndNames[static_cast<size_t>(end)]; }

Result<Move> check_engine_move(const Position& pos, const std::string& engine, const std::string& what,
                               const std::string& usi) {
  auto refuse = [&](const std::string& why) {
    return Status::invalid("engine " + engine + ": " + what + " \"" + usi + "\" " + why + " in sfen " +
                           pos.sfen());
  };
  auto m = Move::parse_usi(usi);
  if (!m.ok()) return refuse("is not a USI move");
  if (pos.is_legal(*m)) return *m;
  bool mating_pawn_drop = m->is_drop() && m->dropped_kind() == shogi::H_PAWN &&
                          pos.hand_count(pos.side_to_move(), shogi::H_PAWN) > 0 &&
                          pos.piece_on(m->to_square()) == shogi::NO_PIECE &&
                          pos.pawn_drop_mates(m->to_square());
  return refuse(mating_pawn_drop ? "is illegal (a pawn drop that mates: uchifuzume)" : "is illegal");
}

uint64_t game_seed(uint64_t run_seed, uint64_t index) {
  GameRng mix(run_seed ^ (index * 0xD1B54A32D192ED03ULL));
  mix.next();
  return mix.next();
}

Result<GameRecord> play_game(engine::Engine& eng, const GameSettings& settings, uint64_t seed) {
  GameRng rng(seed);
  GameState game;
  GameRecord record;
  shogi::MoveList legal;

  auto finish = [&](GameEnd end, int8_t result) {
    record.end = end;
    record.result = result;
    record.plies = game.ply();
    for (auto& row : record.rows) row.result = result;
    return std::move(record);
  };
  auto after_move = [&]() -> std::optional<GameRecord> {
    switch (game.repetition()) {
      case Repetition::None: return std::nullopt;
      case Repetition::Draw: return finish(GameEnd::Repetition, 0);
      case Repetition::BlackChecked: return finish(GameEnd::PerpetualCheck, loss_for(shogi::BLACK));
      case Repetition::WhiteChecked: return finish(GameEnd::PerpetualCheck, loss_for(shogi::WHITE));
    }
    return std::nullopt;
  };

  for (int i = 0; i < settings.opening_plies && game.ply() < settings.max_plies; ++i) {
    legal.size = 0;
    shogi::generate_legal(game.pos(), legal);
    if (legal.empty()) break;  // decided below, as in the searched part
    game.play(legal[static_cast<int>(rng.below(static_cast<uint32_t>(legal.size)))]);
    if (auto done = after_move()) return std::move(*done);
  }

  for (;;) {
    const Position& pos = game.pos();
    legal.size = 0;
    shogi::generate_legal(pos, legal);
    if (legal.empty()) return finish(GameEnd::NoLegalMove, loss_for(pos.side_to_move()));
    if (game.ply() >= settings.max_plies) return finish(GameEnd::PlyLimit, 0);

    MANAKA_ASSIGN_OR_RETURN(engine::SearchResult found,
                            eng.search(game.position_command(), settings.limit));
    if (settings.searched) settings.searched->fetch_add(1, std::memory_order_relaxed);
    if (found.lines.empty())
      return Status::engine("engine " + eng.path() + ": no scored PV line before \"bestmove " +
                            found.bestmove + "\" in sfen " + pos.sfen());
    if (engine::bestmove_is_move(found.bestmove))
      MANAKA_RETURN_NOT_OK(check_engine_move(pos, eng.path(), "bestmove", found.bestmove).status());

    CorpusRow row;
    row.sfen = pos.sfen();
    row.ply = game.ply();
    row.side = pos.side_to_move() == shogi::BLACK ? 0 : 1;
    row.cp = engine_score_to_cp(found.lines[0].score, settings.mate_scale);
    std::vector<Move> moves;
    for (const engine::PvLine& line : found.lines) {
      MANAKA_ASSIGN_OR_RETURN(Move m, check_engine_move(pos, eng.path(), "multipv " + std::to_string(line.multipv),
                                                        line.move));
      bool repeated = false;
      for (Move seen : moves) repeated |= seen == m;
      if (repeated) continue;  // two lines on one move: keep the better-ranked one
      moves.push_back(m);
      row.cand_moves.push_back(m.to_usi());
      row.cand_cp.push_back(engine_score_to_cp(line.score, settings.mate_scale));
    }
    size_t pick = rng.below(static_cast<uint32_t>(moves.size()));
    row.move = row.cand_moves[pick];
    record.rows.push_back(std::move(row));

    game.play(moves[pick]);
    if (auto done = after_move()) return std::move(*done);
  }
}

}  // namespace manaka::teacher
