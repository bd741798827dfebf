#include "shogi/opening.h"

#include <string>

#include "core/splitmix64.h"
#include "core/uniform.h"
#include "shogi/game.h"
#include "shogi/movegen.h"

namespace manaka::shogi {

Result<std::vector<Move>> random_opening(uint64_t seed, uint64_t index, int plies) {
  // One generator per index, seeded from both, as chess's: index i's opening
  // does not depend on how many draws index i - 1 needed.
  SplitMix64 mix(seed);
  SplitMix64 rng(mix.next() ^ (index * 0xD1B54A32D192ED03ull));
  for (int attempt = 0; attempt < kOpeningDraws; ++attempt) {
    Game game;
    bool over = false;
    for (int i = 0; i < plies && !over; ++i) {
      MoveList list;
      generate_legal(game.position(), list);
      game.push(list[int(uniform_below(rng, uint64_t(list.size)))]);
      over = game.outcome().has_value();
    }
    if (!over) return game.moves();
  }
  return Status::invalid("no shogi opening of " + std::to_string(plies) + " random plies that does not end the game in " +
                         std::to_string(kOpeningDraws) + " draws");
}

}  // namespace manaka::shogi
