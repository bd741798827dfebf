#include "shogi/sennichite.h"

namespace manaka::shogi {

Repetition check_repetition(std::span<const uint64_t> keys, std::span<const uint8_t> in_check,
                            shogi::Color first_side) {
  constexpr int kOccurrences = 4;
  if (keys.empty()) return Repetition::None;
  const size_t now = keys.size() - 1;
  // The same side is to move only every other ply.
  int seen = 1;
  size_t first = now;
  for (size_t i = now; i >= 2 && seen < kOccurrences;) {
    i -= 2;
    if (keys[i] == keys[now]) {
      ++seen;
      first = i;
    }
  }
  if (seen < kOccurrences) return Repetition::None;
  // Move i (i in first+1 .. now) led to position i; it was made by the side
  // to move in position i - 1 and gave check when position i is in check.
  bool all_checks[shogi::COLOR_NB] = {true, true};
  for (size_t i = first + 1; i <= now; ++i) {
    auto mover = shogi::Color((first_side + (i - 1)) & 1);
    if (!in_check[i]) all_checks[mover] = false;
  }
  if (all_checks[shogi::BLACK] && !all_checks[shogi::WHITE]) return Repetition::BlackChecked;
  if (all_checks[shogi::WHITE] && !all_checks[shogi::BLACK]) return Repetition::WhiteChecked;
  return Repetition::Draw;
}

}  // namespace manaka::shogi
