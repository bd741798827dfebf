#include "shard/overlap.h"

#include <algorithm>
#include <filesystem>
#include <span>
#include <system_error>

#include <nlohmann/json.hpp>

#include "core/text.h"
#include "fold/board_hash.h"
#include "shard/shard_reader.h"
#include "shard/shard_sources.h"
#include "shogi/pack.h"

namespace manaka::shard {

namespace fs = std::filesystem;

namespace {

// A training board: its hash and where it sits, file index << 40 | row in
// the file (16 bytes a row: 160 MB for 10 M rows).
struct Seen {
  uint64_t hash;
  uint64_t where;
  uint32_t file() const { return static_cast<uint32_t>(where >> kRowBits); }
  int64_t row() const { return static_cast<int64_t>(where & ((uint64_t{1} << kRowBits) - 1)); }
  static constexpr int kRowBits = 40;
};

// Reads the packed, ply and weight columns of every file, calling
// visit(file index, row in file, packed row, ply, weight) for each row.
template <class Visit>
Status for_each_row(const std::vector<std::string>& files, Visit&& visit) {
  ShardColumns cols{true, true, false, false, true, false};
  for (size_t f = 0; f < files.size(); ++f) {
    MANAKA_ASSIGN_OR_RETURN(ShardReader reader, ShardReader::open(files[f]));
    int64_t row = 0;
    for (int g = 0; g < reader.num_row_groups(); ++g) {
      MANAKA_ASSIGN_OR_RETURN(ShardBatch batch, reader.read_row_group(g, cols));
      for (int64_t i = 0; i < batch.rows; ++i, ++row)
        visit(f, row, batch.packed.data() + i * kPackedLen, batch.ply[size_t(i)], batch.weight[size_t(i)]);
    }
  }
  return Status();
}

int64_t count_distinct(std::vector<uint64_t>& hashes) {
  std::sort(hashes.begin(), hashes.end());
  return static_cast<int64_t>(std::unique(hashes.begin(), hashes.end()) - hashes.begin());
}

}  // namespace

double OverlapReport::share() const {
  return valid_rows > 0 ? static_cast<double>(shared_rows) / static_cast<double>(valid_rows) : 0.0;
}

double OverlapReport::beyond_opening_share() const {
  return valid_rows > 0 ? static_cast<double>(shared_rows - opening_rows) / static_cast<double>(valid_rows) : 0.0;
}

Result<OverlapReport> shard_overlap(const std::vector<std::string>& train, const std::vector<std::string>& valid,
                                    size_t max_examples, int opening_plies) {
  OverlapReport rep;
  rep.opening_plies = opening_plies;
  MANAKA_ASSIGN_OR_RETURN(ShardSources t, find_shards(train));
  MANAKA_ASSIGN_OR_RETURN(ShardSources v, find_shards(valid));
  rep.train_files = std::move(t.files);
  rep.valid_files = std::move(v.files);

  // Sized once from the footers.
  int64_t train_rows = 0;
  for (const std::string& path : rep.train_files) {
    MANAKA_ASSIGN_OR_RETURN(ShardReader reader, ShardReader::open(path));
    if (reader.num_rows() >= (int64_t{1} << Seen::kRowBits))
      return Status::invalid(path + ": " + std::to_string(reader.num_rows()) + " rows, more than overlap indexes (2^40)");
    train_rows += reader.num_rows();
  }
  std::vector<Seen> seen;
  seen.reserve(static_cast<size_t>(train_rows));
  MANAKA_RETURN_NOT_OK(for_each_row(rep.train_files, [&](size_t f, int64_t row, const uint8_t* packed, uint16_t, uint32_t) {
    seen.push_back({fold::hash_board(packed), uint64_t{f} << Seen::kRowBits | static_cast<uint64_t>(row)});
  }));
  // By hash, then by position, so an example names training's first copy.
  std::sort(seen.begin(), seen.end(),
            [](const Seen& a, const Seen& b) { return a.hash != b.hash ? a.hash < b.hash : a.where < b.where; });
  rep.train_rows = static_cast<int64_t>(seen.size());
  for (size_t i = 0; i < seen.size(); ++i)
    if (i == 0 || seen[i].hash != seen[i - 1].hash) ++rep.train_boards;

  std::vector<uint64_t> valid_hashes, shared_hashes;
  MANAKA_RETURN_NOT_OK(for_each_row(rep.valid_files, [&](size_t f, int64_t row, const uint8_t* packed, uint16_t ply,
                                                        uint32_t w) {
    const uint64_t h = fold::hash_board(packed);
    valid_hashes.push_back(h);
    ++rep.valid_rows;
    rep.valid_weight += w;
    auto it = std::lower_bound(seen.begin(), seen.end(), h, [](const Seen& s, uint64_t v) { return s.hash < v; });
    if (it == seen.end() || it->hash != h) return;
    ++rep.shared_rows;
    if (ply < opening_plies) ++rep.opening_rows;
    rep.shared_weight += w;
    shared_hashes.push_back(h);
    if (rep.examples.size() >= max_examples) return;
    OverlapExample ex;
    std::copy(packed, packed + kPackedLen, ex.packed.begin());
    auto pos = shogi::unpack(std::span<const uint8_t>(packed, kPackedLen));
    ex.sfen = pos.ok() ? pos->sfen() : "(not a valid packed position: " + pos.status().message() + ")";
    ex.valid_path = rep.valid_files[f];
    ex.valid_row = row;
    ex.train_path = rep.train_files[it->file()];
    ex.train_row = it->row();
    rep.examples.push_back(std::move(ex));
  }));
  rep.valid_boards = count_distinct(valid_hashes);
  rep.shared_boards = count_distinct(shared_hashes);
  return rep;
}

std::string format_overlap(const OverlapReport& r) {
  std::string out;
  append_format(out, "train: %lld rows, %lld distinct boards in %zu files\n", static_cast<long long>(r.train_rows),
                static_cast<long long>(r.train_boards), r.train_files.size());
  append_format(out, "valid: %lld rows, %lld distinct boards in %zu files\n", static_cast<long long>(r.valid_rows),
                static_cast<long long>(r.valid_boards), r.valid_files.size());
  append_format(out, "shared: %lld valid rows (%.4f%%), %lld distinct boards, %llu of %llu valid records\n",
                static_cast<long long>(r.shared_rows), 100.0 * r.share(), static_cast<long long>(r.shared_boards),
                static_cast<unsigned long long>(r.shared_weight), static_cast<unsigned long long>(r.valid_weight));
  append_format(out, "  in the opening (ply < %d): %lld rows; beyond it: %lld rows (%.4f%%)\n", r.opening_plies,
                static_cast<long long>(r.opening_rows), static_cast<long long>(r.shared_rows - r.opening_rows),
                100.0 * r.beyond_opening_share());
  for (const OverlapExample& e : r.examples)
    append_format(out, "  %s row %lld = %s row %lld: %s\n", e.valid_path.c_str(), static_cast<long long>(e.valid_row),
                  e.train_path.c_str(), static_cast<long long>(e.train_row), e.sfen.c_str());
  return out;
}

std::string overlap_json(const OverlapReport& r) {
  nlohmann::ordered_json examples = nlohmann::ordered_json::array();
  for (const OverlapExample& e : r.examples)
    examples.push_back({{"sfen", e.sfen}, {"valid_path", e.valid_path}, {"valid_row", e.valid_row},
                        {"train_path", e.train_path}, {"train_row", e.train_row}});
  nlohmann::ordered_json j = {
      {"train_files", r.train_files.size()}, {"train_rows", r.train_rows}, {"train_boards", r.train_boards},
      {"valid_files", r.valid_files.size()}, {"valid_rows", r.valid_rows}, {"valid_boards", r.valid_boards},
      {"shared_rows", r.shared_rows},       {"shared_boards", r.shared_boards}, {"share", r.share()},
      {"opening_plies", r.opening_plies},   {"opening_rows", r.opening_rows},
      {"beyond_opening_share", r.beyond_opening_share()},
      {"valid_weight", r.valid_weight},      {"shared_weight", r.shared_weight}, {"examples", examples}};
  return json_text(j);
}

}  // namespace manaka::shard
