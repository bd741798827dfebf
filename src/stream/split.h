// `manaka stream split`: MPK1 streams -> a training stream and a validation
// stream, whole games to one side or the other, so that no game is cut in
// two (a game's positions are alike; split by position, validation would
// measure memory). Pack each stream into its own shard directory.
//
// A game is a run of records whose ply rises: a record whose ply is not above
// the one before it starts a new game, and so does each file. Self-play and
// teacher streams hold their games as contiguous blocks in ply order; a game
// whose first ply is above its predecessor's last would join it (the pair
// goes to one side together, which is safe).
//
// Exactly round(share * games) games go to validation (at least one, and at
// least one stays for training), chosen by a permutation of the game indices
// seeded with `seed`: the same inputs and seed give the same two streams.
// The files are read twice (games counted, then records written), so they
// must be files, not pipes. Every input header must be the same; the outputs
// get it. Both outputs appear only when both are complete (core/temporary.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "stream/format.h"

namespace manaka::stream {

struct SplitOptions {
  std::vector<std::string> inputs;
  std::string train;       // output for the training games
  std::string validation;  // output for the validation games
  double share = 0.05;     // of the games, to validation
  uint64_t seed = 0;
  bool overwrite = false;
  bool progress = false;
};

struct SplitSide {
  std::string path;
  uint64_t games = 0;
  uint64_t records = 0;
  uint64_t bytes = 0;  // header included
};

struct SplitSummary {
  std::vector<std::string> files;
  Header header;
  double share = 0.0;
  uint64_t seed = 0;
  SplitSide train, validation;
  double seconds = 0.0;
};

Result<SplitSummary> split_stream(const SplitOptions& options);

std::string format_split_summary(const SplitSummary& s);
std::string split_summary_json(const SplitSummary& s);

}  // namespace manaka::stream
