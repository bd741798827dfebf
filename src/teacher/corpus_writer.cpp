#include "teacher/corpus_writer.h"

#include <cstdio>
#include <filesystem>

#include "parquet/column_builder.h"
#include "parquet/reader.h"
#include "parquet/writer.h"

namespace manaka::teacher {

namespace {

namespace fs = std::filesystem;

using parquet::Field;
using parquet::Type;

const std::vector<Field>& corpus_fields() {
  using parquet::field;
  // list<string> and list<int32> as Arrow names them: the element is "item".
  static const std::vector<Field> fields = {
      field("sfen", Type::Utf8),
      field("ply", Type::Int32),
      field("side", Type::Int8),
      field("cp", Type::Int32),
      parquet::list_of("cand_moves", field("item", Type::Utf8)),
      parquet::list_of("cand_cp", field("item", Type::Int32)),
      field("move", Type::Utf8),
      field("result", Type::Int8),
  };
  return fields;
}

// The rows as the eight columns, in corpus_fields() order.
struct CorpusColumnsBuilder {
  std::vector<parquet::ColumnBuilder> columns;

  CorpusColumnsBuilder() {
    for (const Field& f : corpus_fields()) columns.emplace_back(f);
  }
  void append(const CorpusRow& r) {
    columns[0].append_text(r.sfen);
    columns[1].append<int32_t>(r.ply);
    columns[2].append<int8_t>(r.side);
    columns[3].append<int32_t>(r.cp);
    for (const std::string& m : r.cand_moves) columns[4].element().append_text(m);
    columns[4].end_list();
    for (int32_t c : r.cand_cp) columns[5].element().append<int32_t>(c);
    columns[5].end_list();
    columns[6].append_text(r.move);
    columns[7].append<int8_t>(r.result);
  }
  std::vector<parquet::Column> views() const {
    std::vector<parquet::Column> out;
    for (const auto& c : columns) out.push_back(c.column());
    return out;
  }
};

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
  CorpusColumnsBuilder columns;
  for (const CorpusRow& r : rows) columns.append(r);
  parquet::WriteOptions options;
  options.row_group_rows = int64_t(rows.size());
  options.footer = footer_;
  const std::string final_part = part_path(parts_);
  // Hidden while incomplete: pyarrow's dataset discovery skips names that
  // start with '.', and so does the converter.
  const std::string hidden = (fs::path(partial_) / ("." + fs::path(final_part).filename().string())).string();
  MANAKA_RETURN_NOT_OK(parquet::write_parquet(hidden, corpus_fields(), int64_t(rows.size()), columns.views(), options));
  std::error_code ec;
  fs::rename(hidden, final_part, ec);
  if (ec) return Status::io("cannot rename " + hidden + " to " + final_part + ": " + ec.message());
  ++parts_;
  rows_ += rows.size();
  return Status();
}

Status CorpusWriter::commit() {
  if (committed_) return Status();
  parquet::WriteOptions options;
  options.row_group_rows = int64_t{1} << 30;  // a part is never split
  options.footer = footer_;
  MANAKA_ASSIGN_OR_RETURN(auto out, parquet::ParquetFileWriter::open(path_, corpus_fields(), options));
  for (uint64_t i = 0; i < parts_; ++i) {
    MANAKA_ASSIGN_OR_RETURN(parquet::ColumnBatch part, parquet::read_parquet(part_path(i)));
    MANAKA_RETURN_NOT_OK(out->write(part.rows, part.columns));
  }
  MANAKA_RETURN_NOT_OK(out->commit());
  committed_ = true;
  std::error_code ec;
  fs::remove_all(partial_, ec);
  if (ec) return Status::io(path_ + " is complete, but " + partial_ + " could not be removed: " + ec.message());
  return Status();
}

}  // namespace manaka::teacher
