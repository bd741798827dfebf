// Reading the PGN inputs of `manaka vpd build` into the sampler, on one
// thread or on several with the same result byte for byte.
//
// One thread: chess::PgnGames, game after game, each offered to the sampler.
//
// Several: a reader thread decompresses each input in turn and cuts it into
// pieces of about chunk_bytes at a likely game boundary (a '[' at the start
// of a line that follows an empty line); worker threads read the pieces
// (chess::PgnReader from the piece's line and byte in the file) and compute
// each game's candidates (sampler.h, candidates_of: SAN, positions, FENs,
// hashes, phases); the calling thread takes the pieces in input order,
// renumbers their games across the piece and file before them, and offers
// the candidates to the sampler (only the draws run in order). A cut that
// was not a game boundary (a blank line then '[' inside a comment or a
// game without its result token) shows as a piece whose reader did not end
// between two games; that piece is then read again joined to the next one,
// on the calling thread, so the games, their numbers, the refusals and their
// messages are those of the one-thread reading whatever the cuts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "chess/pgn_games.h"
#include "core/progress.h"
#include "core/status.h"
#include "vpd/sampler.h"

namespace manaka::vpd {

// A piece's games hold their positions until sampled (~180 bytes each), and
// 2 x threads + 2 pieces are in flight: ~6 MB a piece of 1 MiB.
constexpr size_t DEFAULT_CHUNK_BYTES = size_t{1} << 20;

struct IngestOptions {
  int threads = 1;  // 1: read on the calling thread
  size_t chunk_bytes = DEFAULT_CHUNK_BYTES;
  size_t keep_messages = 10;
};

// What PgnGames counts, for the summary and the metadata.
struct IngestTally {
  std::vector<chess::PgnFileCount> files;
  std::vector<std::string> messages;  // the first keep_messages refusals
  uint64_t games_read = 0, games_skipped = 0;
};

// Offers every game of inputs, in order, to sampler. Refused games are
// skipped and counted; an input that cannot be opened or read to its end
// is the error.
Status ingest(const std::vector<std::string>& inputs, const IngestOptions& options, Sampler& sampler,
              IngestTally& tally, Progress& progress);


}  // namespace manaka::vpd
