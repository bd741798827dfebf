#include "fold/spool.h"

#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "core/bytes.h"

namespace manaka::fold {

std::string spool_path(const std::string& dir, char set, uint32_t i, const char* ext) {
  char name[48];
  std::snprintf(name, sizeof name, "/spool-%c-%04u.%s", set, i, ext);
  return dir + name;
}

size_t spool_buffer_bytes(uint32_t spools) {
  constexpr size_t kAllBuffers = size_t{4} << 20, kMin = size_t{64} << 10, kMax = size_t{1} << 20;
  return std::clamp(kAllBuffers / spools, kMin, kMax);
}

uint32_t sets_that_fit(uint64_t limit, uint32_t spools, uint32_t sets) {
  sets = std::max(sets, 1u);
  if (limit >= uint64_t{spools} * sets + kSpareDescriptors) return sets;
  const uint64_t fit = limit > kSpareDescriptors ? (limit - kSpareDescriptors) / std::max(spools, 1u) : 0;
  return static_cast<uint32_t>(std::clamp<uint64_t>(fit, 1, sets));
}

uint32_t ensure_descriptors(uint32_t spools, uint32_t sets) {
  sets = std::max(sets, 1u);
  rlimit lim{};
  if (::getrlimit(RLIMIT_NOFILE, &lim) != 0) return 1;
  const rlim_t want = rlim_t{spools} * sets + kSpareDescriptors;
  if (lim.rlim_cur != RLIM_INFINITY && lim.rlim_cur < want) {
    lim.rlim_cur = lim.rlim_max == RLIM_INFINITY ? want : std::min(want, lim.rlim_max);
    (void)::setrlimit(RLIMIT_NOFILE, &lim);
    if (::getrlimit(RLIMIT_NOFILE, &lim) != 0) return 1;
  }
  return lim.rlim_cur == RLIM_INFINITY ? sets : sets_that_fit(lim.rlim_cur, spools, sets);
}

Result<SpoolWriter> SpoolWriter::create(const std::string& path, size_t buffer_bytes) {
  SpoolWriter w;
  MANAKA_ASSIGN_OR_RETURN(w.file_, OutputFile::create(path));
  w.buf_.resize(buffer_bytes);
  return w;
}

Status SpoolWriter::append(const uint8_t* data, size_t n) {
  bytes_ += n;
  if (used_ + n > buf_.size()) {
    MANAKA_RETURN_NOT_OK(file_.write_all(buf_.data(), used_));
    used_ = 0;
    if (n > buf_.size()) return file_.write_all(data, n);
  }
  std::memcpy(buf_.data() + used_, data, n);
  used_ += n;
  return Status();
}

Status SpoolWriter::close() {
  if (!file_.is_open()) return Status();
  if (used_ > 0) MANAKA_RETURN_NOT_OK(file_.write_all(buf_.data(), used_));
  used_ = 0;
  buf_ = {};
  return file_.close();
}

void encode_spool_row(const shard::Row& row, bool with_cp, std::vector<uint8_t>& out) {
  const size_t n = row.mv.size();
  const size_t cand = spool_cand_size(with_cp);
  const size_t at = out.size();
  out.resize(at + kSpoolRowFixed + cand * n);
  uint8_t* p = out.data() + at;
  std::memcpy(p, row.packed.data(), shard::kPackedLen);
  store_u16(p + 96, row.ply);
  store_f32(p + 98, row.value_z);
  store_f32(p + 102, row.value_q);
  store_u32(p + 106, row.weight);
  store_u16(p + 110, static_cast<uint16_t>(n));
  p += kSpoolRowFixed;
  for (size_t i = 0; i < n; ++i, p += cand) {
    store_u16(p, row.mv[i]);
    store_f32(p + 2, row.prob[i]);
    if (with_cp) store_i16(p + 6, row.cp[i]);
  }
}

size_t spool_row_size(const uint8_t* p, bool with_cp) {
  return kSpoolRowFixed + spool_cand_size(with_cp) * load_u16(p + 110);
}

Result<size_t> decode_spool_row(const uint8_t* p, size_t avail, bool with_cp, shard::Row& row) {
  if (avail < kSpoolRowFixed || avail < spool_row_size(p, with_cp)) {
    return Status::truncated("spool row runs past the end of its file (" + std::to_string(avail) +
                             " bytes left)");
  }
  const size_t n = load_u16(p + 110);
  const size_t cand = spool_cand_size(with_cp);
  std::memcpy(row.packed.data(), p, shard::kPackedLen);
  row.ply = load_u16(p + 96);
  row.value_z = load_f32(p + 98);
  row.value_q = load_f32(p + 102);
  row.weight = load_u32(p + 106);
  row.mv.resize(n);
  row.prob.resize(n);
  row.cp.assign(n, shard::kNullCp);
  const uint8_t* c = p + kSpoolRowFixed;
  for (size_t i = 0; i < n; ++i, c += cand) {
    row.mv[i] = load_u16(c);
    row.prob[i] = load_f32(c + 2);
    if (with_cp) row.cp[i] = load_i16(c + 6);
  }
  return kSpoolRowFixed + cand * n;
}

Status read_files(std::span<const std::string> paths, MappedVector<uint8_t>& bytes,
                  const std::function<void(const MappedVector<uint8_t>&, uint64_t)>& arrived) {
  constexpr uint64_t kChunk = uint64_t{1} << 20;
  std::vector<InputFile> files;
  uint64_t total = 0;
  for (const std::string& path : paths) {
    MANAKA_ASSIGN_OR_RETURN(auto file, InputFile::open(path));
    total += file.size_at_open();
    files.push_back(std::move(file));
  }
  if (bytes.capacity() < total) {
    MappedVector<uint8_t>().swap(bytes);  // the old bytes go before the new come, and growth never copies
    bytes.reserve(total);
  }
  bytes.resize(total);  // new elements left uninitialised (mapped_vector.h): read() writes them
  uint64_t have = 0;
  for (InputFile& file : files) {
    const uint64_t size = file.size_at_open();
    for (uint64_t done = 0; done < size;) {
      const size_t want = static_cast<size_t>(std::min(size - done, kChunk));
      MANAKA_ASSIGN_OR_RETURN(size_t got, file.read(bytes.data() + have, want));
      done += got;
      have += got;
      if (got != want) {
        return Status::truncated(file.path() + ": read " + std::to_string(done) + " of " + std::to_string(size) +
                                 " bytes");
      }
      if (arrived) arrived(bytes, have);
    }
  }
  return Status();
}

}  // namespace manaka::fold
