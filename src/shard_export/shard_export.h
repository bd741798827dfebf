// `manaka stream export` over shard sets as well as MPK1 streams: the rows
// `manaka pack` wrote, read through the shard reader (shard/shard_stream.h),
// go out as psv or hcpe records by the rules of stream/export.h. Here, in
// the pipelines layer, because the shard reader is; the MPK1 side and the
// record rules stay in the formats layer (stream/export.h).
//
// A shard row becomes one record (docs/import.md, "Export"):
//   move    the candidate of highest prob (the first on ties)
//   score   its cp; a null cp (a visit-sourced set): value_q turned back
//           with the footer's eval_coef, or --eval-coef when it is 0
//   result  value_z, the mean of the folded games' results, rounded by the
//           threshold (default: to the nearest of -1, 0, 1)
//   ply     psv gamePly: the row's ply (the lowest the board was seen at)
// weight (how many records the row folded), the other candidates and their
// probabilities are not carried. A row with no candidate (no move to write)
// or a value_z / value_q outside [-1, 1] (shards of other tools) is refused
// and counted. The footer's pov "1" (Black's view) is turned to the side to
// move, as for streams (by the shard reader, shard/shard_reader.h).
#pragma once

#include <string>
#include <vector>

#include "core/status.h"
#include "stream/export.h"

namespace manaka::shard_export {

// Every row of the shard files `paths`, in file and row order, into the writer.
Status export_shard_files(const std::vector<std::string>& paths, stream::ExportWriter& writer);

// The inputs in order: a directory stands for its *.parquet shards, a file
// starting with parquet's magic "PAR1" is a shard, any other file an MPK1
// stream. The shard files must make whole sets (shard/shard_set.h).
Result<stream::ExportSummary> export_records(const stream::ExportOptions& options);

}  // namespace manaka::shard_export
