#include "shogi/pack.h"

#include <cstdio>
#include <string>

namespace manaka::shogi {
namespace {

Status byte_error(size_t offset, const std::string& why) {
  return Status::invalid("byte " + std::to_string(offset) + ": " + why);
}

std::string hex(uint8_t b) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02x", b);
  return buf;
}

}  // namespace

Packed pack(const Position& pos) {
  Packed out;
  for (int s = 0; s < SQUARE_NB; ++s) out[s] = pos.piece_on(Square(s));
  for (int c = 0; c < COLOR_NB; ++c)
    for (int hk = 0; hk < HAND_KIND_NB; ++hk)
      out[PACKED_HAND + c * HAND_KIND_NB + hk] = uint8_t(pos.hand_count(Color(c), HandKind(hk)));
  out[PACKED_SIDE] = pos.side_to_move();
  return out;
}

Result<Position> unpack(std::span<const uint8_t> bytes) {
  if (bytes.size() != PACKED_LEN)
    return Status::invalid("a packed position is " + std::to_string(PACKED_LEN) + " bytes, got " +
                           std::to_string(bytes.size()));
  Setup setup;
  for (size_t s = 0; s < SQUARE_NB; ++s) {
    uint8_t b = bytes[s];
    if (b != NO_PIECE && !is_piece_byte(b)) return byte_error(s, "unknown board byte " + hex(b));
    setup.board[s] = b;
  }
  for (int c = 0; c < COLOR_NB; ++c)
    for (int hk = 0; hk < HAND_KIND_NB; ++hk) {
      size_t at = PACKED_HAND + c * HAND_KIND_NB + hk;
      if (bytes[at] > HAND_MAX[hk])
        return byte_error(at, std::string(COLOR_NAME[c]) + "'s hand holds " + std::to_string(bytes[at]) +
                                  " " + KIND_NAME[KIND_OF_HAND[hk]] + "s, more than " +
                                  std::to_string(HAND_MAX[hk]));
      setup.hand[c][hk] = bytes[at];
    }
  uint8_t side = bytes[PACKED_SIDE];
  if (side > WHITE) return byte_error(PACKED_SIDE, "side to move " + hex(side) + ", expected 0 or 1");
  setup.side = Color(side);
  int where = -1;
  auto pos = Position::from_setup(setup, &where);
  if (!pos.ok() && where >= 0) return std::move(pos).take_status().with_context("byte " + std::to_string(where) + ": ");
  return pos;
}

}  // namespace manaka::shogi
