// Games for the sazpack tests: a hand-made one whose bytes rsshogi 1.7.0
// wrote (the golden chunk), and random legal playouts.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "sazpack/format.h"
#include "sazpack/packed_sfen.h"
#include "shogi/movegen.h"
#include "shogi/position.h"

namespace manaka::sazpack::testing {

inline std::vector<uint8_t> from_hex(const std::string& hex) {
  std::vector<uint8_t> out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) out.push_back(uint8_t(std::stoi(hex.substr(i, 2), nullptr, 16)));
  return out;
}

inline Move16 usi(const char* text) { return *Move16::parse_usi(text); }

// The startpos stem as rsshogi 1.7.0 and cshogi 1.1.0 pack it.
inline const char* kStartposStemHex = "58a451220ceb67227e9653221caf447824c22b119e53221ceb6f223e9651220c";

// rsshogi 1.7.0's write_sazpack of golden_game(), byte for byte.
inline const char* kGoldenChunkHex =
    "53415a3204008d000000"
    "58a451220ceb67227e9653221caf447824c22b119e53221ceb6f223e9651220c000003"
    "02"
    "3b1e30759f153075ffff00000000010002"
    "00fcff3412800c5f0004030201e803ab00"
    "023b1e409c419cf40300028e07bf63be63ac020102"
    "a84030759f153075ffff0000000030759f15307500000000000000000000000000"
    "01fdff010aa3ffffffffffffffff0f0202";

inline SazGame golden_game() {
  SazGame g;
  auto stem = from_hex(kStartposStemHex);
  std::copy(stem.begin(), stem.end(), g.stem.begin());
  g.game_result = GameResult::BlackWin;
  g.termination_reason = TerminationReason::NoLegalMoves;
  g.entering_king_rule = EnteringKingRule::Point27;
  const SazWdl wdl{30000, 5535, 30000}, outcome{65535, 0, 0};
  SazPosition a;
  a.played = usi("7g7f");
  a.root_wdl = wdl;
  a.outcome_wdl = outcome;
  a.raw_wdl = SazWdl{1, 2, 65532};
  a.raw_mate = 0x1234;
  a.raw_moves_left = 3200;
  a.plies_left = 95;
  a.requested_visits = 0x01020304;
  a.target_weight_milli = 1000;
  a.exploration_flags = 0xAB;
  a.policy = {{usi("7g7f"), 40000, 40001, OutcomeBound::Loss, OutcomeBound::Win, 500},
              {usi("2g2f"), 25535, 25534, OutcomeBound::Draw, OutcomeBound::Win, 300}};
  SazPosition b;
  b.played = usi("P*5e");
  b.root_wdl = wdl;
  b.outcome_wdl = outcome;
  b.raw_wdl = wdl;
  b.mate = -3;
  b.policy = {{usi("8h2b+"), 65535, 65535, OutcomeBound::Win, OutcomeBound::Win, 0xFFFFFFFFu}};
  g.positions = {a, b};
  return g;
}

// n positions of a random legal game from startpos: uniform WDLs and prior
// splits that sum to 65535, a mate now and then, the played move among the
// policy. The last position's played move is "resign".
inline SazGame random_game(std::mt19937& rng, int n) {
  SazGame g;
  shogi::Position pos = shogi::Position::startpos();
  g.stem = encode_packed_sfen(pos);
  g.game_result = GameResult(std::uniform_int_distribution<int>(0, 2)(rng));
  g.termination_reason = TerminationReason(std::uniform_int_distribution<int>(0, 9)(rng));
  auto u16 = [&](int lo, int hi) { return uint16_t(std::uniform_int_distribution<int>(lo, hi)(rng)); };
  auto wdl = [&] {
    uint16_t w = u16(0, 65535), d = u16(0, 65535 - w);
    return SazWdl{w, d, uint16_t(65535 - w - d)};
  };
  std::vector<shogi::StateInfo> states(n);
  for (int i = 0; i < n; ++i) {
    shogi::MoveList list;
    shogi::generate_legal(pos, list);
    if (list.empty()) break;
    SazPosition p;
    p.root_wdl = wdl();
    p.outcome_wdl = wdl();
    p.raw_wdl = wdl();
    p.plies_left = uint16_t(n - i);
    p.requested_visits = 800;
    p.target_weight_milli = 1000;
    if (rng() % 5 == 0) p.mate = int16_t(u16(0, 60) - 30);
    const int k = std::min(list.size, 1 + int(rng() % 12));
    uint32_t prior_left = 65535, raw_left = 65535;
    for (int e = 0; e < k; ++e) {
      const bool last = e + 1 == k;
      uint16_t prior = last ? uint16_t(prior_left) : u16(0, int(prior_left));
      uint16_t raw = last ? uint16_t(raw_left) : u16(0, int(raw_left));
      prior_left -= prior;
      raw_left -= raw;
      p.policy.push_back({Move16::from_mpk(list[e]), prior, raw, OutcomeBound(rng() % 3), OutcomeBound(rng() % 3),
                          uint32_t(rng() % 1000)});
    }
    const shogi::Move played = list[int(rng() % uint32_t(list.size))];
    p.played = i + 1 == n ? Move16{Move16::kResign} : Move16::from_mpk(played);
    g.positions.push_back(p);
    if (i + 1 < n) pos.do_move(played, states[i]);
  }
  return g;
}

}  // namespace manaka::sazpack::testing
