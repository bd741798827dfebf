// YaneuraOu PackedSfen: bytes rsshogi 1.7.0 and cshogi 1.1.0 both produce,
// and round trips over random playouts (the full oracle comparison is
// tests/python/test_sazpack_psfen.py).
#include <gtest/gtest.h>

#include "fixture.h"
#include "sazpack/packed_sfen.h"
#include "shogi/movegen.h"

namespace manaka::sazpack {
namespace {

using testing::from_hex;

std::string hex(const PackedSfen& p) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (uint8_t b : p) s += {digits[b >> 4], digits[b & 15]};
  return s;
}

std::string encode(const char* sfen) { return hex(encode_packed_sfen(*shogi::Position::from_sfen(sfen))); }

std::string decode(const std::string& hex_text) {
  auto bytes = from_hex(hex_text);
  auto pos = decode_packed_sfen(std::span<const uint8_t, kStemSize>(bytes.data(), kStemSize));
  return pos.ok() ? pos->sfen() : pos.status().message();
}

// Bytes written by rsshogi 1.7.0 and cshogi 1.1.0 alike.
const std::pair<const char*, const char*> kKnown[] = {
    {"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", testing::kStartposStemHex},
    // A bishop and a gold in hand: hands go P L N S G B R.
    {"lnsgk1snl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/7R1/LNSGKGSNL b BG 1",
     "58a451220ceb67227e9653221c24c223115e89f09c12e1587f13611925c2701e"},
    {"lnsgk1snl/1r7/ppppppppp/9/9/9/PPPPPPPPP/7R1/LNSGKGSNL w BGb 1",
     "59a451220cab44fc2ca7443848844722bc12e13925c2b1fe26c2324a84e13c9e"},
    // Kings alone: every other piece is boxed.
    {"4k4/9/9/9/9/9/9/9/4K4 b - 1", "58240000000000000000008024499224499294524aadb5b6d65a7beffd7afd7e"},
    // A two-piece handicap (rook and bishop boxed), White to move.
    {"lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
     "59a451220cab44fc2ca744385e89f0488457223ca744385689f858468930bc7e"},
};

TEST(SazpackPackedSfen, KnownBytes) {
  for (auto [sfen, bytes] : kKnown) {
    EXPECT_EQ(encode(sfen), bytes) << sfen;
    EXPECT_EQ(decode(bytes), sfen);
  }
}

TEST(SazpackPackedSfen, RandomPlayoutsRoundTrip) {
  std::mt19937 rng(3);
  int checked = 0;
  for (int game = 0; game < 40; ++game) {
    shogi::Position pos = shogi::Position::startpos();
    std::vector<shogi::StateInfo> states(300);
    for (int ply = 0; ply < 300; ++ply) {
      PackedSfen packed = encode_packed_sfen(pos);
      auto back = decode_packed_sfen(std::span<const uint8_t, kStemSize>(packed));
      ASSERT_TRUE(back.ok()) << back.status().message();
      // The move number is not stored.
      std::string want = pos.sfen(), got = back->sfen();
      ASSERT_EQ(got.substr(0, got.rfind(' ')), want.substr(0, want.rfind(' ')));
      ++checked;
      shogi::MoveList list;
      shogi::generate_legal(pos, list);
      if (list.empty()) break;
      pos.do_move(list[int(rng() % uint32_t(list.size))], states[ply]);
    }
  }
  EXPECT_GT(checked, 5000);
}

TEST(SazpackPackedSfen, Refusals) {
  // Black's king on "square" 127.
  EXPECT_EQ(decode("fe" + std::string(62, '0')), "packed sfen bit 1: Black's king square 127 is not a square (0-80)");
  // Both kings on 1a.
  EXPECT_EQ(decode(std::string(64, '0')), "packed sfen bit 8: both kings on square 0");
  // Kings apart, every square empty, then zero bits: read as Black pawns in
  // hand, far more than a set.
  EXPECT_EQ(decode("5824" + std::string(60, '0')),
            "packed sfen bit 256: 54 pawns on the board, in hand and boxed; a packed sfen holds a full set of 18");
  // The startpos stem with its last byte set: the last code runs past bit 256.
  std::string tail = std::string(testing::kStartposStemHex).substr(0, 62) + "ff";
  EXPECT_EQ(decode(tail).substr(0, 15), "packed sfen bit");
  EXPECT_NE(decode(tail).find(": a piece runs past bit 256"), std::string::npos);
}

}  // namespace
}  // namespace manaka::sazpack
