#include "shard_export/shard_export.h"

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <span>
#include <utility>

#include "core/file.h"
#include "core/progress.h"
#include "core/text.h"
#include "shard/shard_sources.h"
#include "shard/shard_reader.h"
#include "shard/shard_set.h"
#include "shard/shard_stream.h"
#include "shogi/pack.h"

namespace manaka::shard_export {

namespace {

// What a shard's footer says about its rows (fold/footer.h); shards of other
// tools may say nothing: no eval_coef. (Its pov is the reader's to turn.)
struct ShardFile {
  std::string path;
  int groups = 0;
  int64_t rows = 0;
  double eval_coef = 0.0;
};

Result<ShardFile> read_footer(const std::string& path) {
  MANAKA_ASSIGN_OR_RETURN(shard::ShardReader reader, shard::ShardReader::open(path));
  ShardFile f{path, reader.num_row_groups(), reader.num_rows()};
  for (const auto& [key, value] : reader.footer()) {
    // The header's f32, as the stream export reads it (the text is its shortest form).
    if (key == "eval_coef") f.eval_coef = double(std::strtof(value.c_str(), nullptr));
  }
  return f;
}

Result<bool> is_shard_file(const std::string& path) {
  MANAKA_ASSIGN_OR_RETURN(InputFile in, InputFile::open(path));
  char magic[4] = {};
  MANAKA_ASSIGN_OR_RETURN(size_t got, in.read(magic, sizeof magic));
  return got == sizeof magic && std::memcmp(magic, "PAR1", sizeof magic) == 0;
}

// Row i of a batch of file f's row group `group`, into the writer.
Status export_row(const ShardFile& f, int group, const shard::ShardBatch& b, int64_t i, stream::ExportWriter& w) {
  stream::ExportSummary& s = w.summary();
  ++s.records_read;
  ++s.shard_rows;
  auto where = [&] {
    return f.path + ": row group " + std::to_string(group) + " row " + std::to_string(i);
  };
  auto pos = shogi::unpack(std::span<const uint8_t>(b.packed).subspan(size_t(i) * shard::kPackedLen, shard::kPackedLen));
  if (!pos.ok()) return std::move(pos).take_status().with_context(where() + ": packed: ");
  const auto row = size_t(i);
  const auto lo = size_t(b.cand_offsets[row]), hi = size_t(b.cand_offsets[row + 1]);
  if (lo == hi) return w.refuse("no_candidate", where() + ": no candidate, so no move to write");
  // Shards of other tools are read too: a mean outside [-1, 1] (or NaN) has no result or score.
  for (const auto& [name, v] : {std::pair{"value_z", b.value_z[row]}, std::pair{"value_q", b.value_q[row]}})
    if (!(v >= -1.0f && v <= 1.0f))
      return w.refuse("value_range", where() + ": " + name + " " + number_text(v) + " is not within [-1, 1]");
  const size_t best = lo + stream::best_candidate(std::span<const float>(b.prob).subspan(lo, hi - lo));
  const bool has_cp = b.cp[best] != shard::kNullCp;
  const double eval_coef = f.eval_coef != 0.0 ? f.eval_coef : w.options().eval_coef;
  if (!has_cp && eval_coef == 0.0)
    return Status::usage(where() + ": the shard's footer has no eval_coef and the row's move no cp: give "
                         "eval_coef to turn value_q into a score");
  // The shard reader hands out the side to move's view (a pov-1 footer turned).
  return w.add(stream::export_item(*pos, b.mv[best], b.cp[best], b.value_q[row], b.value_z[row], b.ply[row],
                                   stream::Pov::SideToMove, eval_coef),
               where);
}

}  // namespace

Status export_shard_files(const std::vector<std::string>& paths, stream::ExportWriter& w) {
  if (paths.empty()) return Status();
  std::vector<ShardFile> files;
  int64_t total_rows = 0;
  for (const std::string& p : paths) {
    MANAKA_ASSIGN_OR_RETURN(ShardFile f, read_footer(p));
    total_rows += f.rows;
    files.push_back(std::move(f));
  }
  shard::ShardStreamOptions so;
  so.columns.weight = false;
  MANAKA_ASSIGN_OR_RETURN(auto rows, shard::ShardStream::open(paths, so));
  Progress progress(paths.size() == 1 ? paths[0] : paths[0] + " ...", uint64_t(total_rows));
  progress.set_units("rows", "rows");
  progress.set_enabled(w.options().progress);
  // The stream hands row groups out file by file, group by group: the
  // footers' counts say which one a batch is.
  size_t file = 0;
  int group = 0;
  uint64_t done = 0;
  shard::ShardBatch batch;
  for (;;) {
    MANAKA_ASSIGN_OR_RETURN(bool more, rows->next(batch));
    if (!more) break;
    while (file < files.size() && group >= files[file].groups) {
      ++file;
      group = 0;
    }
    if (file == files.size()) return Status::invalid(paths.back() + ": more row groups than its footer says");
    for (int64_t i = 0; i < batch.rows; ++i) MANAKA_RETURN_NOT_OK(export_row(files[file], group, batch, i, w));
    ++group;
    done += uint64_t(batch.rows);
    progress.update(done, done);
  }
  progress.finish();
  return Status();
}

Result<stream::ExportSummary> export_records(const stream::ExportOptions& o) {
  // Each input as a run of shard files or one stream, in the order given.
  struct Input {
    std::vector<std::string> shards;  // empty: `stream` is an MPK1 stream
    std::string stream;
  };
  std::vector<Input> inputs;
  std::vector<std::string> read, all_shards;  // every file read: the output is none of them
  for (const std::string& path : o.inputs) {
    std::error_code ec;
    // A directory or a pattern names shards; a file, by its magic.
    bool shards = std::filesystem::is_directory(path, ec) ||
                  (!std::filesystem::exists(path, ec) && path.find_first_of("*?[") != std::string::npos);
    if (!shards) {
      auto sniffed = is_shard_file(path);
      if (!sniffed.ok()) return std::move(sniffed).take_status().with_context("stream export: ");
      shards = *sniffed;
    }
    Input in;
    if (shards) {
      MANAKA_ASSIGN_OR_RETURN(shard::ShardSources found, shard::find_shards({path}));
      in.shards = std::move(found.files);
      all_shards.insert(all_shards.end(), in.shards.begin(), in.shards.end());
      read.insert(read.end(), in.shards.begin(), in.shards.end());
    } else {
      in.stream = path;
      read.push_back(path);
    }
    inputs.push_back(std::move(in));
  }
  MANAKA_RETURN_NOT_OK(shard::check_shard_sets(all_shards).with_context("stream export: "));
  MANAKA_ASSIGN_OR_RETURN(stream::ExportWriter w, stream::ExportWriter::create(o, read));
  for (const Input& in : inputs)
    MANAKA_RETURN_NOT_OK(in.shards.empty() ? stream::export_stream_file(in.stream, w)
                                           : export_shard_files(in.shards, w));
  return w.finish();
}

}  // namespace manaka::shard_export
