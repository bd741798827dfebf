#include "npz/npy_header.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "core/bytes.h"
#include "core/text.h"

namespace manaka::npz {

namespace {

struct DTypeInfo {
  DType type;
  const char* descr;  // as numpy writes it
  size_t itemsize;
};

constexpr std::array<DTypeInfo, 11> DTYPES = {{
    {DType::Bool, "|b1", 1},
    {DType::Int8, "|i1", 1},
    {DType::UInt8, "|u1", 1},
    {DType::Int16, "<i2", 2},
    {DType::UInt16, "<u2", 2},
    {DType::Int32, "<i4", 4},
    {DType::UInt32, "<u4", 4},
    {DType::Int64, "<i8", 8},
    {DType::UInt64, "<u8", 8},
    {DType::Float32, "<f4", 4},
    {DType::Float64, "<f8", 8},
}};

const DTypeInfo& info(DType t) { return DTYPES[static_cast<size_t>(t)]; }

// Where the dict must have padded to: numpy's ARRAY_ALIGN, and the spare
// room it leaves after the dict for the growth axis (GROWTH_AXIS_MAX_DIGITS).
constexpr size_t ARRAY_ALIGN = 64;
constexpr size_t GROWTH_AXIS_MAX_DIGITS = 21;

// A cursor over the dict literal; every refusal names the byte.
class DictParser {
 public:
  explicit DictParser(std::string_view text) : s_(text) {}

  Result<NpyHeader> parse(uint64_t header_size) {
    NpyHeader h;
    h.header_size = header_size;
    bool have_descr = false, have_order = false, have_shape = false, fortran = false;
    skip_space();
    MANAKA_RETURN_NOT_OK(expect('{'));
    for (;;) {
      skip_space();
      if (peek() == '}') break;
      MANAKA_ASSIGN_OR_RETURN(std::string key, string_literal());
      skip_space();
      MANAKA_RETURN_NOT_OK(expect(':'));
      skip_space();
      if (key == "descr") {
        if (have_descr) return error("'descr' given twice");
        have_descr = true;
        if (peek() == '[') return error("a structured dtype (a list of fields) is not supported");
        MANAKA_ASSIGN_OR_RETURN(std::string d, string_literal());
        auto t = dtype_of_descr(d);
        if (!t) return unsupported_descr(d);
        h.dtype = *t;
      } else if (key == "fortran_order") {
        if (have_order) return error("'fortran_order' given twice");
        have_order = true;
        MANAKA_ASSIGN_OR_RETURN(fortran, boolean());
      } else if (key == "shape") {
        if (have_shape) return error("'shape' given twice");
        have_shape = true;
        MANAKA_ASSIGN_OR_RETURN(h.shape, tuple());
      } else {
        return error("unexpected key '" + printable(key) + "' (a .npy header holds descr, fortran_order, shape)");
      }
      skip_space();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == '}') break;
      return error("expected ',' or '}'");
    }
    ++pos_;  // '}'
    skip_space();
    if (pos_ != s_.size()) return error("text after the dict");
    if (!have_descr || !have_order || !have_shape) {
      std::string missing = !have_descr ? "descr" : !have_order ? "fortran_order" : "shape";
      return Status::invalid(".npy header: no '" + missing + "' key");
    }
    if (fortran && h.shape.size() > 1)
      return Status::invalid(".npy header: fortran_order True (column-major) is not supported for shape " +
                             shape_text(h.shape));
    uint64_t bytes = itemsize(h.dtype);
    for (uint64_t d : h.shape) {
      if (__builtin_mul_overflow(bytes, d, &bytes))
        return Status::invalid(".npy header: shape " + shape_text(h.shape) + " of " + std::string(descr(h.dtype)) +
                               " overflows 64 bits");
    }
    h.data_size = bytes;
    return h;
  }

 private:
  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  void skip_space() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) ++pos_;
  }
  Status error(const std::string& what) const {
    return Status::invalid(".npy header: " + what + " at byte " + std::to_string(pos_) + " of the dict");
  }
  Status expect(char c) {
    if (peek() != c) return error(std::string("expected '") + c + "'");
    ++pos_;
    return Status();
  }
  Status unsupported_descr(const std::string& d) const {
    std::string why = "dtype '" + printable(d) + "' is not supported";
    if (!d.empty() && d[0] == '>') why += " (big-endian)";
    return Status::invalid(".npy header: " + why +
                           " (bool, int8-64, uint8-64, float32, float64, little-endian)");
  }
  Result<std::string> string_literal() {
    const char q = peek();
    if (q != '\'' && q != '"') return error("expected a string");
    const size_t start = ++pos_;
    while (pos_ < s_.size() && s_[pos_] != q) {
      if (s_[pos_] == '\\') return error("an escape in a string");
      ++pos_;
    }
    if (pos_ >= s_.size()) return error("a string that does not end");
    std::string out(s_.substr(start, pos_ - start));
    ++pos_;
    return out;
  }
  Result<bool> boolean() {
    for (bool v : {true, false}) {
      const std::string_view word = v ? "True" : "False";
      if (s_.substr(pos_, word.size()) == word) {
        pos_ += word.size();
        return v;
      }
    }
    return error("expected True or False");
  }
  Result<uint64_t> integer() {
    const size_t start = pos_;
    uint64_t v = 0;
    while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') {
      if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, uint64_t(s_[pos_] - '0'), &v))
        return error("a dimension above 2^64");
      ++pos_;
    }
    if (pos_ == start) return error("expected a non-negative integer");
    if (peek() == 'L') ++pos_;  // Python 2's long, as old numpy wrote it
    return v;
  }
  Result<std::vector<uint64_t>> tuple() {
    MANAKA_RETURN_NOT_OK(expect('('));
    std::vector<uint64_t> dims;
    for (;;) {
      skip_space();
      if (peek() == ')') break;
      if (dims.size() == NPY_MAX_DIMS) return error("more than " + std::to_string(NPY_MAX_DIMS) + " dimensions");
      MANAKA_ASSIGN_OR_RETURN(uint64_t d, integer());
      dims.push_back(d);
      skip_space();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == ')') {
        // "(3)" is an int in Python, not a tuple; numpy never writes it.
        if (dims.size() == 1) return error("a one-dimensional shape without its comma");
        break;
      }
      return error("expected ',' or ')' in the shape");
    }
    ++pos_;
    return dims;
  }

  std::string_view s_;
  size_t pos_ = 0;
};

}  // namespace

std::string_view descr(DType t) { return info(t).descr; }
size_t itemsize(DType t) { return info(t).itemsize; }

std::optional<DType> dtype_of_descr(std::string_view d) {
  if (d.size() < 3) return std::nullopt;
  for (const DTypeInfo& i : DTYPES) {
    if (d.substr(1) != std::string_view(i.descr).substr(1)) continue;
    const char order = d[0];
    if (order == '<' || order == '=' || (order == '|' && i.itemsize == 1)) return i.type;
  }
  return std::nullopt;
}

uint64_t NpyHeader::count() const {
  uint64_t n = 1;
  for (uint64_t d : shape) n *= d;  // parse_npy_header checked the byte size fits
  return n;
}

Result<uint64_t> npy_header_size(std::span<const uint8_t> first) {
  if (first.size() < NPY_PREAMBLE_V1)
    return Status::truncated(".npy header: " + std::to_string(first.size()) + " bytes, shorter than its preamble (" +
                             std::to_string(NPY_PREAMBLE_V1) + ")");
  if (std::memcmp(first.data(), NPY_MAGIC, sizeof NPY_MAGIC) != 0)
    return Status::invalid(".npy header: no magic (93 4E 55 4D 50 59, \"\\x93NUMPY\"): not a .npy array");
  const uint8_t major = first[6], minor = first[7];
  if (major < 1 || major > 3 || minor != 0)
    return Status::invalid(".npy header: version " + std::to_string(major) + "." + std::to_string(minor) +
                           " (1.0, 2.0 and 3.0 are known)");
  uint64_t dict_len;
  size_t preamble;
  if (major == 1) {
    preamble = NPY_PREAMBLE_V1;
    dict_len = load_u16(first.data() + 8);
  } else {
    preamble = NPY_PREAMBLE_V2;
    if (first.size() < NPY_PREAMBLE_V2)
      return Status::truncated(".npy header: " + std::to_string(first.size()) +
                               " bytes, shorter than a version 2 preamble (12)");
    dict_len = load_u32(first.data() + 8);
  }
  if (dict_len > NPY_MAX_HEADER)
    return Status::invalid(".npy header: a dict of " + std::to_string(dict_len) + " bytes, above the limit of " +
                           std::to_string(NPY_MAX_HEADER));
  return preamble + dict_len;
}

Result<NpyHeader> parse_npy_header(std::span<const uint8_t> header) {
  MANAKA_ASSIGN_OR_RETURN(uint64_t size, npy_header_size(header));
  if (header.size() < size)
    return Status::truncated(".npy header: " + std::to_string(header.size()) + " bytes of a " +
                             std::to_string(size) + "-byte header");
  const size_t preamble = header[6] == 1 ? NPY_PREAMBLE_V1 : NPY_PREAMBLE_V2;
  std::string_view dict(reinterpret_cast<const char*>(header.data()) + preamble, size - preamble);
  return DictParser(dict).parse(size);
}

std::string shape_text(std::span<const uint64_t> shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1) s += ',';
  return s + ")";
}

std::string format_npy_header(DType t, std::span<const uint64_t> shape) {
  // numpy: "{'descr': ..., 'fortran_order': False, 'shape': (...), }", the
  // growth-axis spaces, then spaces and '\n' up to a multiple of 64.
  std::string dict = "{'descr': '" + std::string(descr(t)) + "', 'fortran_order': False, 'shape': " +
                     shape_text(shape) + ", }";
  if (!shape.empty()) dict.append(GROWTH_AXIS_MAX_DIGITS - std::to_string(shape[0]).size(), ' ');
  const size_t with_newline = dict.size() + 1;
  size_t preamble = NPY_PREAMBLE_V1;
  size_t pad = ARRAY_ALIGN - (preamble + with_newline) % ARRAY_ALIGN;
  if (with_newline + pad > 0xFFFF) {
    preamble = NPY_PREAMBLE_V2;
    pad = ARRAY_ALIGN - (preamble + with_newline) % ARRAY_ALIGN;
  }
  std::string out(preamble, '\0');
  std::memcpy(out.data(), NPY_MAGIC, sizeof NPY_MAGIC);
  out[6] = preamble == NPY_PREAMBLE_V1 ? 1 : 2;
  out[7] = 0;
  auto* p = reinterpret_cast<uint8_t*>(out.data()) + 8;
  if (preamble == NPY_PREAMBLE_V1) store_u16(p, static_cast<uint16_t>(with_newline + pad));
  else store_u32(p, static_cast<uint32_t>(with_newline + pad));
  out += dict;
  out.append(pad, ' ');
  out += '\n';
  return out;
}

}  // namespace manaka::npz
