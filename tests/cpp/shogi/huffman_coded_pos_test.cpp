// Apery's HuffmanCodedPos and move16: bytes cshogi 1.1.0 writes, round trips
// over random playouts, and refusals that name the bit and the rule (the
// full oracle comparison is tests/python/test_stream_import.py).
#include <gtest/gtest.h>

#include <deque>
#include <random>
#include <string>

#include "random_positions.h"
#include "shogi/apery_move16.h"
#include "shogi/huffman_coded_pos.h"
#include "shogi/movegen.h"
#include "shogi/packed_sfen.h"

namespace manaka::shogi {
namespace {

std::string hex(std::span<const uint8_t> p) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (uint8_t b : p) s += {digits[b >> 4], digits[b & 15]};
  return s;
}

HuffmanCodedPos from_hex(const std::string& h) {
  HuffmanCodedPos out{};
  for (size_t i = 0; i < out.size(); ++i) out[i] = uint8_t(std::stoi(h.substr(2 * i, 2), nullptr, 16));
  return out;
}

std::string decode(const HuffmanCodedPos& code) {
  auto pos = decode_huffman_coded_pos(code);
  return pos.ok() ? pos->sfen() : pos.status().message();
}

// Board.to_hcp of cshogi 1.1.0.
const std::pair<const char*, const char*> kKnown[] = {
    {"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
     "58a449210cd757217e8e4d212caf427814c2ab109e4d212cd75f213e8e49210c"},
    {"lnsgk1snl/1r7/ppppppppp/9/9/9/PPPPPPPPP/7R1/LNSGKGSNL w BGb 1",
     "59a449210c9742fc1c9b425828844721bc0ae1d914c272fd15c2312984e17cbe"},
    {"l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
     "2381490986eb1565014b3cbee40200a0c417b84a0004c744113fc3f9912467bd"},
};

TEST(HuffmanCodedPos, EncodesAsCshogi) {
  for (const auto& [sfen, bytes] : kKnown) {
    auto code = encode_huffman_coded_pos(*Position::from_sfen(sfen));
    ASSERT_TRUE(code.ok()) << sfen;
    EXPECT_EQ(hex(*code), bytes) << sfen;
    EXPECT_EQ(decode(from_hex(bytes)), sfen);
  }
}

TEST(HuffmanCodedPos, RoundTripsRandomPlayouts) {
  for (const Packed& p : testing::random_game_positions(3000, 20)) {
    const Position pos = *unpack(p);
    auto code = encode_huffman_coded_pos(pos);
    ASSERT_TRUE(code.ok()) << pos.sfen();
    auto back = decode_huffman_coded_pos(*code);
    ASSERT_TRUE(back.ok()) << pos.sfen() << ": " << back.status().message();
    EXPECT_EQ(pack(*back), p) << pos.sfen();
  }
}

TEST(HuffmanCodedPos, RefusesAHandicap) {
  auto code = encode_huffman_coded_pos(*Position::from_sfen("lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"));
  ASSERT_FALSE(code.ok());
  EXPECT_EQ(code.status().message(),
            "huffman coded pos: the position has 1 bishops; the code holds only a full set of 2 (no handicaps)");
}

TEST(HuffmanCodedPos, NamesTheBitAndTheRule) {
  HuffmanCodedPos code = from_hex(kKnown[0].second);
  code[0] |= 0xFE;  // Black's king square 127
  EXPECT_EQ(decode(code), "huffman coded pos bit 1: Black's king square 127 is not a square (0-80)");
  code.fill(0xFF);
  EXPECT_EQ(decode(code), "huffman coded pos bit 1: Black's king square 127 is not a square (0-80)");
  code.fill(0);
  code[1] = 0x01;  // kings on 0 and 1, then 79 empty squares and 54 hand pawns (3 bits each)
  EXPECT_EQ(decode(code), "huffman coded pos bit 256: 54 pawns on the board and in hand; a huffman coded pos holds a full set of 18");
}

TEST(HuffmanCodedPos, NeverCrashesOnRandomBytes) {
  std::mt19937_64 rng(7);
  int accepted = 0;
  for (int i = 0; i < 20000; ++i) {
    HuffmanCodedPos code;
    for (auto& b : code) b = uint8_t(rng());
    auto pos = decode_huffman_coded_pos(code);
    if (pos.ok()) {
      ++accepted;
      // Hands may come in any order; the position is what must survive.
      auto again = decode_huffman_coded_pos(*encode_huffman_coded_pos(*pos));
      ASSERT_TRUE(again.ok());
      EXPECT_EQ(pack(*again), pack(*pos));
    }
  }
  EXPECT_LT(accepted, 20000);
}

TEST(AperyMove16, RoundTripsEveryLegalMove) {
  size_t moves = 0;
  for (const Packed& p : testing::random_game_positions(500, 21)) {
    const Position pos = *unpack(p);
    MoveList list;
    generate_legal(pos, list);
    for (int i = 0; i < list.size; ++i) {
      const Move m = list[i];
      EXPECT_EQ(move_from_apery16(apery16_from_move(m)), m) << m.to_usi();
      ++moves;
    }
  }
  EXPECT_GT(moves, 10000u);
}

TEST(AperyMove16, KnowsCshogisValues) {
  // cshogi.move16(board.move_from_usi(...)) in 1.1.0.
  EXPECT_EQ(move_from_apery16(7739).to_usi(), "7g7f");
  EXPECT_EQ(move_from_apery16(10536).to_usi(), "L*5e");
  EXPECT_EQ(move_from_apery16(11176).to_usi(), "G*5e");
  EXPECT_EQ(move_from_apery16(10920).to_usi(), "B*5e");
  EXPECT_EQ(move_from_apery16(11048).to_usi(), "R*5e");
  EXPECT_EQ(move_from_apery16(0), MOVE_NONE);
  EXPECT_EQ(move_from_apery16(uint16_t(88 << 7 | 40)), MOVE_NONE);       // origin 88
  EXPECT_EQ(move_from_apery16(uint16_t(1 << 14 | 81 << 7 | 40)), MOVE_NONE);  // a promoting drop
}

}  // namespace
}  // namespace manaka::shogi
