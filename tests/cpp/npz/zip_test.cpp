// npz/zip_reader, zip_writer, npz_reader, npz_writer: round trips in both
// compressions and with ZIP64 everywhere, numpy's own files (committed
// seeds written by np.savez_compressed and np.savez), and hostile archives:
// cut at every length, every byte flipped, and crafted lies, each refused
// with a message that names the file, the member and the rule.
#include <gtest/gtest.h>

#include <unistd.h>

#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "core/bytes.h"
#include "core/crc32.h"
#include "npz/npz_reader.h"
#include "npz/npz_writer.h"
#include "npz/zip_format.h"
#include "npz/zip_reader.h"

namespace manaka::npz {
namespace {

namespace fs = std::filesystem;

fs::path scratch(const std::string& name) {
  fs::path dir = fs::path(::testing::TempDir()) / ("npz_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::vector<uint8_t> slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

void spit(const fs::path& p, const std::vector<uint8_t>& b) {
  std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), b.size());
}

struct Sample {
  std::vector<int8_t> planes;
  std::vector<int32_t> moves;
  std::vector<double> values;
};

Sample sample(size_t n) {
  Sample s;
  for (size_t i = 0; i < n * 1280; ++i) s.planes.push_back(int8_t((i * 7919 % 13) == 0));
  for (size_t i = 0; i < n; ++i) s.moves.push_back(int32_t(i * 37 % 4672));
  for (size_t i = 0; i < 5; ++i) s.values.push_back(0.5 * double(i) - 1);
  return s;
}

// Writes three arrays of n rows.
std::string write_sample(const fs::path& path, size_t n, ZipWriteOptions o = {}) {
  const Sample s = sample(n);
  auto w = NpzWriter::create(path.string(), o);
  EXPECT_TRUE(w.ok()) << w.status().message();
  const std::array<uint64_t, 4> planes_shape = {n, 20, 8, 8};
  const std::array<uint64_t, 1> rows = {n}, five = {5};
  EXPECT_TRUE(w->add("planes", DType::Int8, planes_shape, s.planes.data()).ok());
  EXPECT_TRUE(w->add("moves", DType::Int32, rows, s.moves.data()).ok());
  EXPECT_TRUE(w->add("values", DType::Float64, five, s.values.data()).ok());
  EXPECT_TRUE(w->commit().ok());
  return path.string();
}

void expect_sample(const NpzReader& r, size_t n) {
  const Sample s = sample(n);
  ASSERT_EQ(r.names(), (std::vector<std::string>{"planes", "moves", "values"}));
  auto planes = r.read("planes");
  ASSERT_TRUE(planes.ok()) << planes.status().message();
  EXPECT_EQ(planes->dtype, DType::Int8);
  EXPECT_EQ(planes->shape, (std::vector<uint64_t>{n, 20, 8, 8}));
  EXPECT_EQ(0, std::memcmp(planes->data.data(), s.planes.data(), s.planes.size()));
  auto moves = r.read("moves");
  ASSERT_TRUE(moves.ok()) << moves.status().message();
  EXPECT_EQ(moves->shape, (std::vector<uint64_t>{n}));
  ASSERT_EQ(moves->data.size(), n * 4);
  EXPECT_EQ(0, std::memcmp(moves->data.data(), s.moves.data(), n * 4));
  auto values = r.read("values");
  ASSERT_TRUE(values.ok()) << values.status().message();
  EXPECT_EQ(values->dtype, DType::Float64);
  EXPECT_EQ(0, std::memcmp(values->data.data(), s.values.data(), 40));
}

TEST(Npz, RoundTripDeflatedStoredAndZip64) {
  const fs::path dir = scratch("roundtrip");
  for (bool compress : {true, false}) {
    for (auto zip64 : {ZipWriteOptions::Zip64::AsZipfile, ZipWriteOptions::Zip64::Always}) {
      ZipWriteOptions o;
      o.compress = compress;
      o.zip64 = zip64;
      const std::string path = write_sample(dir / "a.npz", 300, o);
      auto r = NpzReader::open(path);
      ASSERT_TRUE(r.ok()) << r.status().message();
      for (const ZipEntry& e : r->zip().entries())
        EXPECT_EQ(e.method, compress ? METHOD_DEFLATED : METHOD_STORED);
      expect_sample(*r, 300);
      if (compress) EXPECT_LT(fs::file_size(path), 300u * 1280 / 4);
      // Only the final name is left behind.
      EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
    }
  }
}

TEST(Npz, ZipfileLayout) {
  // The fields zipfile writes for numpy: ZIP64 local sizes, version 4.5, 1980-01-01, ?rw-------.
  const fs::path dir = scratch("layout");
  const auto b = slurp(write_sample(dir / "a.npz", 2));
  EXPECT_EQ(load_u32(b.data()), LOCAL_HEADER_SIG);
  EXPECT_EQ(load_u16(b.data() + 4), 45);
  EXPECT_EQ(load_u16(b.data() + 12), 0x21);
  EXPECT_EQ(load_u32(b.data() + 18), 0xFFFFFFFFu);
  EXPECT_EQ(load_u16(b.data() + 28), 20);
  EXPECT_EQ(std::string(b.begin() + 30, b.begin() + 40), "planes.npy");
  EXPECT_EQ(load_u16(b.data() + 40), 1);
  const uint8_t* end = b.data() + b.size() - END_SIZE;
  EXPECT_EQ(load_u32(end), END_SIG);
  EXPECT_EQ(load_u16(end + 10), 3);
  const uint8_t* cd = b.data() + load_u32(end + 16);
  EXPECT_EQ(load_u32(cd), CENTRAL_ENTRY_SIG);
  EXPECT_EQ(load_u16(cd + 4), 0x032D);
  EXPECT_EQ(load_u16(cd + 30), 0);  // no extra field in a small archive's central directory
  EXPECT_EQ(load_u32(cd + 38), 0600u << 16);
}

TEST(Npz, ReadsNumpysFiles) {
  // fuzz/seeds/npz_fuzz: written by numpy 2.4 (np.savez_compressed, np.savez).
  const fs::path seeds = fs::path(MANAKA_SOURCE_DIR) / "fuzz/seeds/npz_fuzz";
  auto r = NpzReader::open((seeds / "other_dtypes.npz").string());
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->names(), (std::vector<std::string>{"a", "b", "c"}));
  auto a = r->read("a");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->dtype, DType::Float64);
  double v[5];
  std::memcpy(v, a->data.data(), sizeof v);
  EXPECT_EQ(v[4], 4.0);
  auto b = r->read("b");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->dtype, DType::Bool);
  EXPECT_TRUE(b->shape.empty());
  EXPECT_EQ(b->data[0], 1);
  auto c = r->read("c");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->shape, (std::vector<uint64_t>{2, 3}));
  EXPECT_EQ(c->dtype, DType::UInt16);
  for (const char* name : {"shard_deflated.npz", "shard_stored.npz", "shard_empty.npz"}) {
    auto s = NpzReader::open((seeds / name).string());
    ASSERT_TRUE(s.ok()) << s.status().message();
    for (const std::string& array : s->names()) EXPECT_TRUE(s->read(array).ok()) << name << " " << array;
  }
}

TEST(Npz, ByteForByteWhatItReadsBack) {
  // Ours, rewritten from what we read of numpy's stored archive, is numpy's archive.
  const fs::path dir = scratch("bytes");
  const fs::path seed = fs::path(MANAKA_SOURCE_DIR) / "fuzz/seeds/npz_fuzz/shard_stored.npz";
  auto r = NpzReader::open(seed.string());
  ASSERT_TRUE(r.ok());
  ZipWriteOptions o;
  o.compress = false;
  auto w = NpzWriter::create((dir / "copy.npz").string(), o);
  ASSERT_TRUE(w.ok());
  for (const std::string& name : r->names()) {
    auto a = r->read(name);
    ASSERT_TRUE(a.ok());
    ASSERT_TRUE(w->add(name, a->dtype, a->shape, a->data.data()).ok());
  }
  ASSERT_TRUE(w->commit().ok());
  EXPECT_EQ(slurp(dir / "copy.npz"), slurp(seed));
}

TEST(Npz, WriterRefusals) {
  const fs::path dir = scratch("writer");
  auto w = NpzWriter::create((dir / "a.npz").string());
  ASSERT_TRUE(w.ok());
  const int32_t x[1] = {1};
  const std::array<uint64_t, 1> one = {1};
  ASSERT_TRUE(w->add("x", DType::Int32, one, x).ok());
  EXPECT_EQ(w->add("x", DType::Int32, one, x).message(), (dir / "a.npz").string() + ": member 'x.npy': a second member of this name");
  ZipWriteOptions bad;
  bad.level = 11;
  EXPECT_FALSE(NpzWriter::create((dir / "b.npz").string(), bad).ok());
  // Uncommitted: nothing under the final name, no temporary left.
  { auto w2 = NpzWriter::create((dir / "c.npz").string()); }
  EXPECT_FALSE(fs::exists(dir / "c.npz"));
}

// ---- hostile archives ----

std::string open_error(const std::vector<uint8_t>& bytes) {
  auto r = NpzReader::from_memory(bytes, "h.npz");
  if (!r.ok()) return r.status().message();
  for (const std::string& name : r->names()) {
    auto a = r->read(name);
    if (!a.ok()) return a.status().message();
  }
  return "";
}

std::vector<uint8_t> sample_bytes(bool compress, size_t n = 40) {
  const fs::path dir = scratch("hostile_src");
  ZipWriteOptions o;
  o.compress = compress;
  return slurp(write_sample(dir / "a.npz", n, o));
}

TEST(NpzHostile, EveryCutIsRefused) {
  for (bool compress : {true, false}) {
    const auto full = sample_bytes(compress);
    ASSERT_EQ(open_error(full), "");
    for (size_t len = 0; len < full.size(); ++len) {
      std::vector<uint8_t> cut(full.begin(), full.begin() + len);
      const std::string e = open_error(cut);
      EXPECT_NE(e, "") << "cut at " << len;
      EXPECT_EQ(e.rfind("h.npz: ", 0), 0u) << e;
    }
  }
}

TEST(NpzHostile, FlippedBytesNeverCrashAndNeverPassBadData) {
  for (bool compress : {true, false}) {
    const auto full = sample_bytes(compress, 8);
    for (size_t i = 0; i < full.size(); ++i) {
      for (uint8_t mask : {0x01, 0x80, 0xFF}) {
        auto b = full;
        b[i] ^= mask;
        auto r = NpzReader::from_memory(b, "h.npz");
        if (!r.ok()) continue;
        // What reads back under a flipped byte is either refused or unchanged
        // (a flip in a field the reader does not use: time, attributes, version).
        for (const std::string& name : r->names()) {
          auto a = r->read(name);
          if (!a.ok()) continue;
          auto clean = NpzReader::from_memory(full, "h.npz");
          auto want = clean->read(name);
          if (!want.ok()) continue;  // a renamed member
          EXPECT_TRUE(a->data == want->data && a->shape == want->shape) << "byte " << i << " mask " << int(mask);
        }
      }
    }
  }
}

// Offsets into an archive written by write_sample with 40 rows, found by parsing.
struct Layout {
  std::vector<uint8_t> b;
  size_t end;       // end record
  size_t cd;        // central directory
  size_t first_cd;  // first central entry
};

Layout layout(bool compress) {
  Layout l;
  l.b = sample_bytes(compress);
  l.end = l.b.size() - END_SIZE;
  l.cd = load_u32(l.b.data() + l.end + 16);
  l.first_cd = l.cd;
  return l;
}

TEST(NpzHostile, CraftedLiesNamedPrecisely) {
  auto err = [](const std::vector<uint8_t>& b) { return open_error(b); };
  {
    Layout l = layout(true);
    store_u16(l.b.data() + l.end + 8, 4000);
    store_u16(l.b.data() + l.end + 10, 4000);
    EXPECT_EQ(err(l.b), "h.npz: 4000 entries cannot fit a central directory of " +
                            std::to_string(l.b.size() - END_SIZE - l.cd) + " bytes (46 bytes each at least)");
  }
  {
    Layout l = layout(true);
    store_u32(l.b.data() + l.end + 16, l.cd + 1);
    EXPECT_NE(err(l.b).find("does not end where the end record starts"), std::string::npos) << err(l.b);
  }
  {
    Layout l = layout(true);  // a member that claims to inflate to 4 GiB from a few bytes
    store_u32(l.b.data() + l.first_cd + 24, 0xFFFFFFF0u);
    EXPECT_NE(err(l.b).find("h.npz: member 'planes.npy': "), std::string::npos);
    EXPECT_NE(err(l.b).find("deflated bytes cannot inflate to the 4294967280 declared (deflate's limit is 1032 to 1)"),
              std::string::npos)
        << err(l.b);
  }
  {
    Layout l = layout(true);
    store_u32(l.b.data() + l.first_cd + 16, load_u32(l.b.data() + l.first_cd + 16) ^ 1);
    EXPECT_NE(err(l.b).find("h.npz: member 'planes.npy': CRC-32 is "), std::string::npos) << err(l.b);
  }
  {
    Layout l = layout(false);
    store_u32(l.b.data() + l.first_cd + 24, load_u32(l.b.data() + l.first_cd + 24) + 1);
    EXPECT_NE(err(l.b).find("h.npz: member 'planes.npy': stored, yet "), std::string::npos) << err(l.b);
  }
  {
    Layout l = layout(true);
    store_u16(l.b.data() + l.first_cd + 8, FLAG_ENCRYPTED);
    EXPECT_EQ(err(l.b), "h.npz: member 'planes.npy': encrypted (not supported)");
  }
  {
    Layout l = layout(true);
    store_u16(l.b.data() + l.first_cd + 10, 12);
    EXPECT_EQ(err(l.b), "h.npz: member 'planes.npy': compression method 12 (only 0, stored, and 8, deflate, are supported)");
  }
  {
    Layout l = layout(true);  // the third entry ("values.npy") renamed to the first's name
    const size_t third = l.first_cd + CENTRAL_ENTRY_SIZE + 10 + CENTRAL_ENTRY_SIZE + 9;
    std::memcpy(l.b.data() + third + CENTRAL_ENTRY_SIZE, "planes.npy", 10);
    EXPECT_EQ(err(l.b), "h.npz: member 'planes.npy': a second member of this name");
  }
  {
    Layout l = layout(true);  // the local header's name differs
    l.b[30] = 'P';
    EXPECT_EQ(err(l.b), "h.npz: member 'planes.npy': the local header at 0 names another member than the central "
                        "directory");
  }
  {
    Layout l = layout(true);  // compressed size reaching into the central directory
    store_u32(l.b.data() + l.first_cd + 20, l.cd);
    EXPECT_NE(err(l.b).find("run past the start of the central directory"), std::string::npos) << err(l.b);
  }
  {
    Layout l = layout(true);  // a ZIP64 marker without its extra field
    store_u32(l.b.data() + l.first_cd + 42, 0xFFFFFFFFu);
    EXPECT_EQ(err(l.b), "h.npz: member 'planes.npy': the local header offset reads all ones but the ZIP64 extra "
                        "field does not hold it");
  }
  {
    Layout l = layout(true);  // inflated size one byte short of the data: too much comes out
    store_u32(l.b.data() + l.first_cd + 24, load_u32(l.b.data() + l.first_cd + 24) - 1);
    EXPECT_NE(err(l.b).find("h.npz: member 'planes.npy': "), std::string::npos) << err(l.b);
  }
  {
    Layout l = layout(true);  // garbage in the deflate stream
    for (int i = 0; i < 16; ++i) l.b[60 + 128 + i] ^= 0x5A;
    const std::string e = err(l.b);
    EXPECT_NE(e.find("h.npz: member 'planes.npy': "), std::string::npos) << e;
  }
  {
    std::vector<uint8_t> b(100, 0);
    EXPECT_EQ(err(b), "h.npz: no end record (50 4B 05 06, ending the file) in its last 100 bytes: not a zip archive, "
                      "or cut short");
    EXPECT_EQ(err({}), "h.npz: 0 bytes, too short for a zip archive (its end record alone is 22)");
  }
}

TEST(NpzHostile, Limits) {
  const auto b = sample_bytes(true);
  ZipLimits l;
  l.max_member_bytes = 1000;
  auto r = ZipReader::from_memory(b, "h.npz", l);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "h.npz: member 'planes.npy': 51328 bytes inflated, above the limit of 1000");
  l = ZipLimits();
  l.max_entries = 2;
  EXPECT_EQ(ZipReader::from_memory(b, "h.npz", l).status().message(), "h.npz: 3 entries, above the limit of 2");
}

TEST(NpzHostile, NotNpyMembersAndArrayMismatch) {
  const fs::path dir = scratch("notnpy");
  {
    auto w = ZipWriter::create((dir / "a.npz").string());
    const uint8_t text[] = "hello";
    ASSERT_TRUE(w->add("readme.txt", {std::span<const uint8_t>(text, 5)}).ok());
    ASSERT_TRUE(w->commit().ok());
    EXPECT_EQ(NpzReader::open((dir / "a.npz").string()).status().message(),
              (dir / "a.npz").string() + ": member 'readme.txt': not a .npy array (an npz archive holds NAME.npy members)");
  }
  {
    // A header that claims more data than the member holds.
    const std::array<uint64_t, 1> shape = {10};
    const std::string header = format_npy_header(DType::Int32, shape);
    const int32_t data[9] = {};
    auto w = ZipWriter::create((dir / "b.npz").string());
    ASSERT_TRUE(w->add("x.npy", {std::span(reinterpret_cast<const uint8_t*>(header.data()), header.size()),
                                 std::span(reinterpret_cast<const uint8_t*>(data), sizeof data)})
                    .ok());
    ASSERT_TRUE(w->commit().ok());
    auto r = NpzReader::open((dir / "b.npz").string());
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->read("x").status().message(), (dir / "b.npz").string() +
                                                   ": member 'x.npy': shape (10,) of '<i4' is 40 bytes, but the member "
                                                   "holds 36 after its header");
    EXPECT_EQ(r->read("y").status().message(), (dir / "b.npz").string() + ": no array 'y'");
  }
  {
    // A header shorter than the 12 bytes a version 2 preamble takes (the fuzzer's first find).
    const std::string member = std::string("\x93NUMPY\x01\x00\x00\x00", 10) + std::string(20, 'x');
    auto w = ZipWriter::create((dir / "c.npz").string());
    ASSERT_TRUE(w->add("x.npy", {std::span(reinterpret_cast<const uint8_t*>(member.data()), member.size())}).ok());
    ASSERT_TRUE(w->commit().ok());
    auto r = NpzReader::open((dir / "c.npz").string());
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->read("x").status().message(),
              (dir / "c.npz").string() + ": member 'x.npy': .npy header: expected '{' at byte 0 of the dict");
  }
}

}  // namespace
}  // namespace manaka::npz
