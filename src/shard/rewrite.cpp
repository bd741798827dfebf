#include "shard/rewrite.h"

#include <algorithm>
#include <cstdlib>
#include <string_view>

#include "shard/format.h"
#include "shard/row_group.h"
#include "shard/shard_set.h"
#include "shard/shard_writer.h"

namespace manaka::shard {

namespace {

bool is_set_key(std::string_view key) {
  return key == kSetIdKey || key == kSetShardKey || key == kSetShardsKey || key == kSetRowsKey;
}

}  // namespace

Result<LoadedSet> load_set(const std::vector<std::string>& paths) {
  LoadedSet set;
  if (paths.empty()) return Status::usage("no shards to load");
  for (size_t k = 0; k < paths.size(); ++k) {
    MANAKA_ASSIGN_OR_RETURN(ShardReader reader, ShardReader::open(paths[k]));
    if (footer_value(reader.footer(), "pov") == "1")
      return Status::invalid(paths[k] + ": footer pov 1: its values are read in the side to move's view, "
                             "so rewriting them would flip White's rows");
    const auto rows = static_cast<uint64_t>(reader.num_rows());
    if (k == 0) {
      set.rows_per_shard = std::max<uint64_t>(rows, 1);
      for (const auto& kv : reader.footer())
        if (!is_set_key(kv.first)) set.footer.push_back(kv);
      const std::string id = footer_value(reader.footer(), kSetIdKey);
      if (!id.empty()) set.set_id = std::strtoull(id.c_str(), nullptr, 16);
    } else if (set.rows % set.rows_per_shard != 0 || rows > set.rows_per_shard) {
      return Status::invalid(paths[k] + ": shard " + std::to_string(k) + " of " + std::to_string(rows) +
                             " rows after shards of " + std::to_string(set.rows_per_shard) +
                             ": not a set pack would write");
    }
    set.first_group.push_back(set.groups.size());
    ShardBatch batch;
    for (int g = 0; g < reader.num_row_groups(); ++g) {
      const bool last = g + 1 == reader.num_row_groups();
      if (!last && reader.row_group_rows(g) != kRowGroupRows)
        return Status::invalid(paths[k] + ": row group " + std::to_string(g) + " holds " +
                               std::to_string(reader.row_group_rows(g)) + " rows, not " +
                               std::to_string(kRowGroupRows));
      MANAKA_RETURN_NOT_OK(reader.read_row_group_into(g, ShardColumns{}, batch));
      RowGroupBuffer buffer;
      for (int64_t i = 0; i < batch.rows; ++i) buffer.append(batch.row(i));
      MANAKA_ASSIGN_OR_RETURN(auto columns, buffer.take_columns());
      set.groups.push_back(std::move(columns));
    }
    set.rows += rows;
  }
  return set;
}

Status write_set(const LoadedSet& set, const std::string& prefix, unsigned threads) {
  ShardWriterOptions o;
  o.prefix = prefix;
  o.rows_per_shard = set.rows_per_shard;
  o.footer = set.footer;
  o.set_rows = set.rows;
  o.set_id = set.set_id;
  MANAKA_ASSIGN_OR_RETURN(auto writer, ShardWriter::create(std::move(o)));
  MANAKA_RETURN_NOT_OK(writer->write_shards(threads, [&](ShardSink& sink) {
    const size_t end = sink.shard() + 1 < set.first_group.size() ? set.first_group[sink.shard() + 1] : set.groups.size();
    for (size_t g = set.first_group[sink.shard()]; g < end; ++g) MANAKA_RETURN_NOT_OK(sink.append_group(set.groups[g]));
    return Status();
  }));
  return writer->finish();
}

}  // namespace manaka::shard
