"""Reading PGN: manaka's streaming reader beside python-chess's, same file,
same run.

A PGN file of 5,000 random legal games (10-150 plies, some comments, NAGs
and a variation here and there, as python-chess exports them) is written
once under build/bench (untimed). Timed, best of 3 for manaka and one run
for python-chess (the slow side): every game read with its headers and
mainline moves, and every move turned into the position after it (manaka's
read_pgn replays as it parses; with python-chess that is
chess.pgn.read_game plus walking the mainline). The two must agree on the
number of games and plies.
"""

import os
import random
import time
from pathlib import Path

import chess
import chess.pgn

from manaka import chess as mchess

GAMES = int(os.environ.get("MANAKA_BENCH_PGN_GAMES", "5000"))
OUT = Path(os.environ.get("MANAKA_BENCH_DIR", "build/bench"))


def build_file(path: Path) -> None:
    rng = random.Random(2026)
    tmp = path.with_suffix(".tmp")
    with open(tmp, "w") as f:
        for n in range(GAMES):
            game = chess.pgn.Game()
            game.headers["Event"] = f"bench {n}"
            node, board = game, chess.Board()
            for _ in range(rng.randint(10, 150)):
                legal = list(board.legal_moves)
                if not legal:
                    break
                move = rng.choice(legal)
                if rng.random() < 0.02 and len(legal) > 1:  # a side line
                    node.add_variation(rng.choice([m for m in legal if m != move]))
                node = node.add_main_variation(move)
                if rng.random() < 0.03:
                    node.comment = "a comment"
                if rng.random() < 0.03:
                    node.nags.add(rng.choice([1, 2, 3, 4]))
                board.push(move)
            game.headers["Result"] = board.result(claim_draw=False) if board.is_game_over() else "*"
            print(game, file=f, end="\n\n")
    tmp.rename(path)


def manaka_read(path: Path) -> tuple[int, int]:
    games = plies = 0
    for game in mchess.read_pgn(str(path)):
        games += 1
        plies += len(game.moves)
    return games, plies


def python_chess_read(path: Path) -> tuple[int, int]:
    games = plies = 0
    with open(path) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            games += 1
            board = game.board()
            for move in game.mainline_moves():
                board.push(move)
                plies += 1
    return games, plies


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"chess-{GAMES}.pgn"
    if not path.exists():
        build_file(path)
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        ours = manaka_read(path)
        best = min(best, time.perf_counter() - start)
    start = time.perf_counter()
    theirs = python_chess_read(path)
    t_theirs = time.perf_counter() - start
    assert ours == theirs, (ours, theirs)
    games, plies = ours
    mb = path.stat().st_size / 1e6
    print(f"PGN read, {mb:.1f} MB: {games} games, {plies} plies")
    print(f"  manaka read_pgn        {plies / best / 1e6:8.2f} M plies/s {games / best:10.0f} games/s ({best:.3f} s)")
    print(f"  python-chess read_game {plies / t_theirs / 1e6:8.2f} M plies/s {games / t_theirs:10.0f} games/s "
          f"({t_theirs:.2f} s)")
    print(f"  ratio                  {t_theirs / best:8.0f}x")


if __name__ == "__main__":
    main()
