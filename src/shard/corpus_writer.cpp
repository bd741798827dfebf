#include "shard/corpus_writer.h"

#include <arrow/api.h>

#include <cstdio>
#include <filesystem>

#include "shard/parquet_file.h"

namespace manaka::shard {

namespace {

namespace fs = std::filesystem;

std::shared_ptr<arrow::Schema> corpus_schema() {
  return arrow::schema({arrow::field("sfen", arrow::utf8()), arrow::field("ply", arrow::int32()),
                        arrow::field("side", arrow::int8()), arrow::field("cp", arrow::int32()),
                        arrow::field("cand_moves", arrow::list(arrow::utf8())),
                        arrow::field("cand_cp", arrow::list(arrow::int32())),
                        arrow::field("move", arrow::utf8()), arrow::field("result", arrow::int8())});
}

Result<std::shared_ptr<arrow::Table>> rows_to_table(std::span<const CorpusRow> rows) {
  auto pool = arrow::default_memory_pool();
  arrow::StringBuilder sfen(pool), move(pool);
  arrow::Int32Builder ply(pool), cp(pool);
  arrow::Int8Builder side(pool), result(pool);
  auto move_values = std::make_shared<arrow::StringBuilder>(pool);
  auto cp_values = std::make_shared<arrow::Int32Builder>(pool);
  arrow::ListBuilder cand_moves(pool, move_values), cand_cp(pool, cp_values);
  auto check = [](const arrow::Status& st) { return from_arrow(st, "building corpus rows"); };
  for (const CorpusRow& r : rows) {
    MANAKA_RETURN_NOT_OK(check(sfen.Append(r.sfen)));
    MANAKA_RETURN_NOT_OK(check(ply.Append(r.ply)));
    MANAKA_RETURN_NOT_OK(check(side.Append(r.side)));
    MANAKA_RETURN_NOT_OK(check(cp.Append(r.cp)));
    MANAKA_RETURN_NOT_OK(check(cand_moves.Append()));
    for (const std::string& m : r.cand_moves) MANAKA_RETURN_NOT_OK(check(move_values->Append(m)));
    MANAKA_RETURN_NOT_OK(check(cand_cp.Append()));
    MANAKA_RETURN_NOT_OK(check(cp_values->AppendValues(r.cand_cp.data(), int64_t(r.cand_cp.size()))));
    MANAKA_RETURN_NOT_OK(check(move.Append(r.move)));
    MANAKA_RETURN_NOT_OK(check(result.Append(r.result)));
  }
  std::vector<std::shared_ptr<arrow::Array>> arrays(8);
  MANAKA_RETURN_NOT_OK(check(sfen.Finish(&arrays[0])));
  MANAKA_RETURN_NOT_OK(check(ply.Finish(&arrays[1])));
  MANAKA_RETURN_NOT_OK(check(side.Finish(&arrays[2])));
  MANAKA_RETURN_NOT_OK(check(cp.Finish(&arrays[3])));
  MANAKA_RETURN_NOT_OK(check(cand_moves.Finish(&arrays[4])));
  MANAKA_RETURN_NOT_OK(check(cand_cp.Finish(&arrays[5])));
  MANAKA_RETURN_NOT_OK(check(move.Finish(&arrays[6])));
  MANAKA_RETURN_NOT_OK(check(result.Finish(&arrays[7])));
  return arrow::Table::Make(corpus_schema(), arrays, int64_t(rows.size()));
}

}  // namespace

Result<std::unique_ptr<CorpusWriter>> CorpusWriter::open(const std::string& path, Footer footer) {
  std::unique_ptr<CorpusWriter> w(new CorpusWriter());
  w->path_ = path;
  w->partial_ = path + ".partial";
  w->footer_ = std::move(footer);
  std::error_code ec;
  if (fs::exists(w->partial_, ec))
    return Status::io(w->partial_ + ": already exists: it holds the completed games of a run that "
                      "did not finish (convert it with `manaka teacher convert " + w->partial_ +
                      "` or read it with pyarrow), so it is not overwritten; move or remove it first");
  if (!fs::create_directories(w->partial_, ec) || ec)
    return Status::io("cannot create " + w->partial_ + ": " + ec.message());
  return w;
}

CorpusWriter::~CorpusWriter() = default;

std::string CorpusWriter::part_path(uint64_t index) const {
  char name[32];
  std::snprintf(name, sizeof name, "part-%05llu.parquet", static_cast<unsigned long long>(index));
  return (fs::path(partial_) / name).string();
}

Status CorpusWriter::write(std::span<const CorpusRow> rows) {
  if (committed_) return Status::invalid(path_ + ": write after commit");
  if (rows.empty()) return Status();
  MANAKA_ASSIGN_OR_RETURN(auto table, rows_to_table(rows));
  ParquetOptions options;
  options.row_group_rows = int64_t(rows.size());
  options.footer = footer_;
  const std::string final_part = part_path(parts_);
  // Hidden while incomplete: pyarrow's dataset discovery skips names that
  // start with '.', and so does the converter.
  const std::string hidden = (fs::path(partial_) / ("." + fs::path(final_part).filename().string())).string();
  MANAKA_RETURN_NOT_OK(write_parquet(*table, hidden, options));
  std::error_code ec;
  fs::rename(hidden, final_part, ec);
  if (ec) return Status::io("cannot rename " + hidden + " to " + final_part + ": " + ec.message());
  ++parts_;
  rows_ += rows.size();
  return Status();
}

Status CorpusWriter::commit() {
  if (committed_) return Status();
  ParquetOptions options;
  options.row_group_rows = int64_t{1} << 30;  // a part is never split
  options.footer = footer_;
  MANAKA_ASSIGN_OR_RETURN(auto out, ParquetFileWriter::open(path_, corpus_schema(), options));
  for (uint64_t i = 0; i < parts_; ++i) {
    MANAKA_ASSIGN_OR_RETURN(auto table, read_parquet(part_path(i)));
    auto batch = table->CombineChunksToBatch();
    if (!batch.ok()) return from_arrow(batch.status(), part_path(i));
    MANAKA_RETURN_NOT_OK(out->write(*batch));
  }
  MANAKA_RETURN_NOT_OK(out->commit());
  committed_ = true;
  std::error_code ec;
  fs::remove_all(partial_, ec);
  if (ec) return Status::io(path_ + " is complete, but " + partial_ + " could not be removed: " + ec.message());
  return Status();
}

}  // namespace manaka::shard
