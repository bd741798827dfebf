// libFuzzer target: arbitrary bytes through the SAZ2 decoder. Decoding must
// only ever return errors: never crash, read out of bounds or allocate from a
// count it has not checked. What it accepts must hold together:
//   - the plain and the indexed decode agree, and the ranges tile the payload;
//   - every decoded game serializes again (it meets every invariant) and
//     decodes to the same games; with minimal ULEB128s (same length) the
//     bytes are the input's own;
//   - the columnar decode (stems decoded, games replayed) fails cleanly or
//     yields one row per position;
//   - a stem that decodes re-encodes to a stem that decodes to the same board.
//
//   make fuzz   (builds fuzz/*_fuzz.cpp with clang, seeds in fuzz/seeds/sazpack_decode_fuzz)
#include <cstddef>
#include <cstdint>
#include <span>

#include "sazpack/codec.h"
#include "sazpack/columns.h"
#include "sazpack/packed_sfen.h"

namespace {

using namespace manaka;
using namespace manaka::sazpack;

void check(bool ok) {
  if (!ok) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> in(data, size);
  auto indexed = deserialize_chunk_indexed(in);
  auto plain = deserialize_chunk(in);
  check(indexed.ok() == plain.ok());
  auto cols = decode_columns(in);
  if (!indexed.ok()) {
    check(!cols.ok());
    check(indexed.status().message() == plain.status().message());
    return 0;
  }
  check(indexed->size() == plain->size());
  size_t at = kHeaderSize, positions = 0;
  for (size_t i = 0; i < indexed->size(); ++i) {
    const IndexedSazGame& g = (*indexed)[i];
    check(g.game == (*plain)[i] && g.begin == at && g.end > g.begin);
    at = g.end;
    positions += g.game.positions.size();
    auto stem = decode_packed_sfen(std::span<const uint8_t, kStemSize>(g.game.stem));
    if (stem.ok()) {
      PackedSfen again = encode_packed_sfen(*stem);
      auto back = decode_packed_sfen(std::span<const uint8_t, kStemSize>(again));
      check(back.ok() && back->sfen() == stem->sfen());
    }
  }
  check(at == size);
  auto bytes = serialize_chunk(*plain);
  check(bytes.ok());
  check(bytes->size() <= size);
  if (bytes->size() == size) check(std::equal(bytes->begin(), bytes->end(), data));
  auto again = deserialize_chunk(*bytes);
  check(again.ok() && *again == *plain);
  if (cols.ok()) check(cols->positions() == positions && cols->games() == plain->size());
  return 0;
}
