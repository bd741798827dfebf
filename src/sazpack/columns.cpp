#include "sazpack/columns.h"

#include <algorithm>
#include <limits>
#include <thread>

#include "sazpack/codec.h"
#include "sazpack/replay.h"
#include "shogi/pack.h"

namespace manaka::sazpack {
namespace {

float value_z_of(Outcome outcome, shogi::Color side) {
  switch (outcome) {
    case Outcome::BlackWin: return side == shogi::BLACK ? 1.0f : -1.0f;
    case Outcome::WhiteWin: return side == shogi::WHITE ? 1.0f : -1.0f;
    case Outcome::Draw: return 0.0f;
    case Outcome::None: break;
  }
  return std::numeric_limits<float>::quiet_NaN();
}

// Sizes every column for `games` games, `rows` positions and `entries`
// policy entries (growing leaves new elements unwritten; shrinking drops
// what a refused game wrote).
void resize_columns(SazColumns& c, size_t games, size_t rows, size_t entries) {
  c.stem.resize(games * kStemSize);
  for (auto* v : {&c.game_result, &c.termination_reason, &c.entering_king_rule}) v->resize(games);
  c.game_offsets.resize(games + 1);
  c.packed.resize(rows * shogi::PACKED_LEN);
  for (auto* v : {&c.root_wdl, &c.outcome_wdl, &c.raw_wdl}) v->resize(rows * 3);
  for (auto* v : {&c.game, &c.ply, &c.requested_visits}) v->resize(rows);
  for (auto* v : {&c.played, &c.played_move16, &c.raw_mate, &c.raw_moves_left, &c.plies_left,
                  &c.target_weight_milli}) {
    v->resize(rows);
  }
  for (auto* v : {&c.exploration_flags, &c.has_mate}) v->resize(rows);
  c.mate.resize(rows);
  for (auto* v : {&c.value_q, &c.value_z}) v->resize(rows);
  c.policy_offsets.resize(rows + 1);
  for (auto* v : {&c.mv, &c.prior, &c.raw_prior}) v->resize(entries);
  c.visits.resize(entries);
  for (auto* v : {&c.lower, &c.upper}) v->resize(entries);
}

void put_wdl(uint16_t* out, const SazWdl& w) {
  out[0] = w.win;
  out[1] = w.draw;
  out[2] = w.loss;
}

size_t entries_of(const SazGame& game) {
  size_t n = 0;
  for (const SazPosition& p : game.positions) n += p.policy.size();
  return n;
}

// Where a game's rows go: its index, its first position row and its first
// policy entry.
struct Slot {
  size_t game = 0, row = 0, entry = 0;
};

// Replays a game and writes its rows into columns already sized to hold
// them at `at`. Every element of the game's rows is written.
Status write_game(const SazGame& game, SazColumns& c, Slot at, const ColumnOptions& options, LegalMoves& legal) {
  const Outcome outcome = outcome_of(game.game_result);
  const bool check = options.check_policy_legality;
  size_t entry = at.entry;
  Status st = replay_game(game, [&](size_t i, const shogi::Position& pos) -> Status {
    const SazPosition& p = game.positions[i];
    const size_t row = at.row + i, k = p.policy.size();
    uint16_t* mv = c.mv.data() + entry;
    if (check) legal.reset(pos);
    bool bad = false;
    for (size_t e = 0; e < k; ++e) {
      const SazPolicyEntry& source = p.policy[e];
      const uint16_t raw = source.mv.mpk_raw();
      bad |= raw == 0 || (check && !legal.contains(raw));
      mv[e] = raw;
      c.prior[entry + e] = source.prior;
      c.raw_prior[entry + e] = source.raw_prior;
      c.visits[entry + e] = source.visits;
      c.lower[entry + e] = uint8_t(source.lower);
      c.upper[entry + e] = uint8_t(source.upper);
    }
    if (bad) {  // name the first entry at fault
      for (size_t e = 0; e < k; ++e) {
        if (mv[e] != 0 && (!check || legal.contains(mv[e]))) continue;
        if (check) return legal_policy_move(legal, pos, p.policy[e], i, e).take_status();
        return p.policy[e].mv.to_mpk().take_status().with_context("position " + std::to_string(i) +
                                                                   ", policy entry " + std::to_string(e) + ": ");
      }
    }
    entry += k;
    c.policy_offsets[row + 1] = int64_t(entry);
    const shogi::Packed packed = shogi::pack(pos);
    std::copy(packed.begin(), packed.end(), c.packed.begin() + ptrdiff_t(row * shogi::PACKED_LEN));
    c.game[row] = uint32_t(at.game);
    c.ply[row] = uint32_t(i);
    c.played[row] = p.played.mpk_raw();
    c.played_move16[row] = p.played.raw;
    put_wdl(&c.root_wdl[row * 3], p.root_wdl);
    put_wdl(&c.outcome_wdl[row * 3], p.outcome_wdl);
    put_wdl(&c.raw_wdl[row * 3], p.raw_wdl);
    c.raw_mate[row] = p.raw_mate;
    c.raw_moves_left[row] = p.raw_moves_left;
    c.plies_left[row] = p.plies_left;
    c.requested_visits[row] = p.requested_visits;
    c.target_weight_milli[row] = p.target_weight_milli;
    c.exploration_flags[row] = p.exploration_flags;
    c.has_mate[row] = p.mate.has_value();
    c.mate[row] = p.mate.value_or(0);
    c.value_q[row] = float(int(p.root_wdl.win) - int(p.root_wdl.loss)) / float(kDistributionTotal);
    c.value_z[row] = value_z_of(outcome, pos.side_to_move());
    return Status();
  });
  if (!st.ok()) return st;
  std::copy(game.stem.begin(), game.stem.end(), c.stem.begin() + ptrdiff_t(at.game * kStemSize));
  c.game_result[at.game] = uint8_t(game.game_result);
  c.termination_reason[at.game] = uint8_t(game.termination_reason);
  c.entering_king_rule[at.game] = uint8_t(game.entering_king_rule);
  c.game_offsets[at.game + 1] = int64_t(at.row + game.positions.size());
  return Status();
}

unsigned replay_threads(int requested, size_t games, size_t payload) {
  constexpr unsigned kMaxThreads = 16;
  constexpr size_t kMinPayloadPerThread = size_t{1} << 20;  // below this, threads cost more than they save
  size_t n = requested > 0 ? size_t(requested)
                           : std::min<size_t>(std::max(1u, std::thread::hardware_concurrency()),
                                              payload / kMinPayloadPerThread + 1);
  return unsigned(std::clamp<size_t>(std::min<size_t>(n, games), 1, kMaxThreads));
}

// A game's place in the chunk and the rows it becomes.
struct Extent {
  size_t begin = 0, end = 0;  // payload bytes
  size_t rows = 0, entries = 0;
};

}  // namespace

Status append_columns(const SazGame& game, SazColumns& c, const ColumnOptions& options) {
  const size_t games = c.games(), rows = c.positions(), entries = c.entries();
  resize_columns(c, games + 1, rows + game.positions.size(), entries + entries_of(game));
  LegalMoves legal;
  Status st = write_game(game, c, Slot{games, rows, entries}, options, legal);
  if (!st.ok()) resize_columns(c, games, rows, entries);
  return st;
}

Result<SazColumns> decode_columns(std::span<const uint8_t> chunk, const ColumnOptions& options) {
  MANAKA_ASSIGN_OR_RETURN(GameReader reader, GameReader::open(chunk));
  // Pass 1: where every game is and how many rows it makes.
  std::vector<Extent> extents;
  SazGame game;
  size_t rows = 0, entries = 0;
  while (true) {
    MANAKA_ASSIGN_OR_RETURN(bool more, reader.next(game));
    if (!more) break;
    extents.push_back(Extent{reader.game_begin(), reader.offset(), game.positions.size(), entries_of(game)});
    rows += extents.back().rows;
    entries += extents.back().entries;
  }
  const size_t games = extents.size();
  SazColumns out;
  resize_columns(out, games, rows, entries);
  out.game_offsets[0] = 0;
  out.policy_offsets[0] = 0;
  if (games == 0) return out;

  // Pass 2: contiguous runs of games of about equal work, one per thread.
  std::vector<Slot> slots(games);
  std::vector<size_t> work_before(games + 1, 0);
  for (size_t g = 0; g < games; ++g) {
    if (g > 0) {
      slots[g] = Slot{g, slots[g - 1].row + extents[g - 1].rows, slots[g - 1].entry + extents[g - 1].entries};
    }
    work_before[g + 1] = work_before[g] + extents[g].entries + 32 * extents[g].rows;  // replay ~ 32 entries
  }
  const unsigned parts = replay_threads(options.threads, games, chunk.size());
  std::vector<size_t> cut(parts + 1, games);
  cut[0] = 0;
  for (unsigned t = 1; t < parts; ++t) {
    const size_t target = work_before[games] * t / parts;
    cut[t] = size_t(std::lower_bound(work_before.begin(), work_before.end(), target) - work_before.begin());
    cut[t] = std::clamp(cut[t], cut[t - 1], games);
  }
  std::vector<Status> failures(parts);
  auto replay_part = [&](unsigned t) {
    if (cut[t] == cut[t + 1]) return;
    GameReader part = reader.range(extents[cut[t]].begin, extents[cut[t + 1] - 1].end, cut[t]);
    SazGame g;
    LegalMoves legal;
    for (size_t i = cut[t]; i < cut[t + 1]; ++i) {
      Result<bool> more = part.next(g);
      Status st = more.ok() ? write_game(g, out, slots[i], options, legal) : std::move(more).take_status();
      if (!st.ok()) {
        if (more.ok())
          st = std::move(st).with_context("game " + std::to_string(i) + " (byte " + std::to_string(extents[i].begin) +
                                          "), ");
        failures[t] = std::move(st);
        return;
      }
    }
  };
  std::vector<std::thread> helpers;
  for (unsigned t = 1; t < parts; ++t) helpers.emplace_back(replay_part, t);
  replay_part(0);
  for (auto& h : helpers) h.join();
  for (Status& st : failures)  // parts are in game order: the first failure is the lowest game's
    if (!st.ok()) return std::move(st);
  return out;
}

}  // namespace manaka::sazpack
