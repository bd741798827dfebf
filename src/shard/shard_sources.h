// What a reader of shards is given, turned into shard files: one rule for
// every command and function that reads a set (shards inspect / validate /
// overlap, stream export, manaka.shards, the trainers).
//
// Each source is, in any mix:
//   a file       taken as given (the footer is not asked);
//   a directory  searched recursively, in name order; a *.parquet below it is
//                a shard when its footer's schema has the shard columns
//                (shard/schema.h), so a teacher corpus or VPD export beside
//                the shards is left out, and listed, rather than misread;
//                hidden and "_" names are skipped;
//   a glob       ("shards/*/train-*.parquet") when no file has that name:
//                every match, each then a file or a directory as above.
// A file reached twice (a directory and a file inside it) is refused: its
// rows would count twice. The files are not checked as whole sets here; the
// caller does that (check_shard_sets), once, over all of them.
#pragma once

#include <string>
#include <vector>

#include "core/status.h"

namespace manaka::shard {

struct ShardSources {
  std::vector<std::string> files;     // the shards, in the order found
  std::vector<std::string> left_out;  // parquet files below a directory that are not shards
};

// Refused: a path that names nothing, a glob that matches nothing, a
// directory with no shard below it (naming what it holds instead).
Result<ShardSources> find_shards(const std::vector<std::string>& sources);

}  // namespace manaka::shard
