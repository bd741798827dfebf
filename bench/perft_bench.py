"""Perft speed: manaka's move generator beside cshogi's, same positions, same run.

Both count leaves with bulk counting (the number of legal moves at depth 1
is taken without making them). manaka runs entirely in C++; cshogi's tree
walk is driven from Python over its C++ generator, which is how its users
call it.
"""

import time

import cshogi

from manaka import shogi

CASES = [
    ("startpos", 5, 19_861_490),
    # A middlegame with pieces in hand: drops dominate the move count.
    ("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1", 3, None),
]


def cshogi_perft(board: cshogi.Board, depth: int) -> int:
    if depth == 1:
        return len(board.legal_moves)
    total = 0
    for m in board.legal_moves:
        board.push(m)
        total += cshogi_perft(board, depth - 1)
        board.pop()
    return total


def timed(fn):
    start = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - start


def main() -> None:
    for sfen, depth, expected in CASES:
        ours, t_ours = timed(lambda: shogi.perft(sfen, depth))
        board = cshogi.Board() if sfen == "startpos" else cshogi.Board(sfen)
        theirs, t_theirs = timed(lambda: cshogi_perft(board, depth))
        assert ours == theirs, (sfen, depth, ours, theirs)
        if expected is not None:
            assert ours == expected
        r_ours, r_theirs = ours / t_ours, theirs / t_theirs
        print(f"perft {sfen[:40]!r} depth {depth}: {ours} nodes")
        print(f"  manaka {r_ours / 1e6:8.2f} M nodes/s ({t_ours:.3f} s)")
        print(f"  cshogi {r_theirs / 1e6:8.2f} M nodes/s ({t_theirs:.3f} s)")
        print(f"  ratio  {r_ours / r_theirs:8.2f}x")


if __name__ == "__main__":
    main()
