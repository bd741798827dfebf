#include "teacher/corpus_batch.h"

namespace manaka::teacher {

CorpusColumns::CorpusColumns() {
  for (size_t i = 0; i < kCorpusFieldCount; ++i) names[i] = kCorpusFieldNames[i];
}

Status CorpusColumns::set(std::string_view assignment) {
  auto accepted = [] {
    std::string s;
    for (size_t i = 0; i < kCorpusFieldCount; ++i) s += (i ? ", " : "") + std::string(kCorpusFieldNames[i]);
    return s;
  };
  size_t eq = assignment.find('=');
  if (eq == std::string_view::npos || eq == 0 || eq + 1 == assignment.size())
    return Status::usage("--column \"" + std::string(assignment) +
                           "\": expected NAME=COLUMN, e.g. cp=score (NAME is one of " + accepted() + ")");
  std::string_view field = assignment.substr(0, eq);
  for (size_t i = 0; i < kCorpusFieldCount; ++i) {
    if (field == kCorpusFieldNames[i]) {
      names[i] = std::string(assignment.substr(eq + 1));
      return Status();
    }
  }
  return Status::usage("--column \"" + std::string(assignment) + "\": unknown field \"" +
                         std::string(field) + "\"; the fields are " + accepted());
}

void CorpusBatch::clear() {
  rows = 0;
  sfen.clear();
  move.clear();
  ply.clear();
  side.clear();
  cp.clear();
  result.clear();
  missing.clear();
  moves_at.clear();
  cps_at.clear();
  cand_moves.clear();
  cand_cp.clear();
  line.clear();
  keep_alive.reset();
  text.clear();
}

}  // namespace manaka::teacher
