// packed_is_valid: unpack's verdict on 96 packed bytes, without building the
// Position. unpack checks the bytes one at a time and from_setup places each
// piece; here the 96 bytes are six 16-byte vectors and every rule is a few
// vector instructions over all of them (GCC/Clang vector extensions, as
// stream/validate.cpp: SSE2 on x86-64, plain code elsewhere, no target
// flags). tests/cpp/shogi/pack_test.cpp checks that the verdict is unpack's.
//
// The rules, as unpack and Position::from_setup state them:
//   a board byte is 0xFF (empty) or a piece byte (colour bit 4, kind < 14,
//   bits 5-7 clear); a hand count is at most 18 4 4 4 4 2 2 (P L N S G B R);
//   the side byte is 0 or 1; one king a colour; no unpromoted pawn or lance
//   on its last rank and no knight on its last two; no two unpromoted pawns
//   of a colour on one file; no more pieces of a kind (promoted ones, both
//   hands) than a set has; the side not to move not in check.
#include <bit>
#include <cstdint>
#include <cstring>

#include "shogi/bitboard.h"
#include "shogi/pack.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace manaka::shogi {
namespace {

typedef uint8_t V8 __attribute__((vector_size(16)));  // sixteen bytes
typedef int8_t S8 __attribute__((vector_size(16)));   // the same, compared signed
typedef uint64_t V64 __attribute__((vector_size(16)));

// A lane-wise comparison (a vector of -1 and 0) as bytes.
template <typename M>
inline V8 bytes_of(M m) {
  return std::bit_cast<V8>(m);
}

constexpr int kVectors = PACKED_LEN / 16;  // 6: squares 0-79, then 80, both hands, the side

// The 16 lanes of v that are all ones, as bits 0-15.
inline uint32_t movemask(V8 v) {
#if defined(__SSE2__)
  return static_cast<uint32_t>(_mm_movemask_epi8(std::bit_cast<__m128i>(v)));
#else
  // The high bit of each byte, gathered by one multiply per eight lanes.
  constexpr uint64_t kGather = 0x0002040810204081ULL;
  V64 w = std::bit_cast<V64>(v & 0x80);
  return static_cast<uint32_t>((w[0] * kGather) >> 56) | static_cast<uint32_t>((w[1] * kGather) >> 56) << 8;
#endif
}

// The sums of bytes 0-7 and of bytes 8-15, each below 256.
inline V64 half_sums(V8 v) {
#if defined(__SSE2__)
  return std::bit_cast<V64>(_mm_sad_epu8(std::bit_cast<__m128i>(v), __m128i{}));
#else
  return (std::bit_cast<V64>(v) * 0x0101010101010101ULL) >> 56;
#endif
}

// The 81-bit bitboard of the lanes set in the six board vectors.
inline Bitboard board_mask(const V8 (&m)[kVectors]) {
  uint64_t lo = uint64_t{movemask(m[0])} | uint64_t{movemask(m[1])} << 16 |
                uint64_t{movemask(m[2])} << 32 | uint64_t{movemask(m[3])} << 48;
  uint64_t hi = uint64_t{movemask(m[4])} | uint64_t{movemask(m[5])} << 16;
  return Bitboard(hi) << 64 | lo;
}

// Per-lane constants over the 96 bytes, loaded as six vectors.
struct Lanes {
  alignas(16) uint8_t b[PACKED_LEN];
  V8 vec(int i) const {
    V8 v;
    std::memcpy(&v, b + 16 * i, 16);
    return v;
  }
};

// Lanes that are not squares (81-95) read as empty squares in the board
// vectors: OR-ed in.
constexpr Lanes NOT_BOARD = [] {
  Lanes t{};
  for (size_t i = SQUARE_NB; i < PACKED_LEN; ++i) t.b[i] = 0xFF;
  return t;
}();

// The largest count of each hand byte, the side byte's 1, and 0xFF on the
// squares (any byte; the board rules judge them).
constexpr Lanes MAX_BYTE = [] {
  Lanes t{};
  for (size_t i = 0; i < SQUARE_NB; ++i) t.b[i] = 0xFF;
  for (int c = 0; c < COLOR_NB; ++c)
    for (int hk = 0; hk < HAND_KIND_NB; ++hk) t.b[PACKED_HAND + c * HAND_KIND_NB + hk] = HAND_MAX[hk];
  t.b[PACKED_SIDE] = 1;
  return t;
}();

// The most pieces of each kind a set has, in the bytes the counts take
// below: P L N at 1-3, S G B R at 8-11; other bytes hold no count.
constexpr S8 SET_LIMIT = {INT8_MAX, SET_COUNT[PAWN], SET_COUNT[LANCE], SET_COUNT[KNIGHT], INT8_MAX, INT8_MAX,
                          INT8_MAX, INT8_MAX, SET_COUNT[SILVER], SET_COUNT[GOLD], SET_COUNT[BISHOP],
                          SET_COUNT[ROOK], INT8_MAX, INT8_MAX, INT8_MAX, INT8_MAX};
constexpr V8 HANDS_LOW = {0, 0xFF, 0xFF, 0xFF};
constexpr V8 HANDS_HIGH = {0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF};

// Pieces that can never move again: on its square's lane, a byte b breaks the
// rule when (uint8_t)(b - DEAD_FIRST) < DEAD_COUNT. Black's last rank is 1
// (knight 0x05, lance 0x06, pawn 0x07), its knight's also rank 2; White's are
// rank 9 and 8 (0x15..0x17). Elsewhere DEAD_COUNT is 0: nothing is dead.
constexpr Lanes DEAD_FIRST = [] {
  Lanes t{};
  for (int s = 0; s < SQUARE_NB; ++s) {
    int rank = rank_of(Square(s));
    if (rank <= 2) t.b[s] = make_piece(BLACK, KNIGHT);
    if (rank >= 8) t.b[s] = make_piece(WHITE, KNIGHT);
  }
  return t;
}();
constexpr Lanes DEAD_COUNT = [] {
  static_assert(KNIGHT + 1 == LANCE && LANCE + 1 == PAWN);
  Lanes t{};
  for (int s = 0; s < SQUARE_NB; ++s) {
    int rank = rank_of(Square(s));
    if (rank == 1 || rank == 9) t.b[s] = 3;  // knight, lance, pawn
    if (rank == 2 || rank == 8) t.b[s] = 1;  // knight
  }
  return t;
}();

// Whether some 9-bit file of the bitboard holds two or more bits. Files 0-6
// (bits 0-62) are taken alternately, so each has nine clear bits above it:
// a guard bit there keeps "field - 1" from borrowing out of the field, and
// field & (field - 1) is non-zero exactly when the field has two bits.
inline bool two_on_a_file(Bitboard b) {
  constexpr uint64_t kEven = 0x1FFULL | 0x1FFULL << 18 | 0x1FFULL << 36 | 0x1FFULL << 54;  // files 0 2 4 6
  constexpr uint64_t kOdd = 0x1FFULL << 9 | 0x1FFULL << 27 | 0x1FFULL << 45;              // files 1 3 5
  constexpr uint64_t kEvenLow = 1ULL | 1ULL << 18 | 1ULL << 36 | 1ULL << 54;
  constexpr uint64_t kOddLow = kEvenLow << 9 & kOdd;
  const auto lo = static_cast<uint64_t>(b);
  const uint64_t even = lo & kEven, odd = lo & kOdd;
  uint64_t two = ((even | kEvenLow << 9) - kEvenLow) & even;
  two |= ((odd | kOddLow << 9) - kOddLow) & odd;
  // Files 7 and 8: bits 63-71 and 72-80.
  const auto top = static_cast<uint32_t>(b >> 63);
  const uint32_t f7 = top & 0x1FF, f8 = top >> 9;
  two |= (f7 & (f7 - 1)) | (f8 & (f8 - 1));
  return two != 0;
}

// What attacks a king on k from one step (or a knight's jump) away: up to
// ten squares, each with the kinds of the attacking colour that reach k from
// there. Taken from STEP exactly as Position::attackers_to reads it.
struct StepAttackers {
  uint8_t square[10];   // padded with square 0 ...
  uint32_t pieces[10];  // ... and no pieces; bit (b & 31): board byte b on square attacks k
};

struct AttackTables {
  StepAttackers step[COLOR_NB][SQUARE_NB];  // [attacking colour][king square]
};

const AttackTables ATTACK = [] {
  AttackTables t{};
  constexpr uint16_t kGolds = 1 << GOLD | 1 << PRO_SILVER | 1 << PRO_KNIGHT | 1 << PRO_LANCE | 1 << PRO_PAWN;
  constexpr uint16_t kKings = 1 << KING | 1 << PRO_ROOK | 1 << PRO_BISHOP;
  for (int by = 0; by < COLOR_NB; ++by) {
    const Color victim = ~Color(by);
    for (int k = 0; k < SQUARE_NB; ++k) {
      StepAttackers& e = t.step[by][k];
      Bitboard near = STEP[victim][KING][k] | STEP[victim][KNIGHT][k];
      for (int n = 0; near; ++n) {
        const Square a = pop_lsb(near);
        uint16_t kinds = 0;
        if (STEP[victim][PAWN][k] & square_bb(a)) kinds |= 1 << PAWN;
        if (STEP[victim][KNIGHT][k] & square_bb(a)) kinds |= 1 << KNIGHT;
        if (STEP[victim][SILVER][k] & square_bb(a)) kinds |= 1 << SILVER;
        if (STEP[victim][GOLD][k] & square_bb(a)) kinds |= kGolds;
        if (STEP[victim][KING][k] & square_bb(a)) kinds |= kKings;
        e.square[n] = a;
        // Bit 31 stays clear: an empty square (0xFF & 31) attacks nothing.
        e.pieces[n] = uint32_t{kinds} << (by << 4);
      }
    }
  }
  return t;
}();

// Whether a piece of colour `by` attacks square k (the other colour's king)
// from one step or a knight's jump away.
inline bool step_attacked(const uint8_t* board, Color by, Square k) {
  const StepAttackers& e = ATTACK.step[by][k];
  uint32_t hit = 0;
  for (int n = 0; n < 10; ++n) hit |= e.pieces[n] >> (board[e.square[n]] & 31);
  return (hit & 1) != 0;
}

}  // namespace

bool packed_is_valid(std::span<const uint8_t, PACKED_LEN> bytes) {
  const uint8_t* p = bytes.data();
  V8 raw[kVectors], board[kVectors];
  for (int i = 0; i < kVectors; ++i) {
    std::memcpy(&raw[i], p + 16 * i, 16);
    board[i] = raw[i] | NOT_BOARD.vec(i);
  }

  // Bytes: known board bytes, hand counts and the side in range, no piece
  // that can never move.
  V8 bad{};
  for (int i = 0; i < kVectors; ++i) {
    const V8 b = board[i];
    const V8 known = bytes_of((b & 0xEF) <= 13) | bytes_of(b == 0xFF);  // 0xEF: the colour bit cleared
    bad |= ~known;
    bad |= bytes_of(raw[i] > MAX_BYTE.vec(i));
    bad |= bytes_of(V8(b - DEAD_FIRST.vec(i)) < DEAD_COUNT.vec(i));
  }
  V8 m[kVectors];
  for (int i = 0; i < kVectors; ++i) m[i] = bytes_of(board[i] == make_piece(BLACK, KING));
  const Bitboard black_king = board_mask(m);
  for (int i = 0; i < kVectors; ++i) m[i] = bytes_of(board[i] == make_piece(WHITE, KING));
  const Bitboard white_king = board_mask(m);
  if (movemask(bad) != 0 || !black_king || more_than_one(black_king) || !white_king ||
      more_than_one(white_king)) {
    return false;
  }

  // Nifu: two unpromoted pawns of a colour on a file.
  for (int i = 0; i < kVectors; ++i) m[i] = bytes_of(board[i] == make_piece(BLACK, PAWN));
  if (two_on_a_file(board_mask(m))) return false;
  for (int i = 0; i < kVectors; ++i) m[i] = bytes_of(board[i] == make_piece(WHITE, PAWN));
  if (two_on_a_file(board_mask(m))) return false;

  // Pieces of each base kind (R B G S N L P), promoted ones included, on the
  // board and in both hands: at most a set's. On the board, the kind with its
  // colour bit cleared, promoted kinds mapped to their base (8 9 -> 1 2,
  // 10-13 -> 4-7), counted per lane; an empty square's 0xEF is negative.
  // The same pass marks the sliders of the side to move (rooks, bishops,
  // promoted or not, and lances) for the check test below.
  const auto side = Color(p[PACKED_SIDE]);
  const V8 ours = V8{} + static_cast<uint8_t>(side << 4);
  V8 count[PAWN + 1] = {}, sliders_of_side[kVectors];
  for (int i = 0; i < kVectors; ++i) {
    const V8 c = board[i] & 0xEF;
    const S8 sc = std::bit_cast<S8>(c);
    const V8 base = c - (bytes_of(sc > 7) & 7) + (bytes_of(sc > 9) & 1);
    V8 is[PAWN + 1];
    for (int k = ROOK; k <= PAWN; ++k) {
      is[k] = bytes_of(base == static_cast<uint8_t>(k));
      count[k] -= is[k];
    }
    sliders_of_side[i] = (is[ROOK] | is[BISHOP] | bytes_of(c == uint8_t{LANCE})) & bytes_of((board[i] & 0xF0) == ours);
  }
  // Each count's lanes sum into one byte: a pair's kinds land in bytes j and
  // 8 + j, so that bytes 1-3 hold P L N and bytes 8-11 S G B R.
  auto pair_sums = [&count](int a, int b) {
    const V64 ca = std::bit_cast<V64>(a ? count[a] : V8{}), cb = std::bit_cast<V64>(count[b]);
    return half_sums(std::bit_cast<V8>(__builtin_shufflevector(ca, cb, 0, 2)) +
                     std::bit_cast<V8>(__builtin_shufflevector(ca, cb, 1, 3)));  // lanes at most 12
  };
  const V64 on_board = pair_sums(0, SILVER) | pair_sums(PAWN, GOLD) << 8 | pair_sums(LANCE, BISHOP) << 16 |
                       pair_sums(KNIGHT, ROOK) << 24;
  // Black's and White's hands (bytes 81-87 and 88-94, lanes 1-7 and 8-14 of
  // the last vector) added, then S G B R moved from lanes 4-7 to 8-11: two
  // byte shifts of the vector (psrldq 7, pslldq 4).
  const V8 last = raw[kVectors - 1], zero{};
  const V8 hands =
      last + __builtin_shufflevector(last, zero, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 16, 16, 16, 16, 16, 16);
  const V8 hands_up_4 =
      __builtin_shufflevector(zero, hands, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27);
  const V8 lined_up = (hands & HANDS_LOW) | (hands_up_4 & HANDS_HIGH);
  // At most 81 + 36, so the bytes compare signed.
  const S8 total = std::bit_cast<S8>(std::bit_cast<V8>(on_board) + lined_up);
  if (movemask(bytes_of(total > SET_LIMIT)) != 0) return false;

  // The side not to move must not be in check: no piece of the side to move
  // a step (or a knight's jump) from their king, and no slider of it on a
  // line with their king with nothing between (Position::attackers_to).
  const Color them = ~side;
  const Square their_king = lsb(side == BLACK ? white_king : black_king);
  if (step_attacked(p, side, their_king)) return false;

  // Sliders: first every rook, bishop (promoted or not) and lance of the
  // side to move on a line through their king; usually there is none. Then,
  // for each, whether it attacks along that line.
  const Bitboard orthogonal = PSEUDO[them][ROOK][their_king], diagonal = PSEUDO[them][BISHOP][their_king];
  Bitboard sliders = board_mask(sliders_of_side) & (orthogonal | diagonal);
  if (!sliders) return true;
  for (int i = 0; i < kVectors; ++i) m[i] = bytes_of(board[i] != NO_PIECE);
  const Bitboard occ = board_mask(m);
  const Bitboard forward = PSEUDO[them][LANCE][their_king];
  while (sliders) {
    const Square a = pop_lsb(sliders);
    const Kind k = kind_of(p[a]);
    const bool reaches = (orthogonal & square_bb(a))
                             ? (k == ROOK || k == PRO_ROOK || (k == LANCE && (forward & square_bb(a))))
                             : (k == BISHOP || k == PRO_BISHOP);
    if (reaches && !(between_bb(their_king, a) & occ)) return false;
  }
  return true;
}

}  // namespace manaka::shogi
