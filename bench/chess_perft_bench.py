"""Chess perft speed: manaka's move generator beside python-chess's, same
positions, same run.

Both count leaves with bulk counting (the number of legal moves at depth 1
is taken without making them). manaka's figure is the time `manaka chess
perft` reports for the walk itself (the process start is not counted);
python-chess's is its own tree walk in Python, which is how its users call
it. python-chess is the only generator its Python users have, so it is the
peer, slow as it is.
"""

import re
import subprocess
import sys
import time
from pathlib import Path

import chess

MANAKA = str(Path(sys.executable).with_name("manaka"))
CASES = [
    ("startpos", chess.STARTING_FEN, 4, 197_281),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3, 97_862),
]


def python_chess_perft(board: chess.Board, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for m in board.legal_moves:
        board.push(m)
        total += python_chess_perft(board, depth - 1)
        board.pop()
    return total


def manaka_perft(fen: str, depth: int) -> tuple[int, float]:
    """Nodes and the seconds the command reports for the walk."""
    run = subprocess.run([MANAKA, "chess", "perft", fen, str(depth)], check=True, capture_output=True, text=True)
    m = re.search(r"perft \d+: (\d+) nodes in ([0-9.]+) s", run.stderr)
    return int(m.group(1)), float(m.group(2))


def main() -> None:
    for name, fen, depth, expected in CASES:
        start = time.perf_counter()
        theirs = python_chess_perft(chess.Board(fen), depth)
        t_theirs = time.perf_counter() - start
        ours, _ = manaka_perft(fen, depth)
        assert ours == theirs == expected, (name, depth, ours, theirs)
        # The same position two plies deeper, so the C++ walk lasts long enough to time.
        deep, t_deep = manaka_perft(fen, depth + 2)
        r_ours, r_theirs = deep / t_deep, theirs / t_theirs
        print(f"chess perft {name}: python-chess depth {depth} ({theirs} nodes), manaka depth {depth + 2} "
              f"({deep} nodes)")
        print(f"  manaka       {r_ours / 1e6:9.2f} M nodes/s ({t_deep:.3f} s)")
        print(f"  python-chess {r_theirs / 1e6:9.3f} M nodes/s ({t_theirs:.3f} s)")
        print(f"  ratio        {r_ours / r_theirs:9.0f}x")


if __name__ == "__main__":
    main()
