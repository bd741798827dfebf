// libFuzzer target: arbitrary bytes through the import decoders (psv, hcpe,
// hcpe3; stream/import_format.h) and the two 32-byte position codes. They
// must only ever refuse: never crash, read out of bounds or size anything
// from an unchecked count. What they accept must hold together:
//   - the first byte picks the format; every whole record or game of the
//     rest becomes records, each accepted one valid MPK1 (validate_record)
//     with its candidates inside the buffer;
//   - hcpe3 games are cut by hcpe3_game_size and never run past the input;
//   - a position code that decodes re-encodes to one that decodes to the
//     same board, and the fast decoder's verdict is the bit-at-a-time one's.
//
//   make fuzz   (builds fuzz/*_fuzz.cpp with clang, seeds in fuzz/seeds/import_fuzz)
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>

#include "shogi/huffman_coded_pos.h"
#include "shogi/pack.h"
#include "shogi/packed_sfen.h"
#include "shogi/position_code.h"
#include "stream/import_format.h"
#include "stream/validate.h"

namespace {

using namespace manaka;
using namespace manaka::stream;

void check(bool ok) {
  if (!ok) __builtin_trap();
}

const ScoreTable& scores() {
  static const ScoreTable t([](int64_t cp) { return float(std::tanh(double(cp) / 1200.0)); });
  return t;
}

void check_buffer(const ImportBuffer& out, Header h) {
  static MoveSeen seen;
  for (const ImportedRecord& r : out.records) {
    if (r.why != ImportRefusal::None) continue;
    check(size_t(r.cand_begin) + r.cand_count <= out.candidates.size());
    check(validate_record(h, out.view(r), seen).ok());
  }
}

// The fast decoder and the bit-at-a-time reference give one verdict: the
// same position or the same message.
void check_agree(const shogi::PositionCodeFormat& f, std::span<const uint8_t, 32> bytes) {
  auto fast = shogi::decode_position_code(f, bytes);
  auto slow = shogi::decode_position_code_by_bits(f, bytes);
  check(fast.ok() == slow.ok());
  if (fast.ok()) check(shogi::pack(*fast) == shogi::pack(*slow));
  else check(fast.status().message() == slow.status().message());
}

void check_codes(std::span<const uint8_t, 32> bytes) {
  check_agree(shogi::packed_sfen_format(), bytes);
  check_agree(shogi::huffman_coded_pos_format(), bytes);
  if (auto pos = shogi::decode_packed_sfen(bytes); pos.ok()) {
    auto again = shogi::decode_packed_sfen(shogi::encode_packed_sfen(*pos));
    check(again.ok() && shogi::pack(*again) == shogi::pack(*pos));
  }
  if (auto pos = shogi::decode_huffman_coded_pos(bytes); pos.ok()) {
    auto code = shogi::encode_huffman_coded_pos(*pos);
    check(code.ok());
    auto again = shogi::decode_huffman_coded_pos(*code);
    check(again.ok() && shogi::pack(*again) == shogi::pack(*pos));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const auto rest = std::span<const uint8_t>(data + 1, size - 1);
  if (rest.size() >= 32) check_codes(rest.first<32>());
  ImportBuffer out;
  Header h;
  switch (data[0] % 3) {
    case 0:
      h.policy_source = PolicySource::Cp;
      import_psv(rest.first(rest.size() / kPsvRecordSize * kPsvRecordSize), scores(), out);
      check(out.records.size() == rest.size() / kPsvRecordSize);
      break;
    case 1:
      h.policy_source = PolicySource::Cp;
      import_hcpe(rest.first(rest.size() / kHcpeRecordSize * kHcpeRecordSize), scores(), out);
      check(out.records.size() == rest.size() / kHcpeRecordSize);
      break;
    default: {
      h.policy_source = PolicySource::Visits;
      size_t at = 0;
      for (;;) {
        size_t needed = 0;
        auto game = hcpe3_game_size(rest.subspan(at), &needed);
        if (!game.ok() || *game == 0) break;
        check(at + *game <= rest.size());
        import_hcpe3_game(rest.subspan(at, *game), scores(), out);
        at += *game;
      }
      break;
    }
  }
  check_buffer(out, h);
  return 0;
}
