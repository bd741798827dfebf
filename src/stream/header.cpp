#include "stream/header.h"

#include <bit>
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>

#include "core/bytes.h"
#include "core/text.h"

namespace manaka::stream {

void encode_header(const Header& h, std::span<uint8_t, kHeaderSize> out) {
  uint8_t* p = out.data();
  store_u32(p + 0, kMagic);
  store_u16(p + 4, h.version);
  store_u16(p + 6, h.packed_len);
  store_u8(p + 8, static_cast<uint8_t>(h.pov));
  store_u8(p + 9, static_cast<uint8_t>(h.policy_source));
  store_u16(p + 10, h.mate_scale);
  store_u16(p + 12, h.fv_scale);
  store_u16(p + 14, h.mate_slack);
  store_f32(p + 16, h.eval_coef);
  store_u32(p + 20, h.flags);
}

namespace {

// Files that are not MPK1 but that users hand to a command reading it, told
// by their first bytes, and the command that takes each.
struct ForeignMagic {
  std::string_view head;
  const char* what;
};
constexpr ForeignMagic kForeignMagics[] = {
    {"PAR1", "a parquet file: a teacher corpus (manaka teacher convert makes MPK1 of it) or shards "
             "(manaka shards inspect; manaka pack has made them already)"},
    {"SAZ2", "a SAZ2 self-play chunk (manaka saz to-mpk makes MPK1 of it)"},
    {"SQLi", "an SQLite file, a VPD1 chess dataset perhaps (manaka vpd)"},
    {"PK\x03\x04", "a zip archive, a chess corpus npz shard perhaps (manaka chess shards inspect)"},
    {"\x28\xB5\x2F\xFD", "zstd-compressed: decompress it first (zstd -d)"},
    {"{", "JSON text: a teacher corpus as JSON lines perhaps (manaka teacher convert)"},
};

std::string foreign_hint(const uint8_t* p) {
  const std::string_view head(reinterpret_cast<const char*>(p), 4);
  for (const ForeignMagic& m : kForeignMagics)
    if (head.substr(0, m.head.size()) == m.head) return std::string("; this is ") + m.what;
  return "; psv and hcpe files have no magic: manaka stream import --from psv|hcpe|hcpe3 reads them";
}

}  // namespace

Result<Header> decode_header(std::span<const uint8_t, kHeaderSize> bytes) {
  const uint8_t* p = bytes.data();
  uint32_t magic = load_u32(p);
  if (magic != kMagic) {
    char msg[96];
    std::snprintf(msg, sizeof msg, "bad magic %02X %02X %02X %02X, expected 4D 50 4B 31 (\"MPK1\")",
                  p[0], p[1], p[2], p[3]);
    return Status::invalid(msg + foreign_hint(p));
  }
  Header h;
  h.version = load_u16(p + 4);
  h.packed_len = load_u16(p + 6);
  h.pov = static_cast<Pov>(load_u8(p + 8));
  h.policy_source = static_cast<PolicySource>(load_u8(p + 9));
  h.mate_scale = load_u16(p + 10);
  h.fv_scale = load_u16(p + 12);
  h.mate_slack = load_u16(p + 14);
  h.eval_coef = load_f32(p + 16);
  h.flags = load_u32(p + 20);
  MANAKA_RETURN_NOT_OK(validate_header(h));
  return h;
}

Status validate_header(const Header& h) {
  if (h.version != kVersion) {
    return Status::invalid("unsupported version " + std::to_string(h.version) +
                           " (this build reads MPK1 version " + std::to_string(kVersion) + ")");
  }
  auto pov = static_cast<unsigned>(h.pov);
  if (pov > 1) {
    return Status::invalid("pov is " + std::to_string(pov) + ", must be 0 (side to move) or 1 (Black)");
  }
  auto source = static_cast<unsigned>(h.policy_source);
  if (source > 1) {
    return Status::invalid("policy_source is " + std::to_string(source) +
                           ", must be 0 (visits) or 1 (cp)");
  }
  const bool eval_coef_absent = std::bit_cast<uint32_t>(h.eval_coef) == 0;  // +0.0 only
  if (!eval_coef_absent && !(h.eval_coef >= kMinEvalCoef && h.eval_coef <= kMaxEvalCoef)) {
    return Status::invalid("eval_coef is " + number_text(h.eval_coef) +
                           ", must be 0 (not applicable) or a finite number of centipawns from 1 to 100000");
  }
  if (h.mate_scale > kMaxMateScale) {
    return Status::invalid("mate_scale is " + std::to_string(h.mate_scale) +
                           ", must be at most 32767 (a mate is stored as an i16 cp)");
  }
  if (h.mate_scale == 0 && h.mate_slack != 0) {
    return Status::invalid("mate_slack is " + std::to_string(h.mate_slack) +
                           " but mate_scale is 0 (no mates); a slack needs a mate_scale");
  }
  const unsigned slack = h.mate_slack != 0 ? h.mate_slack : kDefaultMateSlack;
  if (h.mate_scale != 0 && slack >= h.mate_scale) {
    return Status::invalid("mate_slack " + std::to_string(h.mate_slack) +
                           (h.mate_slack == 0 ? " (the default 320)" : "") + " reaches mate_scale " +
                           std::to_string(h.mate_scale) +
                           ": the mate threshold mate_scale - slack must be at least 1");
  }
  if (h.flags != 0) {
    std::string bits;
    int count = 0;
    for (int b = 0; b < 32; ++b) {
      if (h.flags & (uint32_t{1} << b)) {
        bits += (count++ ? ", " : "") + std::to_string(b);
      }
    }
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%08X", h.flags);
    return Status::invalid(std::string("flags ") + hex + " has " + (count > 1 ? "bits " : "bit ") + bits +
                           " set; version 1 defines no flags");
  }
  return Status();
}

Header selfplay_header() {
  Header h;
  h.packed_len = kShogiPackedLen;
  h.pov = Pov::SideToMove;
  h.policy_source = PolicySource::Visits;
  return h;
}

}  // namespace manaka::stream
