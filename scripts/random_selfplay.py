"""Writes an MPK1 self-play stream of random legal games, for the demo.

Each position's "search" spreads a budget of visits over a random subset of
the legal moves (a stand-in until an engine drives self-play); the games are
real games under the full rules, ended by mate or, at a random ply limit,
with a random result (so value_z takes all three values).
Usage: random_selfplay.py OUT.mpk GAMES [SEED] [--overwrite] (an existing OUT.mpk is
replaced only with --overwrite).
"""

import random
import sys

from manaka import shogi, stream


def play(writer: stream.SelfPlayWriter, rng: random.Random, budget: int = 800) -> None:
    pos = shogi.Board()
    writer.begin_game()
    for ply in range(rng.randint(40, 160)):
        legal = [int(m) for m in pos.legal_move16s()]
        if not legal:  # mated: the side to move lost
            writer.end_game(-1 if pos.turn == shogi.BLACK else 1)
            return
        chosen = rng.sample(legal, min(len(legal), rng.randint(1, 40)))
        weights = [rng.random() ** 3 for _ in chosen]
        visits = [1 + int(budget * w / sum(weights)) for w in weights]
        writer.add_position(pos.pack(), ply, rng.uniform(-1, 1), chosen, visits)
        pos.push(shogi.Move.from_move16(chosen[visits.index(max(visits))]))
    writer.end_game(rng.choice([1, -1, 0]))


def main() -> None:
    args = [a for a in sys.argv[1:] if a != "--overwrite"]
    out, games = args[0], int(args[1])
    rng = random.Random(int(args[2]) if len(args) > 2 else 1)
    with stream.SelfPlayWriter(out, overwrite="--overwrite" in sys.argv) as writer:
        for _ in range(games):
            play(writer, rng)
    print(f"{out}: {writer.games_written} games, {writer.records_written} records")


if __name__ == "__main__":
    main()
