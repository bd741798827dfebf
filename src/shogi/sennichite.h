// Repetition (sennichite) under the rules of shogi: when the same position
// (board, hands and side to move) occurs for the fourth time the game ends.
// It is a draw, unless one side gave check with every one of its moves
// between the first and the fourth occurrence (perpetual check): that side
// loses. (Should both sides have checked throughout, which the rules do not
// foresee, it is scored a draw.)
#pragma once

#include <cstdint>
#include <span>

#include "shogi/types.h"

namespace manaka::shogi {

enum class Repetition : uint8_t {
  None,           // no position has occurred four times
  Draw,           // fourfold repetition
  BlackChecked,   // fourfold, Black checked throughout: Black loses
  WhiteChecked,   // fourfold, White checked throughout: White loses
};

// keys[i] is the key of the game's position after i moves, and in_check[i]
// whether its side to move is in check (that is, whether move i gave check);
// the last entry is the current position. first_side is the side to move in
// position 0. Looks at the current position only: call it after every move.
Repetition check_repetition(std::span<const uint64_t> keys, std::span<const uint8_t> in_check,
                            shogi::Color first_side);

}  // namespace manaka::shogi
