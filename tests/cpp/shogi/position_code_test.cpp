// The fast decoder of the 256-bit position codes (a piece or a run of empty
// squares a step) against the bit-at-a-time reference, decode_position_code_by_bits:
// the same position or the same refusal, word for word, on codes of random
// playouts, on those codes with bits flipped, on handicaps (boxed pieces)
// and on random bytes, for both formats. The cshogi oracle for the codes
// themselves is tests/python/test_stream_import.py and test_sazpack_psfen.py.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "random_positions.h"
#include "shogi/huffman_coded_pos.h"
#include "shogi/packed_sfen.h"
#include "shogi/position_code.h"

namespace manaka::shogi {
namespace {

using Code = std::array<uint8_t, POSITION_CODE_LEN>;

std::string verdict(const Result<Position>& pos) {
  if (!pos.ok()) return "refused: " + pos.status().message();
  const Packed p = pack(*pos);
  return pos->sfen() + " | " + std::string(p.begin(), p.end());
}

// Both decoders on one code; the number of codes they accepted.
int agree(const PositionCodeFormat& f, const Code& code) {
  const auto fast = decode_position_code(f, code);
  const auto slow = decode_position_code_by_bits(f, code);
  EXPECT_EQ(verdict(fast), verdict(slow)) << f.name;
  return slow.ok();
}

std::vector<Code> codes_of_playouts(const PositionCodeFormat& f, int n, uint64_t seed) {
  std::vector<Code> out;
  for (const Packed& p : testing::random_game_positions(n, seed)) {
    auto code = encode_position_code(f, *unpack(p));
    if (code.ok()) out.push_back(*code);
  }
  return out;
}

TEST(PositionCode, FastDecoderAgreesOnPlayouts) {
  for (const PositionCodeFormat* f : {&packed_sfen_format(), &huffman_coded_pos_format()}) {
    const auto codes = codes_of_playouts(*f, 3000, 31);
    ASSERT_GT(codes.size(), 2900u);
    int accepted = 0;
    for (const Code& c : codes) accepted += agree(*f, c);
    EXPECT_EQ(accepted, int(codes.size())) << f->name;
  }
}

TEST(PositionCode, FastDecoderAgreesOnFlippedBits) {
  std::mt19937_64 rng(32);
  for (const PositionCodeFormat* f : {&packed_sfen_format(), &huffman_coded_pos_format()}) {
    int accepted = 0, refused = 0;
    for (Code c : codes_of_playouts(*f, 2000, 33)) {
      for (int flips = 1 + int(rng() % 3); flips > 0; --flips) {
        const int bit = int(rng() % POSITION_CODE_BITS);
        c[size_t(bit / 8)] ^= uint8_t(1u << (bit % 8));
      }
      (agree(*f, c) ? accepted : refused) += 1;
    }
    EXPECT_GT(accepted, 0) << f->name;  // some flips still spell a position
    EXPECT_GT(refused, 1000) << f->name;
  }
}

TEST(PositionCode, FastDecoderAgreesOnHandicapsAndRandomBytes) {
  // PackedSfen boxes the pieces a handicap leaves out; the fast path hands
  // those to the reference.
  for (const char* sfen : {"lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
                           "4k4/9/9/9/9/9/9/9/4K4 b - 1",
                           "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"}) {
    const Code c = encode_packed_sfen(*Position::from_sfen(sfen));
    EXPECT_EQ(agree(packed_sfen_format(), c), 1) << sfen;
  }
  std::mt19937_64 rng(34);
  for (int i = 0; i < 20000; ++i) {
    Code c;
    for (auto& b : c) b = uint8_t(rng());
    c[0] = uint8_t((c[0] & 1) | (rng() % 81) << 1);  // a king square, to get past the head more often
    agree(packed_sfen_format(), c);
    agree(huffman_coded_pos_format(), c);
  }
}

}  // namespace
}  // namespace manaka::shogi
