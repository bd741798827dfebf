// Teacher conversion: the derivations of each field, and a hand-written corpus
// (tests/fixtures/teacher/refusals.jsonl) with one row per refusal reason.
#include "teacher/convert.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>

#include "../engine/engine_fixture.h"
#include "teacher/corpus_writer.h"
#include "shogi/move.h"
#include "shogi/pack.h"
#include "shogi/position.h"
#include "stream/reader.h"

namespace manaka::teacher {
namespace {

using manaka::testing::Scratch;
using stream::Record;

const std::string kStart = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
const std::string kAfter7g7f = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2";

std::string fixture() { return std::string(MANAKA_SOURCE_DIR) + "/tests/fixtures/teacher/refusals.jsonl"; }

uint16_t mv(const char* usi) { return shogi::Move::parse_usi(usi).value().raw; }

std::vector<Record> read_all(const std::string& path, stream::Header* header = nullptr) {
  auto reader = stream::Reader::open(path);
  EXPECT_TRUE(reader.ok()) << reader.status().message();
  if (header) *header = reader->header();
  std::vector<Record> out;
  stream::RecordView v;
  for (;;) {
    auto more = reader->next(v);
    EXPECT_TRUE(more.ok()) << more.status().message();
    if (!more.ok() || !*more) break;
    out.push_back({v.ply, v.value_z, v.value_q, {v.packed.begin(), v.packed.end()},
                   {v.candidates.begin(), v.candidates.end()}});
  }
  return out;
}

ConvertOptions options(std::vector<std::string> inputs, std::string output) {
  ConvertOptions o;
  o.inputs = std::move(inputs);
  o.output = std::move(output);
  o.eval_coef = 600;
  o.mate_scale = 32000;
  o.mate_slack = 100;
  o.fv_scale = 16;
  return o;
}

TEST(Convert, EachRefusalReasonIsRefusedAndCounted) {
  Scratch dir;
  auto s = convert(options({fixture()}, dir.path("out.mpk")));
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->rows_read, 14u);
  EXPECT_EQ(s->records_written, 4u);
  EXPECT_EQ(s->refused_total(), 10u);
  for (size_t k = 1; k < kRefusalCount; ++k) {
    EXPECT_EQ(s->refused[k], 1u) << refusal_name(Refusal(k));
    ASSERT_TRUE(s->first_refusal[k].has_value());
    EXPECT_EQ(s->first_refusal[k]->row, 3 + k) << refusal_name(Refusal(k));
    EXPECT_EQ(s->first_refusal[k]->file, fixture());
  }
  EXPECT_EQ(s->first_refusal[size_t(Refusal::SideMismatch)]->detail,
            "side 1 but the SFEN has Black to move");
  EXPECT_EQ(s->first_refusal[size_t(Refusal::PlayedNotCandidate)]->detail,
            "played move \"2g2f\" is not among the 2 candidates");
  EXPECT_EQ(s->first_refusal[size_t(Refusal::MissingValue)]->detail,
            "field cp is null, absent or of the wrong type");
  EXPECT_TRUE(s->first_refusal[size_t(Refusal::IllegalMove)]->detail.starts_with("candidate \"5e5d\" is illegal"));
  EXPECT_EQ(s->first_refusal[size_t(Refusal::LengthMismatch)]->detail, "2 cand_moves but 1 cand_cp");
}

TEST(Convert, FieldsAreDerivedAsTheSpecSays) {
  Scratch dir;
  const std::string out = dir.path("out.mpk");
  auto s = convert(options({fixture()}, out));
  ASSERT_TRUE(s.ok()) << s.status().message();
  stream::Header h;
  auto recs = read_all(out, &h);
  ASSERT_EQ(recs.size(), 4u);

  EXPECT_EQ(h.pov, stream::Pov::SideToMove);
  EXPECT_EQ(h.policy_source, stream::PolicySource::Cp);
  EXPECT_EQ(h.mate_scale, 32000);
  EXPECT_EQ(h.mate_slack, 100);
  EXPECT_EQ(h.fv_scale, 16);
  EXPECT_EQ(h.eval_coef, 600.0f);
  EXPECT_EQ(s->effective_slack, 100);
  EXPECT_EQ(s->mate_threshold, 31900);

  // Row 0: Black to move, Black won.
  EXPECT_EQ(recs[0].ply, 0);
  EXPECT_EQ(recs[0].value_z, 1.0f);
  EXPECT_NEAR(recs[0].value_q, std::tanh(50.0 / 1200.0), 1e-6);
  auto start = shogi::Position::from_sfen(kStart);
  auto packed = shogi::pack(*start);
  EXPECT_TRUE(std::equal(packed.begin(), packed.end(), recs[0].packed.begin()));
  ASSERT_EQ(recs[0].candidates.size(), 2u);
  EXPECT_EQ(recs[0].candidates[0], (stream::Candidate{mv("7g7f"), stream::kNoVisits, 50}));
  EXPECT_EQ(recs[0].candidates[1], (stream::Candidate{mv("2g2f"), stream::kNoVisits, 30}));

  // Row 1: White to move, Black won: value_z is -1 from White's side; root
  // score -1318 squashes to -0.8; candidate cp carried unshifted.
  EXPECT_EQ(recs[1].ply, 1);
  EXPECT_EQ(recs[1].value_z, -1.0f);
  EXPECT_NEAR(recs[1].value_q, -0.80f, 1e-3);
  EXPECT_EQ(recs[1].packed[shogi::PACKED_SIDE], 1);
  EXPECT_EQ(recs[1].candidates[0], (stream::Candidate{mv("3c3d"), stream::kNoVisits, -40}));
  EXPECT_EQ(recs[1].candidates[1], (stream::Candidate{mv("8c8d"), stream::kNoVisits, -60}));

  // Row 2: White to move, White won (+1 for White); cp 31950 >= 31900 is a mate.
  EXPECT_EQ(recs[2].value_z, 1.0f);
  EXPECT_EQ(recs[2].value_q, 1.0f);
  EXPECT_EQ(recs[2].candidates[0].cp, 31950);

  // Row 3: a draw stays 0 (not -0); a mate against the mover is -1; ply as is.
  EXPECT_EQ(recs[3].ply, 7);
  EXPECT_EQ(recs[3].value_z, 0.0f);
  EXPECT_FALSE(std::signbit(recs[3].value_z));
  EXPECT_EQ(recs[3].value_q, -1.0f);
}

TEST(Convert, StrictStopsAtTheFirstRefusalNamingFileAndLine) {
  Scratch dir;
  auto o = options({fixture()}, dir.path("out.mpk"));
  o.strict = true;
  auto s = convert(o);
  ASSERT_FALSE(s.ok());
  // A JSON line by its line, from 1 (the fifth line: row 4 from 0).
  EXPECT_EQ(s.status().message(), fixture() + ": line 5: refused (missing_value, a field is null, absent or of "
                                              "the wrong type): field cp is null, absent or of the wrong type");
  EXPECT_FALSE(std::filesystem::exists(dir.path("out.mpk")));
  for (const auto& e : std::filesystem::directory_iterator(dir.path(""))) ADD_FAILURE() << "left " << e.path();
}

// The same rows through parquet, written by the generator's own writer,
// including a run that never committed (a directory of parts).
TEST(Convert, ParquetAndAKilledRunsPartialDirectory) {
  Scratch dir;
  auto row = [](std::string sfen, int side, std::vector<std::string> moves, std::vector<int32_t> cps,
                std::string move) {
    teacher::CorpusRow r;
    r.sfen = std::move(sfen);
    r.side = int8_t(side);
    r.cp = 100;
    r.cand_moves = std::move(moves);
    r.cand_cp = std::move(cps);
    r.move = std::move(move);
    r.result = -1;
    return r;
  };
  std::vector<teacher::CorpusRow> part1 = {row(kStart, 0, {"7g7f", "2g2f"}, {10, 5}, "2g2f"),
                                         row(kStart, 1, {"7g7f"}, {10}, "7g7f")};
  std::vector<teacher::CorpusRow> part2 = {row(kAfter7g7f, 1, {"3c3d", "3c3d"}, {1, 2}, "3c3d"),
                                         row(kAfter7g7f, 1, {"3c3d"}, {1}, "3c3d")};
  const std::string corpus = dir.path("corpus.parquet");
  {
    auto w = teacher::CorpusWriter::open(corpus, {{"generator", "test"}});
    ASSERT_TRUE(w.ok()) << w.status().message();
    ASSERT_TRUE((*w)->write(part1).ok());
    ASSERT_TRUE((*w)->write(part2).ok());
    // Not committed: as if the run were killed here.
  }
  ASSERT_FALSE(std::filesystem::exists(corpus));
  auto again = teacher::CorpusWriter::open(corpus, {});
  ASSERT_FALSE(again.ok());
  EXPECT_TRUE(again.status().message().starts_with(corpus + ".partial: already exists"));

  auto s = convert(options({corpus + ".partial"}, dir.path("partial.mpk")));
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->files.size(), 2u);
  EXPECT_EQ(s->rows_read, 4u);
  EXPECT_EQ(s->records_written, 2u);
  EXPECT_EQ(s->refused[size_t(Refusal::SideMismatch)], 1u);
  EXPECT_EQ(s->refused[size_t(Refusal::RepeatedMove)], 1u);
  auto recs = read_all(dir.path("partial.mpk"));
  ASSERT_EQ(recs.size(), 2u);
  EXPECT_EQ(recs[0].value_z, -1.0f);  // Black to move, White won
  EXPECT_EQ(recs[1].value_z, 1.0f);   // White to move, White won

  // A committed file converts the same.
  std::filesystem::remove_all(corpus + ".partial");
  {
    auto w = teacher::CorpusWriter::open(corpus, {});
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->write(part1).ok());
    ASSERT_TRUE((*w)->write(part2).ok());
    ASSERT_TRUE((*w)->commit().ok());
  }
  EXPECT_FALSE(std::filesystem::exists(corpus + ".partial"));
  auto whole = convert(options({corpus}, dir.path("whole.mpk")));
  ASSERT_TRUE(whole.ok()) << whole.status().message();
  EXPECT_EQ(whole->records_written, 2u);
  EXPECT_EQ(whole->refused_total(), 2u);
}

TEST(Convert, ColumnsAreMappedByName) {
  Scratch dir;
  auto o = options({fixture()}, dir.path("out.mpk"));
  ASSERT_TRUE(o.columns.set("cp=score").ok());
  auto s = convert(o);
  // No "score" key anywhere: every row misses its root score, and a
  // conversion that keeps no row fails, naming the first, and writes nothing.
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("every row was refused (14), so no stream was written; the first: "),
            std::string::npos)
      << s.status().message();
  EXPECT_NE(s.status().message().find("missing_value"), std::string::npos) << s.status().message();
  EXPECT_FALSE(std::filesystem::exists(dir.path("out.mpk")));

  EXPECT_EQ(o.columns.set("score").message(),
            "--column \"score\": expected NAME=COLUMN, e.g. cp=score (NAME is one of sfen, ply, side, cp, "
            "cand_moves, cand_cp, move, result)");
  EXPECT_TRUE(o.columns.set("eval=cp").message().starts_with("--column \"eval=cp\": unknown field \"eval\""));
}

TEST(Convert, AParquetFileWithoutAColumnIsRefusedNamingIt) {
  Scratch dir;
  const std::string corpus = dir.path("c.parquet");
  {
    auto w = teacher::CorpusWriter::open(corpus, {});
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->commit().ok());  // an empty corpus is a valid file
  }
  auto o = options({corpus}, dir.path("out.mpk"));
  auto empty = convert(o);
  ASSERT_TRUE(empty.ok()) << empty.status().message();
  EXPECT_EQ(empty->records_written, 0u);
  ASSERT_TRUE(o.columns.set("cp=score").ok());
  o.overwrite = true;
  auto s = convert(o);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().message(),
            corpus + ": no column \"score\" for field cp (columns: sfen, ply, side, cp, cand_moves, cand_cp, "
                     "move, result); map it with --column cp=NAME");
}

TEST(Convert, BadConventionsAndInputsAreRefused) {
  Scratch dir;
  auto o = options({fixture()}, dir.path("out.mpk"));
  o.eval_coef = 0;
  EXPECT_EQ(convert(o).status().message(),
            "teacher convert: eval_coef 0 is out of range: must be a finite number of centipawns from 1 to 100000");
  o = options({dir.path("nothing.parquet")}, dir.path("out.mpk"));
  EXPECT_EQ(convert(o).status().message(), dir.path("nothing.parquet") + ": no such file or directory");
}

// --eval-coef 1e40 is a finite double that the header's f32 would hold as
// inf (and the stream reader refuses inf): refused before anything is
// written, in one line naming the field. So is everything outside the
// header's range.
TEST(Convert, EvalCoefTheHeaderCannotHoldIsRefused) {
  Scratch dir;
  const std::string out = dir.path("out.mpk");
  auto o = options({fixture()}, out);
  o.eval_coef = 1e40;
  Status st = convert(o).status();
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(),
            "teacher convert: eval_coef 1e+40 is out of range: must be a finite number of centipawns from 1 to "
            "100000 (the header's f32 would hold inf)");
  EXPECT_EQ(st.message().find('\n'), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(out));
  for (double bad : {std::numeric_limits<double>::infinity(), std::nan(""), -600.0, 0.5, 100000.5, 1e6}) {
    o.eval_coef = bad;
    st = convert(o).status();
    ASSERT_FALSE(st.ok()) << bad;
    EXPECT_EQ(st.message().rfind("teacher convert: eval_coef ", 0), 0u) << st.message();
    EXPECT_FALSE(std::filesystem::exists(out));
  }
  o.overwrite = true;  // the second edge replaces the first one's output
  for (double edge : {1.0, 100000.0}) {
    o.eval_coef = edge;
    auto ok = convert(o);
    ASSERT_TRUE(ok.ok()) << edge << ": " << ok.status().message();
    EXPECT_EQ(ok->header.eval_coef, static_cast<float>(edge));
  }
}

}  // namespace
}  // namespace manaka::teacher
